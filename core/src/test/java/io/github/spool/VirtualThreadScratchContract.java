package io.github.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Virtual threads through an adapter, the same for both (JDK 21+): a server that runs each
 * request on a new virtual thread makes no scratch per request (the adapter's per-thread buffers
 * are borrowed per call, {@code OwnedThreadLocal#acquire()}), and many virtual threads at once,
 * parking at a small cap and logging from an argument's {@code toString()}, write every line
 * exactly once and in each thread's order. An adapter's test extends this and starts its
 * framework with a Spool appender. Test support.
 */
public abstract class VirtualThreadScratchContract {

    @TempDir
    protected Path dir;

    /** A framework logging through one Spool appender. */
    protected interface Rig extends AutoCloseable {
        /**
         * Logs at INFO through the framework.
         *
         * @param format a message with one {@code {}} placeholder
         * @param arg    its argument
         */
        void info(String format, Object arg);

        /** @return scratch buffers the adapter has made so far (per-thread values or borrowed ones) */
        long scratchesMade();

        /** Stops the framework, draining the appender. */
        @Override
        void close();
    }

    /**
     * Starts the framework with one Spool appender: {@code file}, {@code overflowPolicy BLOCK},
     * the given buffer sizes, layout {@code %m%n}, the given render mode, root logger at INFO.
     *
     * @param file          the log file
     * @param render        {@code caller} or {@code writer}
     * @param bufferSize    e.g. {@code 8KB}
     * @param maxBufferSize e.g. {@code 16KB}
     * @return the running rig
     * @throws Exception if it cannot start
     */
    protected abstract Rig start(Path file, String render, String bufferSize, String maxBufferSize) throws Exception;

    @ParameterizedTest(name = "render={0}")
    @ValueSource(strings = {"caller", "writer"})
    void aVirtualThreadPerRequestMakesNoScratchPerRequest(String render) throws Exception {
        assumeTrue(VirtualThreadsRig.available(), "virtual threads need JDK 21+");
        Path file = dir.resolve("requests-" + render + ".log");
        int requests = 2_000;
        long made;
        try (Rig rig = start(file, render, "64KB", "1MB")) {
            rig.info("warm {}", "up"); // the main thread's own scratch
            long before = rig.scratchesMade();
            VirtualThreadsRig.oneAfterAnother(requests, i -> rig.info("request {}", i));
            made = rig.scratchesMade() - before;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(requests + 1, lines.size(), "every request's line");
        for (int i = 0; i < requests; i++) {
            assertEquals("request " + i, lines.get(i + 1));
        }
        // Before: one scratch per thread, 2,000. Now a few circulate (more than one only when a
        // thread lands where another's scan did not look).
        assertTrue(made <= 16, made + " scratch buffers made for " + requests + " requests");
    }

    @ParameterizedTest(name = "render={0}")
    @ValueSource(strings = {"caller", "writer"})
    void virtualThreadsParkedAtTheCapWriteEveryLineOnceInOrder(String render) throws Exception {
        assumeTrue(VirtualThreadsRig.available(), "virtual threads need JDK 21+");
        Path file = dir.resolve("parked-" + render + ".log");
        int threads = 1_000;
        int lines = 30;
        try (Rig rig = start(file, render, "8KB", "16KB")) {
            VirtualThreadsRig.allAtOnce(threads, t -> {
                Object chatty = new Object() {
                    @Override
                    public String toString() {
                        rig.info("inner {}", t); // re-enters the appender on this thread mid-encode
                        return "x";
                    }
                };
                for (int k = 0; k < lines; k++) {
                    rig.info(t + " " + k + " {}", k == 0 && t % 10 == 0 ? chatty : "y");
                }
            });
        }
        int[] next = new int[threads];
        int inner = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.startsWith("inner ")) {
                inner++;
                continue;
            }
            String[] f = line.split(" ");
            assertEquals(3, f.length, () -> "an intact line: " + line);
            int t = Integer.parseInt(f[0]);
            assertEquals(next[t], Integer.parseInt(f[1]), () -> "thread " + line.split(" ")[0] + "'s lines in order, once each");
            next[t]++;
        }
        for (int t = 0; t < threads; t++) {
            assertEquals(lines, next[t], "thread " + t + "'s lines");
        }
        assertEquals(threads / 10, inner, "lines logged from inside an argument's toString()");
    }
}
