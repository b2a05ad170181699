package io.github.spool;

import io.github.spool.metrics.SpoolAppenderStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exit paths of a forked JVM that never stops its appender: SIGTERM while four threads log at
 * full speed, {@code System.exit} from another thread, an uncaught exception ending {@code main}.
 * Each line carries its thread and sequence number; every thread's lines must be gap-free up to
 * the last one written (nothing accepted before the exit is lost, no line is torn, and lines the
 * threads log during the exit come after the ring's, in order). The child also
 * reports the appender's counters once its writer has drained ({@code exit-facts} on standard
 * error), and the lines in the output must be exactly the events counted as written, none lost.
 */
class ExitPathsTest {
    @TempDir
    Path dir;

    /** The forked program: {@code mode threads perThread}. */
    public static final class Main {
        public static void main(String[] args) throws Exception {
            String mode = args[0];
            int threads = Integer.parseInt(args[1]);
            long perThread = Long.parseLong(args[2]);
            Spool spool = Spool.start(SpoolConfig.builder("exit-paths").build()); // stdout, never stopped
            reportWhenDrained(spool);
            Thread[] ts = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                int id = t;
                ts[t] = new Thread(() -> {
                    for (long i = 0; i < perThread; i++) {
                        byte[] b = String.format("t%d %09d %s%n", id, i, "q".repeat(60)).getBytes();
                        if (spool.append(b, 0, b.length, Severity.INFO) != AppendResult.ACCEPTED) {
                            return; // refused once shutdown began: not accepted, not expected
                        }
                        if (mode.equals("exit") && id == 0 && i == perThread / 2) {
                            new Thread(() -> System.exit(3)).start();
                        }
                    }
                }, "logger-" + t);
                ts[t].start();
            }
            if (mode.equals("sigterm")) {
                System.err.println("READY");
            }
            for (Thread t : ts) {
                t.join();
            }
            if (mode.equals("throw")) {
                throw new IllegalStateException("main ends with an uncaught exception");
            }
        }

        /**
         * A shutdown hook of the program's own, as a framework's would be: it waits for the writer
         * thread to end (Spool's hook must drain the ring), then stops the appender — ending the
         * exit mode, in which lines logged meanwhile were written synchronously — and prints the
         * counters on standard error.
         */
        private static void reportWhenDrained(Spool spool) {
            Thread writer = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("spool-writer-" + spool.name())).findFirst().orElseThrow();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    writer.join(20_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                spool.stop(10, TimeUnit.SECONDS);
                SpoolAppenderStats s = spool.stats();
                System.err.println("exit-facts writerEnded=" + (writer.isAlive() ? 0 : 1) + " written=" + s.getEventsWritten()
                        + " lost=" + s.getEventsLost() + " discarded=" + s.getEventsDiscarded()
                        + " highWater=" + s.getBufferBytesHighWater());
            }, "exit-facts"));
        }
    }

    private Process fork(String mode, int threads, long perThread, Path out) throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(), mode,
                String.valueOf(threads), String.valueOf(perThread))
                .redirectOutput(out.toFile()).redirectError(dir.resolve(mode + ".err").toFile()).start();
    }

    /**
     * Checks the child's {@code exit-facts}: its writer drained, nothing lost, and the output holds
     * exactly the events counted as written; prints the figures.
     */
    private void verifyFacts(String mode, Process p, long[] linesPerThread) throws Exception {
        Map<String, Long> facts = new HashMap<>();
        for (String l : Files.readAllLines(dir.resolve(mode + ".err"))) {
            if (l.startsWith("exit-facts ")) {
                for (String kv : l.substring(11).split(" ")) {
                    facts.put(kv.substring(0, kv.indexOf('=')), Long.parseLong(kv.substring(kv.indexOf('=') + 1)));
                }
            }
        }
        assertEquals(1L, facts.get("writerEnded"), () -> "the writer drained and ended: " + facts);
        long lines = Arrays.stream(linesPerThread).sum();
        assertEquals(0L, facts.get("lost"), () -> "nothing lost: " + facts);
        assertEquals(lines, facts.get("written"), () -> "the output holds every event counted as written: " + facts);
        System.out.println("figures ExitPathsTest " + mode + ": exit=" + p.exitValue() + " accepted=written=" + lines
                + " per thread=" + Arrays.toString(linesPerThread) + " " + facts);
    }

    /** Checks every thread's lines are 0, 1, 2, … without gaps; returns lines per thread. */
    private static long[] verifyGapFree(Path out, int threads) throws Exception {
        List<String> lines = Files.readAllLines(out);
        long[] next = new long[threads];
        for (String l : lines) {
            assertTrue(l.matches("t\\d+ \\d{9} q{60}"), () -> "torn or foreign line: " + l);
            int t = Integer.parseInt(l.substring(1, l.indexOf(' ')));
            long seq = Long.parseLong(l.substring(l.indexOf(' ') + 1, l.indexOf(' ') + 10));
            assertEquals(next[t], seq, "thread " + t + ": gap or reorder");
            next[t]++;
        }
        return next;
    }

    @Test
    void sigtermWhileFourThreadsLogLosesNothingAccepted() throws Exception {
        Path out = dir.resolve("sigterm.out");
        Process p = fork("sigterm", 4, Long.MAX_VALUE / 8, out);
        // Wait until the threads are logging at full speed (bounded), then send SIGTERM.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Files.size(out) < 5_000_000) {
            assertTrue(System.nanoTime() < deadline && p.isAlive(), "child never got going");
            Thread.onSpinWait();
        }
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "child exits after SIGTERM");
        assertEquals(143, p.exitValue(), "terminated by SIGTERM");
        long[] perThread = verifyGapFree(out, 4);
        for (long n : perThread) {
            assertTrue(n > 0, "every thread logged");
        }
        verifyFacts("sigterm", p, perThread);
    }

    @Test
    void systemExitFromAnotherThreadLosesNothingAccepted() throws Exception {
        Path out = dir.resolve("exit.out");
        Process p = fork("exit", 2, 200_000, out);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(3, p.exitValue());
        long[] perThread = verifyGapFree(out, 2);
        assertTrue(perThread[0] > 100_000, "thread 0 logged past the exit call");
        verifyFacts("exit", p, perThread);
    }

    @Test
    void uncaughtExceptionEndingMainLosesNothing() throws Exception {
        Path out = dir.resolve("throw.out");
        Process p = fork("throw", 2, 50_000, out);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(1, p.exitValue());
        long[] perThread = verifyGapFree(out, 2);
        assertEquals(50_000, perThread[0]);
        assertEquals(50_000, perThread[1]);
        verifyFacts("throw", p, perThread);
    }
}
