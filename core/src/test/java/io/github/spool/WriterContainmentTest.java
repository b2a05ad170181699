package io.github.spool;

import io.github.spool.io.Sink;
import io.github.spool.io.WriterThread;
import io.github.spool.metrics.SpoolAppenderStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The writer's side of failure containment (issue 11, items 2, 3, 7, 8 and 9): whatever its
 * listener, its sink or another thread does to it, the writer either goes on or, if it ends,
 * releases the producers and tells the truth; and {@code accepted = written + discarded + lost}
 * holds in every path.
 */
class WriterContainmentTest {
    private static final int LINE = 50;

    @TempDir
    Path dir;

    private static byte[] line(int producer, int seq) {
        String s = String.format("p%02d %08d ", producer, seq);
        StringBuilder b = new StringBuilder(s);
        while (b.length() < LINE - 1) {
            b.append('x');
        }
        return b.append('\n').toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static Thread writerThread(Spool spool) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("spool-writer-" + spool.name())).findFirst().orElseThrow();
    }

    /** Runs producers that each append {@code lines} lines; returns accepted, after a bounded join. */
    private static long produce(Spool spool, int producers, int lines) throws InterruptedException {
        AtomicLong accepted = new AtomicLong();
        Thread[] ts = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            int id = p;
            ts[p] = new Thread(() -> {
                for (int i = 0; i < lines; i++) {
                    byte[] b = line(id, i);
                    if (spool.append(b, 0, b.length, Severity.INFO) == AppendResult.ACCEPTED) {
                        accepted.incrementAndGet();
                    }
                }
            }, "producer-" + p);
            ts[p].start();
        }
        for (Thread t : ts) {
            t.join(30_000);
            assertFalse(t.isAlive(), "producers never hang");
        }
        return accepted.get();
    }

    private static void assertBooksBalance(Spool spool, long accepted) {
        SpoolAppenderStats s = spool.stats();
        assertEquals(accepted, s.getEventsWritten() + s.getEventsLost(),
                () -> "accepted = written + lost: written=" + s.getEventsWritten() + " lost=" + s.getEventsLost());
    }

    @Test
    void aListenerThatThrowsAndASinkThatThrowsErrorsDoNotStopTheWriter() throws Exception {
        AtomicInteger failuresLeft = new AtomicInteger(200);
        TestSink memory = new TestSink();
        Sink sink = new Sink() {
            @Override
            public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
                if (failuresLeft.getAndDecrement() > 0) {
                    throw new OutOfMemoryError("injected: the sink ran out of heap");
                }
                return memory.write(srcs, offset, length);
            }

            @Override
            public String describe() {
                return "flaky";
            }

            @Override
            public void close() {
            }
        };
        StatusListener hostile = (level, message, cause) -> {
            throw new IllegalStateException("a status listener that throws");
        };
        Spool spool = Spool.start(SpoolConfig.builder("listener-throws").bufferSize(16 << 10).maxBufferSize(64 << 10)
                .statusListener(hostile).build(), sink);
        long accepted = produce(spool, 2, 20_000);
        // The writer pauses 1 ms after each failed write, so the producers may finish inside the
        // 200 failures: keep logging until the sink has failed them all (bounded), then some more,
        // which the writer must write.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (failuresLeft.get() > 0 && System.nanoTime() < deadline) {
            accepted += produce(spool, 1, 100);
        }
        assertTrue(failuresLeft.get() <= 0, "the sink failed 200 writes");
        accepted += produce(spool, 2, 1_000);
        assertTrue(spool.stop(10, TimeUnit.SECONDS), "the writer survived and drained");
        assertBooksBalance(spool, accepted);
        assertTrue(spool.stats().getEventsLost() > 0, "the failed writes were counted");
        assertTrue(spool.stats().getEventsWritten() >= 2_000, "and the writer went on after them");
        assertEquals(spool.stats().getBytesWritten(), memory.size());
    }

    @Test
    void aWriterThatDiesReleasesItsProducersAndStopSaysSo() throws Exception {
        // A sink that fails every other write and whose describe() throws: every pass of the
        // writer then throws outside the sink call (its fault and recovery messages name the
        // sink), so the writer gives up after MAX_FAILED_PASSES passes in a row.
        AtomicInteger calls = new AtomicInteger();
        boolean[] armed = new boolean[1];
        Sink sink = new Sink() {
            @Override
            public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
                if (calls.getAndIncrement() % 2 == 0) {
                    throw new IOException("injected");
                }
                long n = 0;
                for (int i = offset; i < offset + length; i++) {
                    n += srcs[i].remaining();
                    srcs[i].position(srcs[i].limit());
                }
                return n;
            }

            @Override
            public String describe() {
                if (armed[0]) {
                    throw new IllegalStateException("describe() fails too");
                }
                return "doomed";
            }

            @Override
            public void close() {
            }
        };
        RecordedStatus status = new RecordedStatus();
        Spool spool = Spool.start(SpoolConfig.builder("writer-dies").bufferSize(16 << 10).maxBufferSize(32 << 10)
                .statusListener(status).build(), sink);
        armed[0] = true; // read by the writer after Thread.start, which publishes it
        Thread writer = writerThread(spool);
        long accepted = produce(spool, 4, 50_000); // parked at the cap (BLOCK) when the writer died
        writer.join(10_000);
        assertFalse(writer.isAlive(), "the writer gave up");
        assertFalse(spool.stop(1, TimeUnit.SECONDS), "stop does not claim a drain that did not happen");
        assertBooksBalance(spool, accepted);
        assertEquals(4L * 50_000, accepted + spool.stats().getEventsRefused(), "every refusal after the death is counted");
        assertTrue(status.toString().contains("writer thread failed"), status::toString);
    }

    @Test
    void interruptingTheWriterNeitherClosesTheFileNorMakesItSpin() throws Exception {
        Path file = dir.resolve("interrupted.log");
        Spool spool = Spool.start(SpoolConfig.builder("interrupted").file(file).bufferSize(16 << 10)
                .maxBufferSize(64 << 10).statusListener(new RecordedStatus()).build());
        Thread writer = writerThread(spool);
        CountDownLatch done = new CountDownLatch(1);
        Thread interrupter = new Thread(() -> {
            while (done.getCount() > 0) {
                writer.interrupt(); // what ThreadGroup.interrupt() or a container's sweep does
                Thread.onSpinWait();
            }
        }, "interrupter");
        interrupter.start();
        long accepted;
        try {
            accepted = produce(spool, 2, 50_000);
        } finally {
            done.countDown();
            interrupter.join();
        }
        assertFalse(writer.isInterrupted(), "the writer's interrupt status is never set");
        assertTrue(((WriterThread) writer).ignoredInterrupts() > 0, "interrupts were tried");
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(0, spool.stats().getEventsLost(), "the file stayed open: nothing lost");
        List<String> lines = Files.readAllLines(file);
        assertEquals(accepted, lines.size(), "every line is in the file");
        assertBooksBalance(spool, accepted);
    }

    /** Forked: logs to stdout while another thread keeps interrupting the writer, then prints through both paths. */
    public static final class InterruptedStdoutMain {
        public static void main(String[] args) throws Exception {
            Spool spool = Spool.start(SpoolConfig.builder("stdout-interrupted").build());
            Thread writer = writerThread(spool);
            CountDownLatch done = new CountDownLatch(1);
            Thread interrupter = new Thread(() -> {
                while (done.getCount() > 0) {
                    writer.interrupt();
                    Thread.onSpinWait();
                }
            });
            interrupter.start();
            for (int i = 0; i < 20_000; i++) {
                byte[] b = line(0, i);
                spool.append(b, 0, b.length, Severity.INFO);
            }
            done.countDown();
            interrupter.join();
            System.out.println("APP-AFTER"); // the application's own System.out must still reach fd 1
            System.out.flush();
            byte[] after = "SPOOL-AFTER\n".getBytes(StandardCharsets.US_ASCII);
            spool.append(after, 0, after.length, Severity.INFO);
            System.exit(spool.stop(10, TimeUnit.SECONDS) && spool.stats().getEventsLost() == 0 ? 0 : 3);
        }
    }

    @Test
    void interruptingTheWriterNeverClosesFdOne() throws Exception {
        // Before: an interrupt during a write closed the FileChannel on FileDescriptor.out, the JDK
        // pointed fd 1 at /dev/null, and the application's own System.out went silent too.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = dir.resolve("stdout.txt");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), InterruptedStdoutMain.class.getName())
                .redirectOutput(out.toFile()).redirectError(dir.resolve("stderr.txt").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        List<String> lines = Files.readAllLines(out);
        assertEquals(0, p.exitValue(), () -> "drained, nothing lost: " + lines.size() + " lines");
        assertEquals(20_000, lines.stream().filter(l -> l.startsWith("p00 ")).count(), "every line reached fd 1");
        assertTrue(lines.contains("APP-AFTER"), "System.out still works");
        assertTrue(lines.contains("SPOOL-AFTER"), "and so does Spool");
    }

    @Test
    void aStatusMessageRoutedBackIntoTheSameAppenderDoesNotDeadlock() throws Exception {
        // The writer reports a sink fault while the ring is at its cap; the listener appends the
        // report to the same appender, as a user who routes status to their appenders does.
        TestSink sink = new TestSink().stall();
        Spool[] self = new Spool[1];
        AtomicLong reentrant = new AtomicLong();
        StatusListener routedBack = (level, message, cause) -> {
            byte[] b = ("status " + message + "\n").getBytes(StandardCharsets.UTF_8);
            self[0].append(b, 0, b.length, Severity.ERROR);
            reentrant.incrementAndGet();
        };
        self[0] = Spool.start(SpoolConfig.builder("routed-back").bufferSize(16 << 10).maxBufferSize(32 << 10)
                .statusListener(routedBack).build(), sink);
        Spool spool = self[0];
        Thread producer = new Thread(() -> {
            try {
                produce(spool, 1, 5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        producer.start();
        assertTrue(sink.awaitBlocked(10, TimeUnit.SECONDS));
        // The producer fills the ring to its cap behind the stalled write (bounded wait).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (spool.stats().getBufferBytesInUse() < (32 << 10)) {
            assertTrue(System.nanoTime() < deadline, "the ring reaches its cap");
            Thread.onSpinWait();
        }
        sink.fail(new IOException("injected: disk full"));
        sink.release();
        producer.join(30_000);
        assertFalse(producer.isAlive(), "no deadlock");
        sink.heal();
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertTrue(reentrant.get() > 0, "the status message went back into the appender");
        SpoolAppenderStats s = spool.stats();
        long produced = 5_000 + reentrant.get();
        // A status message the writer reports while it drains comes after close: refused (the
        // close is a cut, issue 31 item 9), and counted as such.
        assertEquals(produced, s.getEventsWritten() + s.getEventsLost() + s.getEventsDiscarded() + s.getEventsRefused(),
                "accepted + discarded (the writer's own records it could not wait for) + refused add up");
    }

    @Test
    void theDiscardSummaryHonoursTheStopDeadline() throws Exception {
        // A descriptor that is full for good (every write returns 0, EAGAIN) while DISCARD drops.
        Sink full = alwaysFull();
        Spool spool = Spool.start(SpoolConfig.builder("summary-deadline").bufferSize(16 << 10).maxBufferSize(32 << 10)
                .overflowPolicy(OverflowPolicy.DISCARD).statusListener(new RecordedStatus()).build(), full);
        Thread writer = writerThread(spool);
        long accepted = produce(spool, 1, 10_000);
        assertTrue(spool.stats().getEventsDiscarded() > 0);
        assertFalse(spool.stop(300, TimeUnit.MILLISECONDS), "nothing could be written");
        writer.join(5_000);
        assertFalse(writer.isAlive(), "the writer ended soon after the deadline, summary or not");
        assertBooksBalance(spool, accepted);
    }

    @Test
    void aShortWriteThenAFaultCountsTheLinesThatGotOut() throws Exception {
        // The writer's first write (one line) is held until 100 more lines wait in the ring, so
        // they go out as one range; the sink takes 50 lines and half of the 51st, then fails.
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger call = new AtomicInteger();
        TestSink memory = new TestSink();
        Sink sink = new Sink() {
            @Override
            public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
                int c = call.getAndIncrement();
                if (c == 0) {
                    firstHeld.countDown();
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                } else if (c == 1) {
                    ByteBuffer part = srcs[offset].duplicate();
                    part.limit(part.position() + 50 * LINE + LINE / 2);
                    long n = memory.write(new ByteBuffer[] {part}, 0, 1);
                    srcs[offset].position(part.position());
                    return n;
                } else if (c == 2) {
                    throw new IOException("injected: no space left on device");
                }
                return memory.write(srcs, offset, length);
            }

            @Override
            public String describe() {
                return "short";
            }

            @Override
            public void close() {
            }
        };
        Spool spool = Spool.start(SpoolConfig.builder("short-write").statusListener(new RecordedStatus()).build(), sink);
        byte[] first = line(9, 0);
        spool.append(first, 0, first.length, Severity.INFO);
        assertTrue(firstHeld.await(10, TimeUnit.SECONDS));
        for (int i = 0; i < 100; i++) {
            byte[] b = line(1, i);
            assertEquals(AppendResult.ACCEPTED, spool.append(b, 0, b.length, Severity.INFO));
        }
        go.countDown();
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(1 + 50, spool.stats().getEventsWritten(), "the 50 whole lines that got out count as written");
        assertEquals(50, spool.stats().getEventsLost(), "the torn one and the rest count as lost");
        assertBooksBalance(spool, 101);
    }

    @Test
    void recordsStillInTheRingAtTheDeadlineAreCountedLost() throws Exception {
        // Before: the batch being written at the deadline was counted, what was still in the
        // ring was counted nowhere.
        Spool spool = Spool.start(SpoolConfig.builder("deadline").statusListener(new RecordedStatus()).build(), alwaysFull());
        Thread writer = writerThread(spool);
        long accepted = produce(spool, 1, 1_000);
        assertFalse(spool.stop(200, TimeUnit.MILLISECONDS), "nothing could be written");
        writer.join(10_000);
        assertFalse(writer.isAlive());
        assertEquals(0, spool.stats().getEventsWritten());
        assertEquals(accepted, spool.stats().getEventsLost(), "every accepted record is counted lost");
    }

    private static Sink alwaysFull() {
        return new Sink() {
            @Override
            public long write(ByteBuffer[] srcs, int offset, int length) {
                return 0;
            }

            @Override
            public String describe() {
                return "always-full";
            }

            @Override
            public void close() {
            }
        };
    }
}
