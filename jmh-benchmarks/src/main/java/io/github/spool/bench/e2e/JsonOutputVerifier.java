package io.github.spool.bench.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Checks the output of a JSON configuration: every line must parse, with a real JSON parser
 * (Jackson), as exactly one object whose {@code message} is the {@link EventLine} message; each
 * producer's sequence numbers must appear once each, in order, and the lines must be as many as
 * the events. The producer comes from the thread field of the format: {@code thread_name}
 * (logstash-logback-encoder), {@code process.thread.name} (log4j2's ECS) or {@code process}'s
 * nested {@code thread.name} (Spring Boot's ECS).
 *
 * <p>Parsing every line is far slower than {@link OutputVerifier}'s byte matching, which is why
 * only the json scenario uses it, after the measured run.
 */
public final class JsonOutputVerifier {

    /** JSON pointers: a {@code /} nests, a {@code .} is part of the name. */
    private static final List<String> THREAD_FIELDS = List.of("/thread_name", "/process.thread.name", "/process/thread/name");

    private final ObjectMapper mapper = new ObjectMapper();
    private final SequenceTally tally = new SequenceTally();
    private long lines;
    private long bytes;

    /**
     * Checks a whole output file.
     *
     * @param file     the output
     * @param expected events produced per producer index
     * @return the verdict, in {@link OutputVerifier}'s terms
     * @throws IOException if the file cannot be read
     */
    public OutputVerifier.Verdict verify(Path file, Map<Integer, Long> expected) throws IOException {
        bytes = Files.size(file);
        if (bytes > 0 && lastByte(file) != '\n') {
            tally.malformed("torn: no line end at the end of the output");
        }
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; ) {
                lines++;
                line(line);
            }
        }
        return tally.verdict(lines, bytes, expected);
    }

    private void line(String line) {
        JsonNode node;
        try {
            // readTree takes the first value only: a second object on the line (interleaving) must fail too
            var parser = mapper.getFactory().createParser(line);
            node = mapper.readTree(parser);
            if (parser.nextToken() != null) {
                malformed(line, "more than one JSON value");
                return;
            }
        } catch (JsonProcessingException e) {
            malformed(line, "not JSON: " + e.getOriginalMessage());
            return;
        } catch (IOException e) {
            malformed(line, e.toString());
            return;
        }
        if (node == null || !node.isObject()) {
            malformed(line, "not a JSON object");
            return;
        }
        String message = node.path("message").asText(null);
        if (message == null || !message.startsWith(EventLine.MESSAGE_HEAD) || !message.endsWith(EventLine.MESSAGE_TAIL)) {
            malformed(line, "no event message");
            return;
        }
        long seq;
        int thread;
        try {
            seq = Long.parseLong(message.substring(EventLine.MESSAGE_HEAD.length(),
                    message.length() - EventLine.MESSAGE_TAIL.length()));
            thread = thread(node);
        } catch (NumberFormatException e) {
            malformed(line, "no sequence number or producer");
            return;
        }
        tally.sequence(lines, thread, seq);
    }

    private static int thread(JsonNode node) {
        for (String field : THREAD_FIELDS) {
            String name = node.at(field).asText("");
            if (name.startsWith(EventLine.THREAD_PREFIX)) {
                return Integer.parseInt(name.substring(EventLine.THREAD_PREFIX.length()));
            }
        }
        throw new NumberFormatException("no producer thread field");
    }

    private static int lastByte(Path file) throws IOException {
        try (var channel = java.nio.channels.FileChannel.open(file)) {
            var one = java.nio.ByteBuffer.allocate(1);
            channel.read(one, channel.size() - 1);
            return one.get(0);
        }
    }

    private void malformed(String line, String why) {
        tally.malformed("line " + lines + ": " + why + ": " + line.substring(0, Math.min(line.length(), 160)));
    }
}
