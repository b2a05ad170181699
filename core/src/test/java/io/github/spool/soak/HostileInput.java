package io.github.spool.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The framework-neutral half of the adapters' hostile-input suites ({@code HostileInputTest} and its
 * forked {@code HostileMain} in each adapter): the workloads, the big message, the forked JVM and
 * the checks of what was written. Each adapter says how its framework is configured and hands in
 * its logger's calls as method references; the events and the checks are the same for both.
 */
public final class HostileInput {

    /** Size of the big message in chars (all ASCII, so also in bytes). */
    public static final int BIG_CHARS = 10 << 20;
    /** Events of the thread that logs beside the big message. */
    public static final int SMALL_EVENTS = 20_000;
    /** Distinct logger names. */
    public static final int LOGGERS = 2_000_000;
    /** Heap of the forked JVM. */
    public static final String HEAP = "-Xmx128m";

    private static final Pattern SENTINEL = Pattern.compile("sentinel seq=(\\d+)");

    private HostileInput() {
    }

    /** A logger's {@code info(String format, Object... args)}, as a method reference. */
    @FunctionalInterface
    public interface Info {
        /**
         * Logs at INFO.
         *
         * @param format the message pattern
         * @param args   its arguments
         */
        void info(String format, Object... args);
    }

    // ---- in-process checks ----

