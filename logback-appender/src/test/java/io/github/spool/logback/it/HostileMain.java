package io.github.spool.logback.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.BufferedReader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The forked half of {@link HostileInputTest}: runs one case in a JVM with a 128 MiB heap and
 * prints its figures ({@code key=value} lines) to standard output; the {@code verify*} methods check
 * the files it wrote. Modes: {@code big} (a 10 MiB message between numbered events of two threads),
 * {@code loggers} (two million distinct logger names) and {@code longnames} (thousands of distinct
 * 4 KiB logger and thread names).
 */
public final class HostileMain {

    /** Size of the big message in chars (all ASCII, so also in bytes). */
    static final int BIG_CHARS = 10 << 20;
    /** Events of the thread that logs beside the big message. */
    static final int SMALL_EVENTS = 20_000;
    /** Distinct logger names. */
    static final int LOGGERS = 2_000_000;
    /** Distinct long names, more than SpoolEncoder's name caches hold entries (4,096). */
    static final int LONG_NAMES = 4_500;
    /** Length of each long name. */
    static final int LONG_NAME_CHARS = 4 << 10;
    /** Heap of the forked JVM. */
    static final String HEAP = "-Xmx128m";

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

    /** The big message: 16-char blocks that each carry their own number, so a cut or a splice shows. */
    static String bigMessage() {
        StringBuilder sb = new StringBuilder(BIG_CHARS);
        for (int block = 0; sb.length() < BIG_CHARS; block++) {
            String hex = Integer.toHexString(block);
            sb.append('<').append("00000000000000", hex.length(), 14).append(hex).append('>');
        }
        return sb.toString();
    }

