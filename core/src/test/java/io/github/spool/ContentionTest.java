package io.github.spool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many producers, records from 1 byte to two cells: every record must arrive intact (no torn or
 * interleaved bytes), per-producer order kept, count exact. Seeded: {@code -Dspool.test.seed=N}
 * reproduces a run.
 */
class ContentionTest {
    static final long SEED = Long.getLong("spool.test.seed", 20261122L);

    @TempDir
    Path dir;

    @Test
    void eightProducersRandomLengthsIntoAFile() throws Exception {
        // 16 KiB ring of 4 KiB cells growing to 256 KiB: seals, growth, pooling and dedicated
        // cells for records longer than a cell all happen constantly.
        run(8, 200_000, 16 << 10, 256 << 10);
    }

    @Test
    void twoProducersAtTheSmallestRingThatCanWork() throws Exception {
        run(2, 100_000, 8 << 10, 8 << 10);
    }

    private void run(int producers, int perProducer, long bufferSize, long maxBufferSize) throws Exception {
        Path file = dir.resolve("contention-" + producers + ".log");
        SpoolConfig config = SpoolConfig.builder("contention-" + producers).file(file)
                .bufferSize(bufferSize).maxBufferSize(maxBufferSize).build();
        int cell = io.github.spool.ring.ManyToOneCellRing.cellSizeFor(bufferSize);
        RecordModel model = new RecordModel(SEED, 2 * cell);
        Spool spool = Spool.start(config);
        CyclicBarrier start = new CyclicBarrier(producers);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int id = p;
            Thread t = new Thread(() -> {
                byte[] buf = new byte[2 * cell + 256];
                try {
                    start.await();
                    for (int i = 0; i < perProducer; i++) {
                        int len = model.fill(id, i, buf);
                        AppendResult r = spool.append(buf, 0, len, Severity.INFO);
                        if (r != AppendResult.ACCEPTED) {
                            throw new AssertionError("record " + id + "/" + i + ": " + r);
                        }
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "producer-" + p);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(failures.isEmpty(), () -> "seed " + SEED + ": " + failures);
        assertTrue(spool.stop(30, TimeUnit.SECONDS), "drained");
        // The cap holds exactly, except that a record too big to sit beside one cell under the cap
        // is admitted alone (never truncated, never refused): then one cell plus that record.
        long largest = 2L * cell;
        long bound = largest <= maxBufferSize - cell ? maxBufferSize : Math.max(maxBufferSize, cell + largest);
        assertTrue(spool.stats().getBufferBytesHighWater() <= bound,
                () -> "high water " + spool.stats().getBufferBytesHighWater() + " above " + bound);

        byte[] out = Files.readAllBytes(file);
        int[] counts = model.verify(out, producers, perProducer);
        int[] expected = new int[producers];
        java.util.Arrays.fill(expected, perProducer);
        assertArrayEquals(expected, counts, "seed " + SEED + ": records per producer");
        assertEquals((long) producers * perProducer, spool.stats().getEventsWritten());
        assertEquals(out.length, spool.stats().getBytesWritten());
        assertEquals(0, spool.stats().getEventsLost());
        Figures.print("ContentionTest " + producers + " producers", "seed=" + SEED + " produced=" + (long) producers * perProducer
                + " bufferSize=" + bufferSize, spool.stats());
    }
}
