package io.github.spool.log4j2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;

/**
 * The forked half of {@link HostileInputTest}: runs one case in a JVM with a 128 MiB heap and
 * prints its figures ({@code key=value} lines) to standard output; the {@code verify*} methods check
 * the files it wrote. Modes: {@code big} (a 10 MiB message between numbered events of two threads)
 * and {@code loggers} (two million distinct logger names).
 */
public final class HostileMain {

    /** Size of the big message in chars (all ASCII, so also in bytes). */
    static final int BIG_CHARS = 10 << 20;
    /** Events of the thread that logs beside the big message. */
    static final int SMALL_EVENTS = 20_000;
    /** Distinct logger names. */
    static final int LOGGERS = 2_000_000;
    /** Heap of the forked JVM. */
    static final String HEAP = "-Xmx128m";

    /** {@code %c{1.}} is log4j2's converter, which the writer does not run: plain {@code %c} there. */
    private static final boolean WRITER = Log4jRig.RENDER.equals("writer");
    private static final String LOGGERS_PATTERN = WRITER ? "%c %c{1} %m%n" : "%c{1.} %c{1} %m%n";

    private HostileMain() {
    }

    /**
     * @param args mode ({@code big} or {@code loggers}) and the output directory
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
            default:
                throw new IllegalArgumentException(args[0]);
        }
    }

    /** The big message: 16-char blocks that each carry their own offset, so a cut or a splice shows. */
    static String bigMessage() {
        StringBuilder sb = new StringBuilder(BIG_CHARS);
        for (int block = 0; sb.length() < BIG_CHARS; block++) {
            String hex = Integer.toHexString(block);
            sb.append('<').append("00000000000000", hex.length(), 14).append(hex).append('>');
        }
        return sb.toString();
    }

    private static void big(Path dir) throws Exception {
        LoggerContext context = Log4jRig.differential(dir, "[%t] %m%n");
        Log4jRig.assertRenderMode(context, "spool");
        Logger log = context.getLogger("big");
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
        context.stop();
        System.out.println("bigCallMillis=" + TimeUnit.NANOSECONDS.toMillis(bigNanos[0]));
        System.out.println("totalMillis=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        System.out.println("retainedBytes=" + retained);
        System.out.println("heapPeakSum=" + peakHeap());
    }

    private static void loggers(Path dir) throws Exception {
        String pattern = LOGGERS_PATTERN;
        LoggerContext context = Log4jRig.start(dir,
                "<Spool name='spool' fileName='" + dir.resolve(Log4jRig.SPOOL) + "'" + Log4jRig.render()
                        + "><SpoolLayout pattern='" + pattern + "'/></Spool>"
                        + "<Spool name='spoolPattern' fileName='" + dir.resolve(Log4jRig.SPOOL_PATTERN)
                        + "'><PatternLayout pattern='" + pattern + "'/></Spool>",
                "spool", "spoolPattern");
        Log4jRig.assertRenderMode(context, "spool");
        // Events go straight to the root LoggerConfig, as a Logger would send them: creating two
        // million log4j2 Loggers costs log4j2 itself about 15 us each (31 s in one run here),
        // which says nothing about Spool. The names reach the layouts all the same.
        LoggerConfig root = context.getConfiguration().getRootLogger();
        long t0 = System.nanoTime();
        for (int i = 0; i < LOGGERS; i++) {
            root.log(Log4jLogEvent.newBuilder().setLoggerName("pkg.sub.N" + i).setLevel(Level.INFO)
                    .setMessage(new SimpleMessage(Integer.toString(i))).setThreadName("main").build());
        }
        long logged = System.nanoTime() - t0;
        long used = usedAfterGc();
        context.stop();
        System.out.println("loggers=" + LOGGERS);
        System.out.println("logMillis=" + TimeUnit.NANOSECONDS.toMillis(logged));
        System.out.println("usedAfterGcBytes=" + used);
        System.out.println("heapPeakSum=" + peakHeap());
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
        for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == java.lang.management.MemoryType.HEAP) {
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
                "-XX:+ExitOnOutOfMemoryError", "-Dspool.it.render=" + Log4jRig.RENDER,
                "-cp", System.getProperty("java.class.path"), HostileMain.class.getName(), mode, dir.toString())
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
        for (String file : new String[] {Log4jRig.SPOOL, Log4jRig.SPOOL_PATTERN, Log4jRig.REFERENCE}) {
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
        for (String file : new String[] {Log4jRig.SPOOL, Log4jRig.SPOOL_PATTERN}) {
            int i = 0;
            try (BufferedReader r = Files.newBufferedReader(dir.resolve(file), StandardCharsets.UTF_8)) {
                String line;
                while ((line = r.readLine()) != null) {
                    String expected = (WRITER ? "pkg.sub.N" : "p.s.N") + i + " N" + i + " " + i;
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
}
