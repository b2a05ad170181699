package io.github.spool.logback.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.github.spool.soak.HostileChild;
import io.github.spool.soak.HostileInput;
import io.github.spool.soak.HostileInputContract;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The forked half of {@link HostileInputTest} ({@link HostileChild}), configured for logback, with
 * one mode of logback's own: {@code longnames} (thousands of distinct 4 KiB logger and thread
 * names, against SpoolEncoder's name caches).
 */
public final class HostileMain extends HostileChild {

    /** Distinct long names, more than SpoolEncoder's name caches hold entries (4,096). */
    static final int LONG_NAMES = 4_500;
    /** Length of each long name. */
    static final int LONG_NAME_CHARS = 4 << 10;

    private HostileMain() {
    }

    /**
     * @param args mode ({@code big}, {@code loggers} or {@code longnames}) and the output directory
     * @throws Exception on failure (the test sees a non-zero exit)
     */
    public static void main(String[] args) throws Exception {
        new HostileMain().execute(args);
    }

    @Override
    protected HostileInputContract.Run big(Path dir) throws Exception {
        LogbackRun run = new LogbackRun(LogbackRig.differential(dir, "[%thread] %msg%n"));
        run.assertRenderMode();
        return run;
    }

    @Override
    protected HostileInputContract.Run loggers(Path dir) throws Exception {
        String pattern = "%logger{5} %logger %msg%n";
        LogbackRun run = new LogbackRun(LogbackRig.configure(
                LogbackRig.spool("spool", dir.resolve(LogbackRig.SPOOL), "io.github.spool.logback.SpoolEncoder", pattern, "")
                        + LogbackRig.spool("spoolPattern", dir.resolve(LogbackRig.SPOOL_PATTERN),
                                "ch.qos.logback.classic.encoder.PatternLayoutEncoder", pattern, ""),
                "spool", "spoolPattern"));
        run.assertRenderMode();
        return run;
    }

    @Override
    protected void run(String mode, Path dir) throws Exception {
        if (mode.equals("longnames")) {
            longNames(dir);
        } else {
            super.run(mode, dir);
        }
    }

    /** A distinct name of {@link #LONG_NAME_CHARS} chars that starts with its number. */
    static String longName(String prefix, int i) {
        StringBuilder sb = new StringBuilder(LONG_NAME_CHARS).append(prefix).append(i).append('.');
        while (sb.length() < LONG_NAME_CHARS) {
            sb.append((char) ('a' + sb.length() % 26));
        }
        return sb.toString();
    }

    private static void longNames(Path dir) throws Exception {
        LoggerContext lc = LogbackRig.configure(LogbackRig.spool("spool", dir.resolve(LogbackRig.SPOOL),
                "io.github.spool.logback.SpoolEncoder", "[%thread] %logger %logger{5} %msg%n", ""), "spool");
        Logger root = lc.getLogger(Logger.ROOT_LOGGER_NAME);
        root.callAppenders(LogbackRun.event(lc, "warm.Up", "main", "warm-up"));
        long before = HostileInput.usedAfterGc();
        long t0 = System.nanoTime();
        for (int i = 0; i < LONG_NAMES; i++) {
            root.callAppenders(LogbackRun.event(lc, longName("L", i), longName("T", i), Integer.toString(i)));
        }
        long logged = System.nanoTime() - t0;
        long retained = HostileInput.usedAfterGc() - before;
        lc.stop();
        System.out.println("names=" + LONG_NAMES);
        System.out.println("logMillis=" + TimeUnit.NANOSECONDS.toMillis(logged));
        System.out.println("retainedBytes=" + retained);
    }

    /** Checks the output of mode {@code longnames}. */
    static void verifyLongNames(Path dir, List<String> figures) throws IOException {
        int i = -1; // the warm-up line first
        try (BufferedReader r = Files.newBufferedReader(dir.resolve(LogbackRig.SPOOL), StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (i < 0) {
                    assertEquals("[main] warm.Up w.Up warm-up", line);
                } else {
                    // "[thread] logger abbreviated i": the abbreviation is logback's (checked
                    // byte for byte elsewhere); here the point is that each line is whole.
                    String head = "[" + longName("T", i) + "] " + longName("L", i) + " ";
                    if (!line.startsWith(head) || !line.endsWith(" " + i)) {
                        fail("line " + (i + 2) + " is not intact (" + line.length() + " chars)");
                    }
                }
                i++;
            }
        }
        assertEquals(LONG_NAMES, i, "events");
        // The name caches may hold 4,096 entries; without a bound in bytes they would keep
        // thousands of 4 KiB names (several times 16 MiB).
        long retained = HostileInput.figure(figures, "retainedBytes");
        assertTrue(retained < 8L << 20, "retained by long names: " + retained + " bytes");
    }
}
