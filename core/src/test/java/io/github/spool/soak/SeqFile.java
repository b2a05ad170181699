package io.github.spool.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a log file whose every line ends with {@code seq=<n>} (one producer, order not required:
 * across a reconfiguration the old and the new appender write concurrently for a moment) into the
 * set of sequence numbers present, and rejects any other line and any duplicate. Test support.
 */
public final class SeqFile {

    private static final Pattern LINE = Pattern.compile(".* seq=(\\d+)");

    private SeqFile() {
    }

    /**
     * @param file the log file
     * @return the sequence numbers present
     * @throws IOException if the file cannot be read
     * @throws AssertionError on a torn line or a duplicate
     */
    public static BitSet read(Path file) throws IOException {
        BitSet seen = new BitSet();
        long n = 0;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                n++;
                Matcher m = LINE.matcher(line);
                if (!m.matches()) {
                    throw new AssertionError(file + " line " + n + " is not intact: " + line);
                }
                int seq = Integer.parseInt(m.group(1));
                if (seen.get(seq)) {
                    throw new AssertionError(file + " line " + n + ": duplicate seq " + seq);
                }
                seen.set(seq);
            }
        }
        return seen;
    }

    /**
     * Each producer's sequence numbers in file order, for files whose every line matches
     * {@code line}: group 1 names the producer, group 2 is the sequence number.
     *
     * @param file the log file; a missing file reads as empty
     * @param line the pattern every line must match
     * @return producer -> sequence numbers in the order they appear
     * @throws IOException if the file cannot be read
     * @throws AssertionError on a line that does not match
     */
    public static Map<String, List<Long>> perProducer(Path file, Pattern line) throws IOException {
        Map<String, List<Long>> seqs = new HashMap<>();
        if (!Files.exists(file)) {
            return seqs;
        }
        long n = 0;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                n++;
                Matcher m = line.matcher(l);
                if (!m.matches()) {
                    throw new AssertionError(file + " line " + n + " is not intact: " + l);
                }
                seqs.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(Long.parseLong(m.group(2)));
            }
        }
        return seqs;
    }
}
