// SPDX-License-Identifier: Apache-2.0
package io.github.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The appender's life past the usual stop (issue 31, items 3–6): a stop that gives up on a stalled
 * sink still unregisters once the writer really ends; a stop during a long close (a rolling file
 * waiting for compressions) says truthfully that every record is written; the exit's deadline
 * outranks a stop's; and after the exit drain, records are written synchronously, after the ring's
 * and in order, until the framework stops the appender.
 */
class StopAndExitTest {

    @TempDir
    Path dir;

    private static byte[] line(String s) {
        return (s + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static AppendResult append(Spool spool, String s) {
        byte[] b = line(s);
        return spool.append(b, 0, b.length, Severity.INFO);
    }

    private static ObjectName mbean(String name) throws Exception {
        return new ObjectName("io.github.spool:type=Appender,context=default,name=" + name);
    }

    @Test
    void aStopThatGivesUpOnAStalledSinkUnregistersWhenTheWriterEnds() throws Exception {
        TestSink sink = new TestSink().stall();
        RecordedStatus status = new RecordedStatus();
        Spool spool = Spool.start(SpoolConfig.builder("stalled-stop").statusListener(status).build(), sink);
        assertEquals(AppendResult.ACCEPTED, append(spool, "one"));
        assertTrue(sink.awaitBlocked(10, TimeUnit.SECONDS));

        assertFalse(spool.stop(100, TimeUnit.MILLISECONDS), "the sink is stalled");
        assertTrue(ShutdownDrain.openForTest().contains("stalled-stop"), "still open while its writer runs");

        sink.release(); // the stall ends; the writer finishes (past its deadline: it gives up) and ends
        assertTrue(spool.awaitEndForTest(10, TimeUnit.SECONDS));
        assertFalse(ShutdownDrain.openForTest().contains("stalled-stop"), "left the shutdown hook");
        assertFalse(ManagementFactory.getPlatformMBeanServer().isRegistered(mbean("stalled-stop")), "MBean gone");
        assertEquals(1, spool.stats().getEventsWritten() + spool.stats().getEventsLost(), "the record is counted once");
    }

    @Test
    void aStopDuringALongCloseSaysEveryRecordIsWritten() throws Exception {
        TestSink sink = new TestSink().stallClose();
        RecordedStatus status = new RecordedStatus();
        Spool spool = Spool.start(SpoolConfig.builder("long-close").statusListener(status).build(), sink);
        for (int i = 0; i < 100; i++) {
            assertEquals(AppendResult.ACCEPTED, append(spool, "line " + i));
        }
        // The stop waits its whole timeout for the stalled close; long enough for the drain of 100
        // lines on a loaded machine (300 ms once was not, with other builds running).
        assertTrue(spool.stop(2, TimeUnit.SECONDS), "every record is written: " + status);
        assertEquals(100, spool.stats().getEventsWritten());
        assertEquals(0, spool.stats().getEventsLost());
        assertEquals(0, status.count(StatusListener.Level.WARN), () -> "no loss reported: " + status);
        assertTrue(status.toString().contains("every record is written"), status::toString);
        assertTrue(ManagementFactory.getPlatformMBeanServer().isRegistered(mbean("long-close")), "registered while closing");

        sink.releaseClose();
        assertTrue(spool.awaitEndForTest(10, TimeUnit.SECONDS));
        assertTrue(sink.isClosed());
        assertFalse(ManagementFactory.getPlatformMBeanServer().isRegistered(mbean("long-close")), "unregistered at the end");
        assertFalse(ShutdownDrain.openForTest().contains("long-close"));
    }

    @Test
    void theExitDeadlineOutranksAStopAlreadyWaiting() throws Exception {
        TestSink sink = new TestSink().stall();
        Spool spool = Spool.start(SpoolConfig.builder("exit-outranks").statusListener(new RecordedStatus()).build(), sink);
        assertEquals(AppendResult.ACCEPTED, append(spool, "one"));
        assertTrue(sink.awaitBlocked(10, TimeUnit.SECONDS));
        // A framework's stop with a long timeout is waiting when the exit begins with a short one.
        CompletableFuture<Boolean> frameworkStop = CompletableFuture.supplyAsync(() -> spool.stop(60, TimeUnit.SECONDS));
        // An exit deadline already passed (one that came while the write was stuck): once the
        // write returns, the writer gives up at once instead of draining on to the stop's.
        spool.beginExit(System.nanoTime() - 1, true);
        sink.release();
        assertFalse(frameworkStop.get(20, TimeUnit.SECONDS), "the stop ends with the exit's deadline, not its own");
        assertEquals(1, spool.stats().getEventsWritten() + spool.stats().getEventsLost());
        assertTrue(spool.awaitEndForTest(10, TimeUnit.SECONDS));
    }

    @Test
    void afterTheExitDrainRecordsAreWrittenSynchronouslyAfterTheRingsAndInOrder() throws Exception {
        Path file = dir.resolve("app.log");
        Spool spool = Spool.start(SpoolConfig.builder("exit-lane").file(file).statusListener(new RecordedStatus()).build());
        for (int i = 0; i < 1_000; i++) {
            assertEquals(AppendResult.ACCEPTED, append(spool, "ring " + i));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        spool.beginExit(deadline, false); // as at a start during the exit: every call waits
        spool.awaitExitDrain(deadline);
        for (int i = 0; i < 100; i++) {
            assertEquals(AppendResult.ACCEPTED, append(spool, "late " + i));
            // Written before the call returned, after everything the ring held.
            assertTrue(Files.readString(file).endsWith("late " + i + "\n"), "late " + i + " is in the file at return");
        }
        assertTrue(spool.stop(10, TimeUnit.SECONDS), "the framework's stop ends the exit mode");
        assertEquals(AppendResult.CLOSED, append(spool, "after the framework's stop"));
        assertTrue(spool.awaitEndForTest(10, TimeUnit.SECONDS));

        List<String> lines = Files.readAllLines(file);
        assertEquals(1_100, lines.size());
        for (int i = 0; i < 1_000; i++) {
            assertEquals("ring " + i, lines.get(i));
        }
        for (int i = 0; i < 100; i++) {
            assertEquals("late " + i, lines.get(1_000 + i));
        }
        assertEquals(1_100, spool.stats().getEventsWritten());
        assertEquals(0, spool.stats().getEventsLost());
        assertFalse(ShutdownDrain.openForTest().contains("exit-lane"));
    }

    @Test
    void whileTheHookWaitsLateRecordsAreQueuedAndTheHookReturnsOnlyOnceTheyAreWritten() throws Exception {
        Path file = dir.resolve("queued.log");
        Spool spool = Spool.start(SpoolConfig.builder("exit-queued").file(file).statusListener(new RecordedStatus()).build());
        assertEquals(AppendResult.ACCEPTED, append(spool, "ring"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        spool.beginExit(deadline, true); // the hook: it will wait for the lane
        // A framework draining its own queue into the appender while the hook runs.
        for (int i = 0; i < 20_000; i++) {
            assertEquals(AppendResult.ACCEPTED, append(spool, "queued " + i));
        }
        spool.awaitExitDrain(deadline); // returns once the lane has been quiet
        List<String> lines = Files.readAllLines(file);
        assertEquals(20_001, lines.size(), "everything queued is written when the hook returns");
        assertEquals("ring", lines.get(0));
        for (int i = 0; i < 20_000; i++) {
            assertEquals("queued " + i, lines.get(1 + i));
        }
        // After the hook, a caller waits for its own record.
        assertEquals(AppendResult.ACCEPTED, append(spool, "after the hook"));
        assertTrue(Files.readString(file).endsWith("after the hook\n"));
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(20_002, spool.stats().getEventsWritten());
    }

    /** Threads that log flat out into an appender in exit mode until told to stop. */
    private static final class FlatOut {
        final Thread[] threads;
        final long[] accepted;
        volatile boolean stop;

        FlatOut(Spool spool, int n) {
            threads = new Thread[n];
            accepted = new long[n];
            for (int t = 0; t < n; t++) {
                int id = t;
                threads[t] = new Thread(() -> {
                    for (long i = 0; !stop; i++) {
                        if (append(spool, "t" + id + " " + i) != AppendResult.ACCEPTED) {
                            return; // refused: this thread's output ends here
                        }
                        accepted[id] = i + 1; // read after join
                    }
                }, "flat-out-" + t);
                threads[t].start();
            }
        }

        long acceptedInAll() {
            long sum = 0;
            for (long a : accepted) {
                sum += a;
            }
            return sum;
        }

        void close() throws InterruptedException {
            stop = true;
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    /** Asserts each thread's lines are 0, 1, 2, … with no hole and returns how many each wrote. */
    private static long[] assertGapFreePrefixes(Path file, int threads) throws Exception {
        long[] next = new long[threads];
        for (String l : Files.readAllLines(file)) {
            assertTrue(l.matches("t\\d+ \\d+"), () -> "torn or foreign line: " + l);
            int t = Integer.parseInt(l.substring(1, l.indexOf(' ')));
            long seq = Long.parseLong(l.substring(l.indexOf(' ') + 1));
            assertEquals(next[t], seq, () -> "thread " + t + ": a hole before " + l);
            next[t]++;
        }
        return next;
    }

    @Test
    void aGiveUpAtTheExitDeadlineLeavesEveryThreadAGapFreePrefixAndIsSaid() throws Exception {
        // The give-up races the lane: the sweep marks queued records from the head while the lane
        // takes them, and a sweeping thread descheduled midway (4 producers on 2 cores) once let
        // the lane write records past those it had marked. Several rounds, as each is a chance.
        int gaveUp = 0;
        for (int round = 0; round < 8; round++) {
            Path file = dir.resolve("give-up-" + round + ".log");
            RecordedStatus status = new RecordedStatus();
            Spool spool = Spool.start(SpoolConfig.builder("exit-give-up-" + round).file(file).statusListener(status).build());
            FlatOut producers = new FlatOut(spool, 4);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            spool.beginExit(deadline, true);
            spool.awaitExitDrain(deadline); // flat-out callers never let it go quiet: it gives up at the deadline
            producers.close();
            // At once, as a framework's stop bounded by the exit deadline: the lane may still be
            // counting what it gave up, and the stop must not say every record is written.
            boolean clean = spool.stop(0, TimeUnit.MILLISECONDS);
            assertTrue(spool.awaitEndForTest(10, TimeUnit.SECONDS));
            long[] written = assertGapFreePrefixes(file, 4);
            long writtenInAll = 0;
            for (long w : written) {
                writtenInAll += w;
            }
            assertEquals(writtenInAll, spool.stats().getEventsWritten());
            assertEquals(producers.acceptedInAll(), writtenInAll + spool.stats().getEventsLost(),
                    "every accepted line is written or counted as lost");
            if (spool.stats().getEventsLost() > 0) {
                gaveUp++;
                assertTrue(status.toString().contains("exit deadline passed"), status::toString);
                assertFalse(clean, "a stop after a give-up reports the loss");
                assertFalse(status.toString().contains("every record is written"), status::toString);
            }
        }
        assertTrue(gaveUp > 0, "four threads flat out outran the lane at least once");
    }

    @Test
    void anInterruptedThreadWritesDuringExitWithoutClosingTheSink() throws Exception {
        Path file = dir.resolve("interrupted.log");
        Spool spool = Spool.start(SpoolConfig.builder("exit-interrupt").file(file).statusListener(new RecordedStatus()).build());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        spool.beginExit(deadline, false);
        spool.awaitExitDrain(deadline);
        Thread.currentThread().interrupt();
        try {
            assertEquals(AppendResult.ACCEPTED, append(spool, "while interrupted"));
            assertTrue(Thread.currentThread().isInterrupted(), "the caller keeps its interrupt");
        } finally {
            Thread.interrupted();
        }
        assertEquals(AppendResult.ACCEPTED, append(spool, "after"));
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(List.of("while interrupted", "after"), Files.readAllLines(file));
    }
}
