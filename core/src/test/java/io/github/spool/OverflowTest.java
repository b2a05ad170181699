package io.github.spool;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A stalled sink: memory stays under the cap, DISCARD keeps producers moving, BLOCK loses nothing. */
class OverflowTest {
    private static final int RECORD = 100;
    private static final long BUFFER = 16 << 10;
    private static final long MAX = 64 << 10;

    private static byte[] record(int producer, int seq, int severity) {
        byte[] b = String.format("%d %d %d ", producer, seq, severity).getBytes();
        byte[] r = new byte[RECORD];
        java.util.Arrays.fill(r, (byte) 'x');
        System.arraycopy(b, 0, r, 0, b.length);
        r[RECORD - 1] = '\n';
        return r;
    }

    @Test
    void discardKeepsProducersMovingAndAccountsPerLevel() throws Exception {
        TestSink sink = new TestSink().stall();
        Spool spool = Spool.start(SpoolConfig.builder("overflow-discard").bufferSize(BUFFER).maxBufferSize(MAX)
                .overflowPolicy(OverflowPolicy.DISCARD).discardThreshold(Severity.INFO).statusListener(new RecordedStatus()).build(), sink);
        int producers = 4;
        int perProducer = 20_000;
        AtomicLongArray accepted = new AtomicLongArray(Severity.COUNT);
        AtomicLongArray dropped = new AtomicLongArray(Severity.COUNT);
        ExecutorService pool = Executors.newFixedThreadPool(producers);
        try {
            Future<?>[] fs = new Future<?>[producers];
            for (int p = 0; p < producers; p++) {
                int id = p;
                fs[p] = pool.submit(() -> {
                    for (int i = 0; i < perProducer; i++) {
                        int severity = i % 3 == 0 ? Severity.DEBUG : Severity.INFO; // all at or below the threshold
                        AppendResult r = spool.append(record(id, i, severity), 0, RECORD, severity);
                        (r == AppendResult.ACCEPTED ? accepted : dropped).incrementAndGet(severity);
                    }
                    return null;
                });
            }
            // With the sink stalled the whole time, only discarding lets the producers finish.
            for (Future<?> f : fs) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(spool.stats().getBufferBytesInUse() <= MAX);
        assertTrue(spool.stats().getBufferBytesHighWater() <= MAX, "high water under the cap");
        assertTrue(dropped.get(Severity.INFO) > 0 && dropped.get(Severity.DEBUG) > 0, "both levels were dropped");
        sink.release();
        assertTrue(spool.stop(10, TimeUnit.SECONDS));

        long produced = (long) producers * perProducer;
        long written = spool.stats().getEventsWritten();
        long discarded = spool.stats().getEventsDiscarded();
        assertEquals(produced, written + discarded, "produced = written + discarded");
        assertEquals(dropped.get(Severity.INFO), spool.stats().getEventsDiscardedByLevel().get("INFO"));
        assertEquals(dropped.get(Severity.DEBUG), spool.stats().getEventsDiscardedByLevel().get("DEBUG"));
        assertEquals(accepted.get(Severity.INFO) + accepted.get(Severity.DEBUG), written);

        String out = new String(sink.toByteArray());
        long lines = out.lines().filter(l -> !l.startsWith("spool: ")).count();
        assertEquals(written, lines, "every accepted record is in the output");
        String summary = out.lines().filter(l -> l.startsWith("spool: discarded ")).findFirst().orElse("");
        assertTrue(summary.contains("at INFO and below"), summary);
        long reported = out.lines().filter(l -> l.startsWith("spool: discarded "))
                .mapToLong(l -> Long.parseLong(l.split(" ")[2])).sum();
        assertEquals(discarded, reported, "summary lines report every discard");
        Figures.print("OverflowTest discard", "produced=" + produced + " discardedINFO=" + dropped.get(Severity.INFO)
                + " discardedDEBUG=" + dropped.get(Severity.DEBUG) + " summaryLines="
                + out.lines().filter(l -> l.startsWith("spool: discarded ")).count(), spool.stats());
    }

    @Test
    void discardMakesMoreSevereEventsWait() throws Exception {
        TestSink sink = new TestSink().stall();
        Spool spool = Spool.start(SpoolConfig.builder("overflow-severe").bufferSize(BUFFER).maxBufferSize(MAX)
                .overflowPolicy(OverflowPolicy.DISCARD).discardThreshold(Severity.INFO).statusListener(new RecordedStatus()).build(), sink);
        // Fill to the cap with INFO until one is dropped.
        int i = 0;
        while (spool.append(record(0, i, Severity.INFO), 0, RECORD, Severity.INFO) == AppendResult.ACCEPTED) {
            i++;
        }
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<AppendResult> warn = pool.submit(() -> spool.append(record(0, -1, Severity.WARN), 0, RECORD, Severity.WARN));
            assertThrows(TimeoutException.class, () -> warn.get(200, TimeUnit.MILLISECONDS), "WARN waits at the cap");
            sink.release();
            assertEquals(AppendResult.ACCEPTED, warn.get(10, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertTrue(new String(sink.toByteArray()).contains("0 -1 " + Severity.WARN + " "), "the WARN record was written");
        Figures.print("OverflowTest severe", "produced=" + (i + 2) + " (INFO accepted " + i + ", 1 INFO discarded, 1 WARN waited)",
                spool.stats());
    }

    @Test
    void blockWaitsAndLosesNothingOnceReleased() throws Exception {
        TestSink sink = new TestSink().stall();
        Spool spool = Spool.start(SpoolConfig.builder("overflow-block").bufferSize(BUFFER).maxBufferSize(MAX)
                .overflowPolicy(OverflowPolicy.BLOCK).statusListener(new RecordedStatus()).build(), sink);
        int producers = 3;
        int perProducer = 5_000; // 1.5 MB: far more than the 64 KiB cap
        CountDownLatch done = new CountDownLatch(producers);
        ExecutorService pool = Executors.newFixedThreadPool(producers);
        try {
            for (int p = 0; p < producers; p++) {
                int id = p;
                pool.submit(() -> {
                    for (int i = 0; i < perProducer; i++) {
                        assertEquals(AppendResult.ACCEPTED, spool.append(record(id, i, Severity.INFO), 0, RECORD, Severity.INFO));
                    }
                    done.countDown();
                    return null;
                });
            }
            assertTrue(sink.awaitBlocked(10, TimeUnit.SECONDS));
            assertFalse(done.await(200, TimeUnit.MILLISECONDS), "producers block while the sink is stalled");
            assertTrue(spool.stats().getBufferBytesHighWater() <= MAX);
            sink.release();
            assertTrue(done.await(30, TimeUnit.SECONDS), "producers finish once the sink moves");
        } finally {
            pool.shutdownNow();
        }
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals((long) producers * perProducer, spool.stats().getEventsWritten());
        assertEquals(0, spool.stats().getEventsDiscarded());
        assertTrue(spool.stats().getBufferBytesHighWater() <= MAX);
        long[] next = new long[producers];
        for (String l : new String(sink.toByteArray()).split("\n")) {
            String[] f = l.split(" ");
            int p = Integer.parseInt(f[0]);
            assertEquals(next[p]++, Long.parseLong(f[1]), "per-producer order");
        }
        for (long n : next) {
            assertEquals(perProducer, n);
        }
        Figures.print("OverflowTest block", "produced=" + (long) producers * perProducer, spool.stats());
    }

    @Test
    void interruptedProducerKeepsWaitingKeepsItsFlagAndItsRecord() throws Exception {
        TestSink sink = new TestSink().stall();
        Spool spool = Spool.start(SpoolConfig.builder("overflow-interrupt").bufferSize(BUFFER).maxBufferSize(MAX)
                .overflowPolicy(OverflowPolicy.BLOCK).statusListener(new RecordedStatus()).build(), sink);
        int total = 2_000; // 200 KB: the producer must wait for space well before the end
        AppendResult[] results = new AppendResult[total];
        boolean[] flag = new boolean[1];
        Thread producer = new Thread(() -> {
            for (int i = 0; i < total; i++) {
                results[i] = spool.append(record(0, i, Severity.INFO), 0, RECORD, Severity.INFO);
            }
            flag[0] = Thread.currentThread().isInterrupted();
        });
        producer.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (producer.getState() != Thread.State.TIMED_WAITING) { // parked, waiting for space
            assertTrue(System.nanoTime() < deadline, "producer never waited for space");
            Thread.onSpinWait();
        }
        producer.interrupt();
        producer.join(300);
        assertTrue(producer.isAlive(), "an interrupt does not make the producer give up its record");
        sink.release();
        producer.join(10_000);
        assertFalse(producer.isAlive());
        for (AppendResult r : results) {
            assertEquals(AppendResult.ACCEPTED, r);
        }
        assertTrue(flag[0], "interrupt flag kept");
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(total, spool.stats().getEventsWritten(), "nothing lost");
        Figures.print("OverflowTest interrupt", "produced=" + total, spool.stats());
    }

    @Test
    void aRealPipeNobodyReadsStaysUnderTheCapThenLosesNothing() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("spool-pipe");
        Fifo fifo = Fifo.open(dir);
        Spool spool = Spool.start(SpoolConfig.builder("overflow-pipe").bufferSize(BUFFER).maxBufferSize(MAX)
                .overflowPolicy(OverflowPolicy.DISCARD).statusListener(new RecordedStatus()).build(), fifo.sink);
        java.nio.channels.FileChannel in = fifo.reader;
        int n = 20_000; // 2 MB into a 64 KiB pipe and a 64 KiB ring: most must be dropped
        long accepted = 0;
        for (int i = 0; i < n; i++) {
            if (spool.append(record(0, i, Severity.INFO), 0, RECORD, Severity.INFO) == AppendResult.ACCEPTED) {
                accepted++;
            }
            assertTrue(spool.stats().getBufferBytesInUse() <= MAX);
        }
        assertTrue(accepted < n, "some were discarded");
        // Now read everything: the writer drains the ring, and stop completes.
        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
        java.util.concurrent.CompletableFuture<Void> drain = java.util.concurrent.CompletableFuture.runAsync(() -> {
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(64 << 10);
            try {
                while (in.read(buf) >= 0) {
                    got.write(buf.array(), 0, buf.position());
                    buf.clear();
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        drain.get(10, TimeUnit.SECONDS); // EOF once the sink is closed
        assertEquals(n, spool.stats().getEventsWritten() + spool.stats().getEventsDiscarded());
        assertEquals(accepted, spool.stats().getEventsWritten());
        long lines = new String(got.toByteArray()).lines().filter(l -> !l.startsWith("spool: ")).count();
        assertEquals(accepted, lines);
        assertTrue(spool.stats().getBufferBytesHighWater() <= MAX);
        Figures.print("OverflowTest fifo", "produced=" + n + " accepted=" + accepted, spool.stats());
    }
}
