// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The archive threads' contract: compressions side by side, retention in rollover order after its own compression. */
class ArchiveWorkerTest {

    private final ArchiveWorker worker = new ArchiveWorker("archive-worker-test");
    private final List<String> order = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        worker.shutdown(10_000);
    }

    @Test
    void twoCompressionsRunAtOnceWhenThereAreCores() throws Exception {
        assumeTrue(ArchiveWorker.COMPRESSORS >= 2, "one core: one compression at a time");
        CountDownLatch bothRunning = new CountDownLatch(2);
        Runnable compression = () -> {
            bothRunning.countDown();
            try {
                // Each waits for the other: with one compressor thread this never completes.
                assertTrue(bothRunning.await(10, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        worker.submit(compression, () -> order.add("retention 1"));
        worker.submit(compression, () -> order.add("retention 2"));
        assertTrue(bothRunning.await(10, TimeUnit.SECONDS), "the second compression waited for the first");
        assertTrue(worker.awaitIdle(10_000));
        assertEquals(List.of("retention 1", "retention 2"), order);
    }

    @Test
    void retentionRunsInRolloverOrderEachAfterItsOwnCompression() throws Exception {
        CountDownLatch releaseFirst = new CountDownLatch(1);
        worker.submit(() -> {
            await(releaseFirst);
            order.add("compressed 1");
        }, () -> order.add("retention 1"));
        worker.submit(() -> order.add("compressed 2"), () -> order.add("retention 2"));
        worker.submit(() -> order.add("cleanup 3"));
        // The first compression is held: nothing of the ordered work may run yet.
        assertFalse(worker.awaitIdle(200));
        assertFalse(order.contains("retention 1") || order.contains("retention 2") || order.contains("cleanup 3"));
        releaseFirst.countDown();
        assertTrue(worker.awaitIdle(10_000));
        List<String> ordered = order.stream().filter(s -> !s.startsWith("compressed")).toList();
        assertEquals(List.of("retention 1", "retention 2", "cleanup 3"), ordered);
        assertTrue(order.indexOf("compressed 1") < order.indexOf("retention 1"));
        assertTrue(order.indexOf("compressed 2") < order.indexOf("retention 2"));
    }

    @Test
    void aFailedCompressionStillLetsRetentionRun() {
        worker.submit(() -> {
            throw new IllegalStateException("disk full");
        }, () -> order.add("retention"));
        assertTrue(worker.awaitIdle(10_000));
        assertEquals(List.of("retention"), order);
    }

    @Test
    void shutdownLetsQueuedCompressionsFinish() {
        for (int i = 0; i < 8; i++) {
            int n = i;
            worker.submit(() -> order.add("compressed " + n), () -> order.add("retention " + n));
        }
        worker.shutdown(10_000);
        assertEquals(16, order.size());
        assertEquals(List.of("retention 0", "retention 1", "retention 2", "retention 3", "retention 4",
                "retention 5", "retention 6", "retention 7"), order.stream().filter(s -> s.startsWith("retention")).toList());
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
