// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import io.github.spool.SpoolThreads;

import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The background thread of one rolling file: compression, retention and log4j2's custom actions,
 * one at a time in the order of the rollovers that asked for them, so that no two tasks touch the
 * same archive at once. Neither a producer nor the writer ever runs them: the writer only closes,
 * renames and opens files (docs/design.md, "Rolling").
 *
 * <p>The thread is created on demand and ends after a few idle seconds, so a file that rolls once
 * a day keeps no thread between rollovers.
 */
final class ArchiveWorker {

    private final ThreadPoolExecutor executor;

    ArchiveWorker(String name) {
        executor = new ThreadPoolExecutor(1, 1, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> SpoolThreads.newThread(r, "spool-archive-" + name, true));
        executor.allowCoreThreadTimeOut(true);
    }

    /** Queues a task behind the earlier ones. */
    Future<?> submit(Runnable task) {
        return executor.submit(task);
    }

    /**
     * Waits until every task queued so far has finished (before a window of indexes shifts: a
     * compression still running must not have its file renamed under it).
     *
     * @param timeoutMillis longest wait
     * @return whether everything finished in time
     */
    boolean awaitIdle(long timeoutMillis) {
        try {
            executor.submit(() -> { }).get(timeoutMillis, TimeUnit.MILLISECONDS);
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
     * Lets queued tasks finish for at most {@code timeoutMillis}, then stops the thread. A task that
     * has not run leaves its file uncompressed; the next start finishes it.
     */
    void shutdown(long timeoutMillis) {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
