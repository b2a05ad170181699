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
        // Fill to the cap with INFO until INFO is dropped there. Not merely until the first drop: a
        // drop can come a moment before the ring reaches its cap (a cell the grower adds just
        // after), and a WARN then finds room without waiting (seen once in CI, on JDK 25). It
        // still did once more (CI, 2026-11-28, JDK 17), so a WARN that finds room is written and
        // the ring filled again: the WARN must wait at the cap in one of three rounds.
        int cell = io.github.spool.ring.ManyToOneCellRing.cellSizeFor(BUFFER);
        int i = 0;
        int dropped = 0;
        int warns = 0;
        boolean waited = false;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            for (int round = 0; round < 3 && !waited; round++) {
                dropped = 0;
                for (int tries = 0; dropped < 100 || spool.stats().getBufferBytesInUse() + cell <= MAX; tries++) {
                    assertTrue(tries < 1_000_000, () -> "the ring reaches its cap: " + spool.stats().getBufferBytesInUse() + " of " + MAX);
                    if (spool.append(record(0, i, Severity.INFO), 0, RECORD, Severity.INFO) == AppendResult.ACCEPTED) {
                        i++;
                        dropped = 0;
                    } else {
                        dropped++;
                    }
                }
                int seq = -1 - warns++;
                Future<AppendResult> warn = pool.submit(() -> spool.append(record(0, seq, Severity.WARN), 0, RECORD, Severity.WARN));
                try {
                    assertEquals(AppendResult.ACCEPTED, warn.get(200, TimeUnit.MILLISECONDS), "a WARN is never dropped");
                } catch (TimeoutException expected) {
                    waited = true; // it waits at the cap
                    sink.release();
                    assertEquals(AppendResult.ACCEPTED, warn.get(10, TimeUnit.SECONDS));
                }
            }
            assertTrue(waited, "WARN waits at the cap (in one of three rounds)");
        } finally {
            sink.release();
            pool.shutdownNow();
        }
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertTrue(new String(sink.toByteArray()).contains("0 -" + warns + " " + Severity.WARN + " "), "the WARN record that waited was written");
        Figures.print("OverflowTest severe", "produced=" + (i + dropped + warns) + " (INFO accepted " + i + ", " + dropped + " INFO discarded at the cap last, " + warns + " WARN, the last waited)",
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

    // ------------------------------------------------------------------ a real pipe nobody reads

    private static final long SEED = 0x5F001L;

    /**
     * More bytes than the ring (64 KiB) and any pipe buffer (64 KiB by default, at most
     * {@code /proc/sys/fs/pipe-max-size}, 1 MiB by default) hold together: a producer of this many
     * bytes cannot finish while nobody reads.
     */
    private static final long MORE_THAN_RING_AND_PIPE = MAX + (1 << 20) + (64 << 10);

    @Test
    void aRealPipeNobodyReadsDiscardsPerLevelWhileMoreSevereEventsWait() throws Exception {
        java.util.Random random = new java.util.Random(SEED);
        Fifo fifo = Fifo.open(java.nio.file.Files.createTempDirectory("spool-pipe"));
        Spool spool = Spool.start(SpoolConfig.builder("overflow-pipe-discard").bufferSize(BUFFER).maxBufferSize(MAX)
                .overflowPolicy(OverflowPolicy.DISCARD).discardThreshold(Severity.INFO)
                .statusListener(new RecordedStatus()).build(), fifo.sink);
        long[] accepted = new long[Severity.COUNT];
        long[] dropped = new long[Severity.COUNT];
        try (java.nio.channels.FileChannel in = fifo.reader) {
            // Producer 0: 2 MB at DEBUG and INFO (both at or below the threshold) into a 64 KiB
            // ring and a pipe nobody reads: most must be dropped, and the producer never waits.
            int n = 20_000;
            for (int i = 0; i < n; i++) {
                int severity = random.nextBoolean() ? Severity.DEBUG : Severity.INFO;
                countResult(spool.append(record(0, i, severity), 0, RECORD, severity), severity, accepted, dropped);
                assertTrue(spool.stats().getBufferBytesInUse() <= MAX);
            }
            assertTrue(dropped[Severity.DEBUG] > 0 && dropped[Severity.INFO] > 0,
                    "both levels were dropped (seed " + SEED + ")");

            // Producer 1: WARN, above the threshold, waits at the cap instead of being dropped.
            int warns = (int) (MORE_THAN_RING_AND_PIPE / RECORD) + 1;
            AppendResult[] warnResults = new AppendResult[warns];
            CountDownLatch warnDone = new CountDownLatch(1);
            Thread warn = new Thread(() -> {
                for (int i = 0; i < warns; i++) {
                    warnResults[i] = spool.append(record(1, i, Severity.WARN), 0, RECORD, Severity.WARN);
                }
                warnDone.countDown();
            }, "warn-producer");
            warn.start();
            awaitWaitingAtCap(warn);

            // While WARN waits, below-threshold events keep moving (dropped or accepted, counted per level).
            int more = 2_000;
            for (int i = n; i < n + more; i++) {
                int severity = random.nextBoolean() ? Severity.DEBUG : Severity.INFO;
                countResult(spool.append(record(0, i, severity), 0, RECORD, severity), severity, accepted, dropped);
            }
            assertEquals(1, warnDone.getCount(), "WARN cannot finish while nobody reads");
            assertTrue(spool.stats().getBufferBytesHighWater() <= MAX, "high water under the cap");

            // Now a reader drains the pipe: the WARN producer is released and everything accepted arrives.
            PipeReader reader = PipeReader.start(in);
            warn.join(30_000);
            assertFalse(warn.isAlive(), "WARN producer released once the pipe is read");
            for (AppendResult r : warnResults) {
                assertEquals(AppendResult.ACCEPTED, r, "WARN is never discarded");
            }
            accepted[Severity.WARN] += warns;
            assertTrue(spool.stop(10, TimeUnit.SECONDS));
            byte[] got = reader.await(); // EOF once the sink is closed

            long produced = n + more + warns;
            long written = spool.stats().getEventsWritten();
            long discarded = spool.stats().getEventsDiscarded();
            assertEquals(produced, written + discarded, "produced = written + discarded");
            assertEquals(accepted[Severity.DEBUG] + accepted[Severity.INFO] + accepted[Severity.WARN], written);
            java.util.Map<String, Long> byLevel = spool.stats().getEventsDiscardedByLevel();
            assertEquals(dropped[Severity.DEBUG], byLevel.getOrDefault("DEBUG", 0L), "DEBUG discards");
            assertEquals(dropped[Severity.INFO], byLevel.getOrDefault("INFO", 0L), "INFO discards");
            assertEquals(0L, byLevel.getOrDefault("WARN", 0L), "WARN discards");
            assertEquals(dropped[Severity.DEBUG] + dropped[Severity.INFO], discarded);

            // The stream: every accepted record once, in order per producer; per-level line counts
            // equal the accepted counts; the summary lines report every discard per level.
            long[] linesByLevel = new long[Severity.COUNT];
            long[] reportedByLevel = new long[Severity.COUNT];
            long[] lastSeq = {-1, -1};
            for (String l : new String(got, java.nio.charset.StandardCharsets.US_ASCII).split("\n")) {
                if (l.startsWith("spool: discarded ")) {
                    assertTrue(l.contains(" at INFO and below ("), l);
                    String detail = l.substring(l.indexOf('(') + 1, l.indexOf(')'));
                    for (String kv : detail.split(", ")) {
                        String[] e = kv.split("=");
                        reportedByLevel[Severity.parse(e[0])] += Long.parseLong(e[1]);
                    }
                    continue;
                }
                String[] f = l.split(" ");
                int p = Integer.parseInt(f[0]);
                long seq = Long.parseLong(f[1]);
                int severity = Integer.parseInt(f[2]);
                assertTrue(seq > lastSeq[p], "per-producer order");
                lastSeq[p] = seq;
                assertEquals(new String(record(p, (int) seq, severity)), l + "\n", "record intact");
                linesByLevel[severity]++;
            }
            assertEquals(warns - 1, lastSeq[1]);
            for (int s : new int[] {Severity.DEBUG, Severity.INFO, Severity.WARN}) {
                assertEquals(accepted[s], linesByLevel[s], Severity.name(s) + " lines written");
                assertEquals(dropped[s], reportedByLevel[s], Severity.name(s) + " discards reported in the stream");
            }
            assertTrue(spool.stats().getBufferBytesHighWater() <= MAX);
            Figures.print("OverflowTest fifo discard", "acceptedDEBUG=" + accepted[Severity.DEBUG] + " acceptedINFO="
                    + accepted[Severity.INFO] + " acceptedWARN=" + accepted[Severity.WARN] + " discardedDEBUG="
                    + dropped[Severity.DEBUG] + " discardedINFO=" + dropped[Severity.INFO], spool.stats());
        }
    }

    @Test
    void aRealPipeNobodyReadsBlocksProducersAtTheCapThenLosesNothing() throws Exception {
        Fifo fifo = Fifo.open(java.nio.file.Files.createTempDirectory("spool-pipe"));
        Spool spool = Spool.start(SpoolConfig.builder("overflow-pipe-block").bufferSize(BUFFER).maxBufferSize(MAX)
                .overflowPolicy(OverflowPolicy.BLOCK).statusListener(new RecordedStatus()).build(), fifo.sink);
        int producers = 2;
        // Seeded lengths of 2 to 301 bytes; each producer alone writes more than the ring and the pipe hold.
        byte[][] expected = new byte[producers][];
        int[][] lengths = new int[producers][];
        for (int p = 0; p < producers; p++) {
            java.util.Random random = new java.util.Random(SEED + p);
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            java.util.List<Integer> ls = new java.util.ArrayList<>();
            for (int i = 0; all.size() <= MORE_THAN_RING_AND_PIPE; i++) {
                int len = 2 + random.nextInt(300);
                ls.add(len);
                all.write(varRecord(p, i, len), 0, len);
            }
            expected[p] = all.toByteArray();
            lengths[p] = ls.stream().mapToInt(Integer::intValue).toArray();
        }
        CountDownLatch done = new CountDownLatch(producers);
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Thread[] ts = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            int id = p;
            ts[p] = new Thread(() -> {
                try {
                    for (int i = 0; i < lengths[id].length; i++) {
                        byte[] r = varRecord(id, i, lengths[id][i]);
                        assertEquals(AppendResult.ACCEPTED, spool.append(r, 0, r.length, Severity.INFO));
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
                done.countDown();
            }, "block-producer-" + p);
            ts[p].start();
        }
        try (java.nio.channels.FileChannel in = fifo.reader) {
            for (Thread t : ts) {
                awaitWaitingAtCap(t);
            }
            assertEquals(producers, done.getCount(), "no producer can finish while nobody reads");
            assertTrue(spool.stats().getBufferBytesInUse() <= MAX);
            assertTrue(spool.stats().getBufferBytesHighWater() <= MAX, "high water under the cap");

            PipeReader reader = PipeReader.start(in);
            assertTrue(done.await(30, TimeUnit.SECONDS), "blocked producers released once the pipe is read");
            for (Thread t : ts) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("producer failed", failure.get());
            }
            assertTrue(spool.stop(10, TimeUnit.SECONDS));
            byte[] got = reader.await();

            long total = lengths[0].length + lengths[1].length;
            assertEquals(total, spool.stats().getEventsWritten(), "nothing lost");
            assertEquals(0, spool.stats().getEventsDiscarded());
            assertEquals(0, spool.stats().getEventsLost());
            assertEquals(expected[0].length + expected[1].length, got.length, "byte count exact");
            assertTrue(spool.stats().getBufferBytesHighWater() <= MAX);
            // Demultiplex by producer: each producer's bytes arrive exactly, in order.
            java.io.ByteArrayOutputStream[] per = {new java.io.ByteArrayOutputStream(), new java.io.ByteArrayOutputStream()};
            int from = 0;
            for (int i = 0; i < got.length; i++) {
                if (got[i] == '\n') {
                    per[got[from] - '0'].write(got, from, i + 1 - from);
                    from = i + 1;
                }
            }
            assertEquals(got.length, from, "output ends with a whole record");
            for (int p = 0; p < producers; p++) {
                assertTrue(java.util.Arrays.equals(expected[p], per[p].toByteArray()), "producer " + p + "'s bytes exact");
            }
            Figures.print("OverflowTest fifo block", "producers=" + producers + " bytes=" + got.length, spool.stats());
        }
    }

    /**
     * A record of exactly {@code len} bytes (2 to 301): the producer digit first (the output is
     * demultiplexed on it), then as much of {@code " <seq> "} and a seq-dependent filler as fits,
     * then {@code '\n'}.
     */
    private static byte[] varRecord(int producer, int seq, int len) {
        byte[] r = new byte[len];
        byte[] head = (producer + " " + seq + " ").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int i = 0; i < len - 1; i++) {
            r[i] = i < head.length ? head[i] : (byte) ('a' + (seq + i) % 26);
        }
        r[len - 1] = '\n';
        return r;
    }

    private static void countResult(AppendResult r, int severity, long[] accepted, long[] dropped) {
        if (r == AppendResult.ACCEPTED) {
            accepted[severity]++;
        } else {
            assertEquals(AppendResult.DISCARDED, r);
            dropped[severity]++;
        }
    }

    /** Waits (bounded, no sleep) until {@code t} is parked in the ring's wait for space at the cap. */
    private static void awaitWaitingAtCap(Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (;;) {
            Object blocker = java.util.concurrent.locks.LockSupport.getBlocker(t);
            if (t.getState() == Thread.State.TIMED_WAITING && blocker != null
                    && blocker.getClass().getName().startsWith("io.github.spool.ring.")) {
                return;
            }
            assertTrue(t.isAlive(), t.getName() + " finished without waiting at the cap");
            assertTrue(System.nanoTime() < deadline, t.getName() + " never waited at the cap");
            Thread.yield();
        }
    }

    /** Reads a pipe to EOF on its own thread. */
    private static final class PipeReader {
        private final java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
        private final Thread thread;
        private volatile java.io.IOException error;

        private PipeReader(java.nio.channels.FileChannel in) {
            thread = new Thread(() -> {
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(64 << 10);
                try {
                    while (in.read(buf) >= 0) {
                        got.write(buf.array(), 0, buf.position());
                        buf.clear();
                    }
                } catch (java.io.IOException e) {
                    error = e;
                }
            }, "pipe-reader");
        }

        static PipeReader start(java.nio.channels.FileChannel in) {
            PipeReader r = new PipeReader(in);
            r.thread.start();
            return r;
        }

        /** Joins the reader (it ends at EOF, once the sink is closed) and returns what it read. */
        byte[] await() throws Exception {
            thread.join(10_000);
            assertFalse(thread.isAlive(), "reader reached EOF");
            if (error != null) {
                throw error;
            }
            return got.toByteArray();
        }
    }
}