    /**
     * Fails with the first differing line, which a whole-file message would bury.
     *
     * @param expected the reference output
     * @param actual   the output under test
     * @param what     names the pair in the failure
     */
    public static void assertSameLines(String expected, String actual, String what) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.min(e.length, a.length); i++) {
            assertEquals(e[i], a[i], what + ", line " + (i + 1));
        }
        assertEquals(e.length, a.length, what + ": line count");
    }

    /**
     * Asserts that {@code text} holds the sentinels {@code "sentinel seq=0"} to {@code count - 1},
     * each once and in order.
     */
    public static void assertSentinels(String text, int count) {
        Matcher m = SENTINEL.matcher(text);
        int next = 0;
        while (m.find()) {
            assertEquals(next, Integer.parseInt(m.group(1)), "sentinel order");
            next++;
        }
        assertEquals(count, next, "sentinels written");
    }

    /**
     * From {@code threads} threads at once, logs {@code perThread} events each whose argument's
     * {@code toString()} logs through the same logger, one and two levels deep, and asserts that
     * every thread ends (no deadlock). {@link #verifyRecursion} checks the output of a {@code %m%n}
     * layout.
     *
     * @param log the logger's {@code info}
     */
    public static void logRecursively(Info log, int threads, int perThread) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread w = new Thread(() -> {
                await(start);
                for (int i = 0; i < perThread; i++) {
                    int seq = i;
                    Object inner = new Object() {
                        @Override
                        public String toString() {
                            log.info("t={} seq={} depth=2", id, seq);
                            return "i";
                        }
                    };
                    Object outer = new Object() {
                        @Override
                        public String toString() {
                            log.info("t={} seq={} depth=1 {}", id, seq, inner);
                            return "o";
                        }
                    };
                    log.info("t={} seq={} depth=0 {}", id, seq, outer);
                }
            }, "recursive-" + t);
            w.start();
            workers.add(w);
        }
        start.countDown();
        for (Thread w : workers) {
            w.join(TimeUnit.SECONDS.toMillis(40));
            assertFalse(w.isAlive(), w.getName() + " is stuck (deadlock?)");
        }
    }

    /**
     * Checks the output of {@link #logRecursively}: the inner events come first (they are logged
     * while the outer one is formatted), and no event of any thread is lost or torn.
     */
    public static void verifyRecursion(Path file, int threads, int perThread) throws IOException {
        Pattern line = Pattern.compile("t=(\\d+) seq=(\\d+) depth=(\\d)( .)?");
        int[] expected = new int[threads]; // per thread: seq * 3 + position in the (2, 1, 0) triple
        int n = 0;
        for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            Matcher m = line.matcher(l);
            if (!m.matches()) {
                fail("line " + n + " is torn: " + l);
            }
            int t = Integer.parseInt(m.group(1));
            int got = Integer.parseInt(m.group(2)) * 3 + (2 - Integer.parseInt(m.group(3)));
            assertEquals(expected[t], got, "thread " + t + " order/gap at line " + n + ": " + l);
            expected[t]++;
        }
        for (int t = 0; t < threads; t++) {
            assertEquals(perThread * 3, expected[t], "events of thread " + t);
        }
    }

    /**
     * @param failure makes the exception each {@code toString()} call throws
     * @return an argument whose {@code toString()} throws
     */
    public static Object toStringThrows(Supplier<RuntimeException> failure) {
        return new Object() {
            @Override
            public String toString() {
                throw failure.get();
            }
        };
    }

    /** @return an argument whose {@code toString()} returns {@code null}, against its contract */
    public static Object toStringReturnsNull() {
        return new Object() {
            @Override
            public String toString() {
                return null;
            }
        };
    }

    /** A throwable whose getMessage() (optionally) and toString() throw. */
    public static final class HostileThrowable extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final boolean messageThrows;

        /** @param messageThrows whether {@link #getMessage()} throws too */
        public HostileThrowable(boolean messageThrows) {
            super("never seen");
            this.messageThrows = messageThrows;
        }

        @Override
        public String getMessage() {
            if (messageThrows) {
                throw new IllegalStateException("getMessage() throws");
            }
            return "plain message";
        }

        @Override
        public String toString() {
            throw new IllegalStateException("toString() throws");
        }
    }

    // ---- the forked cases ----

    /** The big message: 16-char blocks that each carry their own number, so a cut or a splice shows. */
    public static String bigMessage() {
        StringBuilder sb = new StringBuilder(BIG_CHARS);
        for (int block = 0; sb.length() < BIG_CHARS; block++) {
            String hex = Integer.toHexString(block);
            sb.append('<').append("00000000000000", hex.length(), 14).append(hex).append('>');
        }
        return sb.toString();
    }

    /**
     * The big case's events, for a layout of {@code "[thread] message%n"}: a warm-up line on the
     * calling thread, then thread {@code big} logs a sentinel, the 10 MiB message and, after the
     * heap was measured, a second sentinel, while thread {@code small} logs {@link #SMALL_EVENTS}
     * numbered events. The caller stops its framework, then prints the figures.
     *
     * @param plain   the logger's {@code info(String)}: the message is not a pattern
     * @param withArg the logger's {@code info(String, Object)}
     * @return the figures, {@code key=value} lines for {@link #verifyBig}; the last needs
     *         {@link #peakHeap()} after the stop
     */
    public static List<String> logBig(Consumer<String> plain, BiConsumer<String, Object> withArg) throws InterruptedException {
        String message = bigMessage();
        plain.accept("warm-up");
        long before = usedAfterGc();
        CountDownLatch logged = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        long[] bigNanos = new long[1];
        Thread big = new Thread(() -> {
            plain.accept("big seq=0");
            long t0 = System.nanoTime();
            plain.accept(message);
            bigNanos[0] = System.nanoTime() - t0;
            logged.countDown(); // the big message is this thread's last event until measured
            await(measured);
            plain.accept("big seq=1");
        }, "big");
        Thread small = new Thread(() -> {
            for (int i = 0; i < SMALL_EVENTS; i++) {
                withArg.accept("small seq={}", i);
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
        List<String> figures = new ArrayList<>();
        figures.add("bigCallMillis=" + TimeUnit.NANOSECONDS.toMillis(bigNanos[0]));
        figures.add("totalMillis=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        figures.add("retainedBytes=" + retained);
        return figures;
    }

    /** @return the heap in use after two full collections */
    public static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** @return the sum of the heap pools' peak usage (an upper bound of the true peak) */
    public static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    /**
     * Runs {@code main mode dir} in a forked JVM with a {@value #HEAP} heap and the test's class
     * path, bounded at 90 s, and asserts a clean exit with nothing alarming on standard error.
     *
     * @param render the render mode the child's appenders use ({@code -Dspool.it.render})
     * @return its standard output (the figures)
     */
    public static List<String> fork(Path dir, Class<?> main, String mode, String render) throws IOException, InterruptedException {
        Path stdout = dir.resolve(mode + ".out");
        Path stderr = dir.resolve(mode + ".err");
        Process p = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
                "-XX:+ExitOnOutOfMemoryError", "-Dspool.it.render=" + render,
                "-cp", ChildClassPath.withoutSpring(), main.getName(), mode, dir.toString())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(mode + ": forked JVM did not finish in 90 s (deadlock?)\n" + Files.readString(stderr));
        }
        String err = Files.readString(stderr);
        assertEquals(0, p.exitValue(), mode + ": exit code; stderr:\n" + err);
        assertTrue(!err.contains("ERROR") && !err.contains("Exception"), mode + ": errors on stderr:\n" + err);
        List<String> figures = Files.readAllLines(stdout);
        System.out.println(main.getSimpleName() + " " + mode + " (" + HEAP + "): " + figures);
        return figures;
    }

    /** @return the value of {@code key=} in the figures */
    public static long figure(List<String> figures, String key) {
        for (String f : figures) {
            if (f.startsWith(key + "=")) {
                return Long.parseLong(f.substring(key.length() + 1));
            }
        }
        throw new AssertionError("no " + key + " in " + figures);
    }

    /**
     * Checks the outputs of {@link #logBig}: in each file the small thread's events whole and in
     * order, the big message whole between its thread's sentinels; and that Spool did not pin the
     * huge line's buffers in the idle thread that logged it.
     *
     * @param files the outputs' names in {@code dir}
     */
    public static void verifyBig(Path dir, List<String> figures, String... files) throws IOException {
        String message = bigMessage();
        for (String file : files) {
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
        long retained = figure(figures, "retainedBytes");
        assertTrue(retained < 4L << 20, "retained after the big message: " + retained + " bytes");
    }

    /**
     * Checks the outputs of the {@link #LOGGERS} case: line {@code i} of each file is
     * {@code expected.apply(i)}, and the heap in use after it stayed small.
     *
     * @param files the outputs' names in {@code dir}
     */
    public static void verifyLoggers(Path dir, List<String> figures, IntFunction<String> expected, String... files)
            throws IOException {
        for (String file : files) {
            int i = 0;
            try (BufferedReader r = Files.newBufferedReader(dir.resolve(file), StandardCharsets.UTF_8)) {
                String line;
                while ((line = r.readLine()) != null) {
                    String e = expected.apply(i);
                    if (!line.equals(e)) {
                        fail(file + " line " + (i + 1) + ": expected " + e + ", got " + line);
                    }
                    i++;
                }
            }
            assertEquals(LOGGERS, i, file + ": events");
        }
        assertTrue(figure(figures, "usedAfterGcBytes") < 64L << 20, "heap in use after two million logger names: " + figures);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
