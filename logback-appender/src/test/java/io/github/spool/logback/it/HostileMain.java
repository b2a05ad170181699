package io.github.spool.logback.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.spool.soak.HostileInput;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The forked half of {@link HostileInputTest}: runs one case in a JVM with a 128 MiB heap and
 * prints its figures ({@code key=value} lines) to standard output; the {@code verify*} methods check
 * the files it wrote. Modes: {@code big} (a 10 MiB message between numbered events of two threads),
 * {@code loggers} (two million distinct logger names) and {@code longnames} (thousands of distinct
 * 4 KiB logger and thread names).
 */
public final class HostileMain {

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
        Path dir = Paths.get(args[1]);
        switch (args[0]) {
            case "big":
                big(dir);
                break;
            case "loggers":
                loggers(dir);
                break;
            case "longnames":
                longNames(dir);
                break;
            default:
                throw new IllegalArgumentException(args[0]);
        }
    }

    private static void big(Path dir) throws Exception {
        LoggerContext lc = LogbackRig.differential(dir, "[%thread] %msg%n");
        LogbackRig.assertRenderMode(lc, "spool");
        Logger log = lc.getLogger("big");
        List<String> figures = HostileInput.logBig(log::info, log::info);
        lc.stop();
        figures.forEach(System.out::println);
        System.out.println("heapPeakSum=" + HostileInput.peakHeap());
    }

    /** An event as logback's Logger would build it, for a name no Logger exists for. */
    private static LoggingEvent event(LoggerContext lc, String loggerName, String threadName, String message) {
        LoggingEvent e = new LoggingEvent();
        e.setLoggerContext(lc);
        e.setLoggerName(loggerName);
        e.setThreadName(threadName);
        e.setLevel(Level.INFO);
        e.setMessage(message);
        e.setTimeStamp(System.currentTimeMillis());
        return e;
    }

    private static void loggers(Path dir) throws Exception {
        String pattern = "%logger{5} %logger %msg%n";
        LoggerContext lc = LogbackRig.configure(
                LogbackRig.spool("spool", dir.resolve(LogbackRig.SPOOL), "io.github.spool.logback.SpoolEncoder", pattern, "")
                        + LogbackRig.spool("spoolPattern", dir.resolve(LogbackRig.SPOOL_PATTERN),
                                "ch.qos.logback.classic.encoder.PatternLayoutEncoder", pattern, ""),
                "spool", "spoolPattern");
        LogbackRig.assertRenderMode(lc, "spool");
        // Events go straight to the root's appenders, as a Logger would send them: logback's
        // LoggerContext keeps every Logger it ever created, so two million of them would exhaust
        // this heap in logback itself, which says nothing about Spool.
        Logger root = lc.getLogger(Logger.ROOT_LOGGER_NAME);
        long t0 = System.nanoTime();
        for (int i = 0; i < HostileInput.LOGGERS; i++) {
            root.callAppenders(event(lc, "pkg.sub.N" + i, "main", Integer.toString(i)));
        }
        long logged = System.nanoTime() - t0;
        long used = HostileInput.usedAfterGc();
        lc.stop();
        System.out.println("loggers=" + HostileInput.LOGGERS);
        System.out.println("logMillis=" + TimeUnit.NANOSECONDS.toMillis(logged));
        System.out.println("usedAfterGcBytes=" + used);
        System.out.println("heapPeakSum=" + HostileInput.peakHeap());
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
        root.callAppenders(event(lc, "warm.Up", "main", "warm-up"));
        long before = HostileInput.usedAfterGc();
        long t0 = System.nanoTime();
        for (int i = 0; i < LONG_NAMES; i++) {
            root.callAppenders(event(lc, longName("L", i), longName("T", i), Integer.toString(i)));
        }
        long logged = System.nanoTime() - t0;
        long retained = HostileInput.usedAfterGc() - before;
        lc.stop();
        System.out.println("names=" + LONG_NAMES);
        System.out.println("logMillis=" + TimeUnit.NANOSECONDS.toMillis(logged));
        System.out.println("retainedBytes=" + retained);
    }

    /** Runs {@code mode} in a forked JVM ({@link HostileInput#fork}) and returns its figures. */
    static List<String> fork(Path dir, String mode) throws IOException, InterruptedException {
        return HostileInput.fork(dir, HostileMain.class, mode, LogbackRig.RENDER);
    }

    /** Checks the outputs of mode {@code big}. */
    static void verifyBig(Path dir, List<String> figures) throws IOException {
        HostileInput.verifyBig(dir, figures, LogbackRig.SPOOL, LogbackRig.SPOOL_PATTERN, LogbackRig.REFERENCE);
    }

    /** Checks the outputs of mode {@code loggers}. */
    static void verifyLoggers(Path dir, List<String> figures) throws IOException {
        HostileInput.verifyLoggers(dir, figures, i -> "p.s.N" + i + " pkg.sub.N" + i + " " + i, LogbackRig.SPOOL, LogbackRig.SPOOL_PATTERN);
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