    private static void big(Path dir) throws Exception {
        LoggerContext lc = LogbackRig.differential(dir, "[%thread] %msg%n");
        LogbackRig.assertRenderMode(lc, "spool");
        Logger log = lc.getLogger("big");
        String message = bigMessage();
        log.info("warm-up");
        long before = usedAfterGc();
        CountDownLatch logged = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        long[] bigNanos = new long[1];
        Thread big = new Thread(() -> {
            log.info("big seq=0");
            long t0 = System.nanoTime();
            log.info(message);
            bigNanos[0] = System.nanoTime() - t0;
            logged.countDown(); // the big message is this thread's last event until measured
            try {
                measured.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            log.info("big seq=1");
        }, "big");
        Thread small = new Thread(() -> {
            for (int i = 0; i < SMALL_EVENTS; i++) {
                log.info("small seq={}", i);
            }
        }, "small");
        long t0 = System.nanoTime();
        big.start();
        small.start();
        small.join();
        logged.await();
        long retained = usedAfterGc() - before;
        measured.countDown();
        big.join();
        lc.stop();
        System.out.println("bigCallMillis=" + TimeUnit.NANOSECONDS.toMillis(bigNanos[0]));
        System.out.println("totalMillis=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        System.out.println("retainedBytes=" + retained);
        System.out.println("heapPeakSum=" + peakHeap());
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
        for (int i = 0; i < LOGGERS; i++) {
            root.callAppenders(event(lc, "pkg.sub.N" + i, "main", Integer.toString(i)));
        }
        long logged = System.nanoTime() - t0;
        long used = usedAfterGc();
        lc.stop();
        System.out.println("loggers=" + LOGGERS);
        System.out.println("logMillis=" + TimeUnit.NANOSECONDS.toMillis(logged));
        System.out.println("usedAfterGcBytes=" + used);
        System.out.println("heapPeakSum=" + peakHeap());
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
        long before = usedAfterGc();
        long t0 = System.nanoTime();
        for (int i = 0; i < LONG_NAMES; i++) {
            root.callAppenders(event(lc, longName("L", i), longName("T", i), Integer.toString(i)));
        }
        long logged = System.nanoTime() - t0;
        long retained = usedAfterGc() - before;
        lc.stop();
        System.out.println("names=" + LONG_NAMES);
        System.out.println("logMillis=" + TimeUnit.NANOSECONDS.toMillis(logged));
        System.out.println("retainedBytes=" + retained);
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** Sum of the heap pools' peak usage (an upper bound of the true peak). */
    private static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    /**
     * Runs a mode in a forked JVM with a {@value #HEAP} heap, bounded at 90 s.
     *
     * @return its standard output (the figures)
     */
    static List<String> fork(Path dir, String mode) throws IOException, InterruptedException {
        Path stdout = dir.resolve(mode + ".out");
        Path stderr = dir.resolve(mode + ".err");
        Process p = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
                "-XX:+ExitOnOutOfMemoryError", "-Dspool.it.render=" + LogbackRig.RENDER, "-cp", System.getProperty("java.class.path"),
                HostileMain.class.getName(), mode, dir.toString())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(mode + ": forked JVM did not finish in 90 s (deadlock?)\n" + Files.readString(stderr));
        }
        String err = Files.readString(stderr);
        assertEquals(0, p.exitValue(), mode + ": exit code; stderr:\n" + err);
        assertTrue(!err.contains("ERROR") && !err.contains("Exception"), mode + ": errors on stderr:\n" + err);
        List<String> figures = Files.readAllLines(stdout);
        System.out.println("HostileMain " + mode + " (" + HEAP + "): " + figures);
        return figures;
    }

    /** @return the value of {@code key=} in the figures */
    static long figure(List<String> figures, String key) {
        for (String f : figures) {
            if (f.startsWith(key + "=")) {
                return Long.parseLong(f.substring(key.length() + 1));
            }
        }
        throw new AssertionError("no " + key + " in " + figures);
    }

    /** Checks the outputs of mode {@code big}. */
    static void verifyBig(Path dir, List<String> figures) throws IOException {
        String message = bigMessage();
        for (String file : new String[] {LogbackRig.SPOOL, LogbackRig.SPOOL_PATTERN, LogbackRig.REFERENCE}) {
            int small = 0;
            int bigSeq = 0;
            boolean bigSeen = false;
            int lines = 0;
            try (BufferedReader r = Files.newBufferedReader(dir.resolve(file), StandardCharsets.UTF_8)) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines++;
                    if (line.equals("[main] warm-up")) {
                        continue;
                    }
                    if (line.startsWith("[small] ")) {
                        assertEquals("[small] small seq=" + small, line, file + " line " + lines);
                        small++;
                    } else if (line.length() > 1000) {
                        assertTrue(!bigSeen && bigSeq == 1, file + ": big message out of place at line " + lines);
                        assertEquals(6 + BIG_CHARS, line.length(), file + ": big line length");
                        assertTrue(line.equals("[big] " + message), file + ": big message differs");
                        bigSeen = true;
                    } else {
                        assertEquals("[big] big seq=" + bigSeq, line, file + " line " + lines);
                        bigSeq++;
                    }
                }
            }
            assertEquals(SMALL_EVENTS, small, file + ": small events");
            assertEquals(2, bigSeq, file + ": big-thread sentinels");
            assertTrue(bigSeen, file + ": big message missing");
        }
        // Spool must not pin the huge line's buffers in the idle thread that logged it.
        long retained = figure(figures, "retainedBytes");
        assertTrue(retained < 4L << 20, "retained after the big message: " + retained + " bytes");
    }

    /** Checks the outputs of mode {@code loggers}. */
    static void verifyLoggers(Path dir, List<String> figures) throws IOException {
        for (String file : new String[] {LogbackRig.SPOOL, LogbackRig.SPOOL_PATTERN}) {
            int i = 0;
            try (BufferedReader r = Files.newBufferedReader(dir.resolve(file), StandardCharsets.UTF_8)) {
                String line;
                while ((line = r.readLine()) != null) {
                    String expected = "p.s.N" + i + " pkg.sub.N" + i + " " + i;
                    if (!line.equals(expected)) {
                        fail(file + " line " + (i + 1) + ": expected " + expected + ", got " + line);
                    }
                    i++;
                }
            }
            assertEquals(LOGGERS, i, file + ": events");
        }
        assertTrue(figure(figures, "usedAfterGcBytes") < 64L << 20, "heap in use after two million logger names: " + figures);
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
        long retained = figure(figures, "retainedBytes");
        assertTrue(retained < 8L << 20, "retained by long names: " + retained + " bytes");
    }
}
