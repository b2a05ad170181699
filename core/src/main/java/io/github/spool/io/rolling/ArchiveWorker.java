// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import io.github.spool.SpoolThreads;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The background threads of one rolling file. Neither a producer nor the writer ever runs their
 * work: the writer only closes, renames and opens files (docs/design.md, "Rolling").
 *
 * <ul>
 * <li>Compressions run on up to {@link #COMPRESSORS} threads at once: each reads one uncompressed
 * archive and writes its own {@code .tmp}, so two never touch the same file, and a file that rolls
 * faster than one core compresses does not pile up uncompressed archives while other cores idle
 * (log4j2 and logback start a thread per compression, without a bound).</li>
 * <li>Retention and log4j2's custom actions run on one ordered thread, in the order of the
 * rollovers that asked for them, each after its own rollover's compression has finished, so each
 * sees its archive under its final name, as with the frameworks. Because every ordered task waits
 * for the compressions queued before it, waiting for the ordered thread to be idle waits for
 * everything ({@link #awaitIdle}).</li>
 * </ul>
 *
 * <p>Threads are created on demand and end after a few idle seconds, so a file that rolls once
 * a day keeps no thread between rollovers.
 */
final class ArchiveWorker {

    /** Compressions at once: the cores, at most four (each holds a 64 KiB buffer and zlib's state). */
    static final int COMPRESSORS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    private final ThreadPoolExecutor ordered;
    private final ThreadPoolExecutor compressors;

    ArchiveWorker(String name) {
        ordered = new ThreadPoolExecutor(1, 1, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> SpoolThreads.newThread(r, "spool-archive-" + name, true));
        ordered.allowCoreThreadTimeOut(true);
        compressors = new ThreadPoolExecutor(COMPRESSORS, COMPRESSORS, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> SpoolThreads.newThread(r, "spool-compress-" + name, true));
        compressors.allowCoreThreadTimeOut(true);
    }

    /** Queues a task on the ordered thread, behind the earlier ones. */
    Future<?> submit(Runnable task) {
        return ordered.submit(task);
    }

    /**
     * Starts {@code compression} on a compressor thread and queues {@code then} on the ordered
     * thread, to run when the compression has ended (done, failed or cancelled).
     */
    Future<?> submit(Runnable compression, Runnable then) {
        Future<?> compressed = compressors.submit(compression);
        return ordered.submit(() -> {
            if (awaitQuietly(compressed)) {
                then.run();
            }
        });
    }

    /** @return false if interrupted (a shutdown that no longer waits): {@code then} is skipped */
    private static boolean awaitQuietly(Future<?> f) {
        try {
            f.get();
            return true;
        } catch (ExecutionException | CancellationException e) {
            return true; // the compression reports its own failure; retention runs as after any rollover
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits until every task queued so far has finished, compressions included (before a window of
     * indexes shifts: a compression still running must not have its file renamed under it).
     *
     * @param timeoutMillis longest wait
     * @return whether everything finished in time
     */
    boolean awaitIdle(long timeoutMillis) {
        try {
            ordered.submit(() -> { }).get(timeoutMillis, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * Lets queued tasks finish for at most {@code timeoutMillis} in all, then stops the threads. A
     * compression that has not run leaves its file uncompressed; the next start finishes it.
     */
    void shutdown(long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        // The ordered thread first: its tasks wait for the compressions, so when it ends they have.
        ordered.shutdown();
        compressors.shutdown();
        try {
            if (!ordered.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS)) {
                ordered.shutdownNow();
            }
            long left = Math.max(0, deadline - System.nanoTime());
            if (!compressors.awaitTermination(left, TimeUnit.NANOSECONDS)) {
                compressors.shutdownNow();
            }
        } catch (InterruptedException e) {
            ordered.shutdownNow();
            compressors.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
