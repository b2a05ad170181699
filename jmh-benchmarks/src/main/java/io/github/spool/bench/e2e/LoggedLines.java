package io.github.spool.bench.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the output of a workload whose lines {@link OutputVerifier} cannot parse (the server's three
 * messages and stack traces): the number of lines of {@link EventLine#LOGGER} — each event's first
 * line holds {@code " anchors.Bench - "}, a stack trace's lines do not — must equal what the workload
 * reports under {@value #KEY}.
 */
final class LoggedLines {

    /** Result key of the number of lines a workload logged. */
    static final String KEY = "logged.lines";

    private static final String MARK = " " + EventLine.LOGGER + " - ";

    private LoggedLines() {
    }

    static OutputVerifier.Verdict verify(Path file, long expected) throws IOException {
        long events = 0;
        long bytes = Files.size(file);
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.contains(MARK)) {
                    events++;
                }
            }
        }
        List<String> problems = new ArrayList<>();
        if (events != expected) {
            problems.add(events + " event lines, " + expected + " logged");
        }
        return new OutputVerifier.Verdict(events, bytes, 0, 0, Math.max(0, expected - events),
                Math.max(0, events - expected), problems);
    }
}
