package io.github.spool.io;

import io.github.spool.Severity;
import io.github.spool.StatusListener;
import io.github.spool.metrics.WriterCounters;
import io.github.spool.ring.Batch;
import io.github.spool.ring.ManyToOneCellRing;
import io.github.spool.ring.WakeSignal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The one consumer of a ring: collects whatever is committed, writes it to the sink with one
 * gather write per batch, recycles the cells, reports discards in the stream and survives sink
 * faults. Batching comes from load: when producers are faster than the sink, each pass finds
 * more bytes. Internal to Spool.
 *
 * <p>Idle strategy: nap with a short timed park — producers never pay for waking a napping
 * writer, and a line waits at most one nap — and after a longer quiet period sleep untimed on the
 * {@link WakeSignal}, which the next producer pays one {@code unpark} to break. An idle appender
 * therefore costs no CPU at all. No spin phase: on two cores a writer spinning between sparse
 * events burns the core the application needs and writes one event per syscall (docs/design.md).
 */
public final class RingWriter implements Runnable {

    /** Longest a committed line waits while the writer naps. */
    static final long NAP_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /** Quiet time after which the writer sleeps untimed and trims the ring. */
    static final long SLEEP_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Untimed sleep still wakes this often, to report discards and notice a stop. */
    static final long HOUSEKEEPING_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** At most one discard summary line per interval. */
    static final long SUMMARY_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Pause after a failed write, so a broken sink costs at most ~1000 syscalls a second. */
    static final long FAULT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final String name;
    private final ManyToOneCellRing ring;
    private final Sink sink;
    private final WriterCounters counters;
    private final StatusListener status;
    private final int discardThreshold;
    private final Batch batch = new Batch();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final long[] reportedDiscards = new long[Severity.COUNT];

    private volatile boolean stopRequested;
    private volatile long stopDeadlineNanos;
    private boolean inFault;
    private long faultLostRecords;
    private boolean wouldBlockReported;
    private long lastSummaryNanos;
    private long lastSummaryMillis;

    /**
     * @param name             appender name, for status messages
     * @param ring             the ring to drain
     * @param sink             where to write
     * @param counters         counters to update
     * @param status           where status messages go
     * @param discardThreshold the configured threshold, named in discard summaries
     */
    public RingWriter(String name, ManyToOneCellRing ring, Sink sink, WriterCounters counters, StatusListener status,
                      int discardThreshold) {
        this.name = name;
        this.ring = ring;
        this.sink = sink;
        this.counters = counters;
        this.status = status;
        this.discardThreshold = discardThreshold;
        this.lastSummaryNanos = System.nanoTime();
        this.lastSummaryMillis = System.currentTimeMillis();
    }

    @Override
    public void run() {
        WakeSignal signal = ring.signal();
        signal.consumer(Thread.currentThread());
        try {
            loop(signal);
        } catch (Throwable t) {
            status.status(StatusListener.Level.ERROR, "spool appender '" + name + "': writer thread failed", t);
        } finally {
            reportDiscards(true);
            try {
                sink.close();
            } catch (IOException e) {
                status.status(StatusListener.Level.WARN, "spool appender '" + name + "': closing " + sink.describe() + " failed", e);
            }
            terminated.countDown();
        }
    }

    private void loop(WakeSignal signal) {
        final ManyToOneCellRing ring = this.ring;
        final Batch batch = this.batch;
        int idleRounds = 0;
        long idleSince = 0;
        for (;;) {
            ring.collect(batch);
            if (!batch.isEmpty()) {
                write(batch);
                ring.release(batch);
                idleRounds = 0;
                reportDiscards(false);
                continue;
            }
            if (stopRequested) {
                if (ring.sealForClose() && ring.isDrained()) {
                    return;
                }
                if (System.nanoTime() - stopDeadlineNanos > 0) {
                    return; // stop gave up waiting; accepted records still in flight are not written
                }
                LockSupport.parkNanos(this, TimeUnit.MICROSECONDS.toNanos(50));
                continue;
            }
            reportDiscards(false);
            if (idleRounds == 0) {
                idleSince = System.nanoTime();
            }
            idleRounds++;
            if (System.nanoTime() - idleSince < SLEEP_AFTER_NANOS) {
                LockSupport.parkNanos(this, NAP_NANOS);
            } else {
                ring.trim();
                signal.svSleeping();
                // Dekker: the volatile store above, then volatile loads of the ring's progress.
                if (!ring.hasWork() && !stopRequested) {
                    LockSupport.parkNanos(this, HOUSEKEEPING_NANOS);
                }
                signal.clearSleeping();
            }
        }
    }

    private void write(Batch batch) {
        ByteBuffer[] segments = batch.segments();
        int count = batch.count();
        int first = 0;
        int pauses = 0;
        while (first < count) {
            long n;
            try {
                counters.writeCall();
                n = sink.write(segments, first, count - first);
            } catch (IOException | RuntimeException e) {
                fault(e, segments, first, count, batch);
                return;
            }
            if (n == 0) {
                // Would block (a non-blocking descriptor): wait for the reader rather than lose.
                if (!wouldBlockReported) {
                    wouldBlockReported = true;
                    status.status(StatusListener.Level.WARN, "spool appender '" + name + "': " + sink.describe()
                            + " is non-blocking and full (EAGAIN); the writer waits and retries", null);
                }
                if (stopRequested && System.nanoTime() - stopDeadlineNanos > 0) {
                    giveUp(segments, first, count, batch);
                    return;
                }
                LockSupport.parkNanos(this, Math.min(TimeUnit.MILLISECONDS.toNanos(10), 10_000L << Math.min(pauses++, 10)));
                continue;
            }
            long records = 0;
            while (first < count && !segments[first].hasRemaining()) {
                records += batch.records(first);
                first++;
            }
            counters.written(records, n);
            if (inFault) {
                inFault = false;
                status.status(StatusListener.Level.INFO, "spool appender '" + name + "': writing to " + sink.describe()
                        + " works again; " + faultLostRecords + " records were lost while it failed", null);
                faultLostRecords = 0;
            }
        }
    }

    private void fault(Exception e, ByteBuffer[] segments, int first, int count, Batch batch) {
        counters.writeError();
        long lost = giveUp(segments, first, count, batch);
        if (!inFault) {
            inFault = true;
            status.status(StatusListener.Level.ERROR, "spool appender '" + name + "': writing to " + sink.describe()
                    + " failed (" + e + "); records are dropped and counted until the sink works again", e);
        }
        faultLostRecords += lost;
        if (!stopRequested) {
            LockSupport.parkNanos(this, FAULT_PAUSE_NANOS);
        }
    }

    /** Counts the rest of a batch as lost (a partly written record counts as lost). */
    private long giveUp(ByteBuffer[] segments, int first, int count, Batch batch) {
        long records = 0;
        long bytes = 0;
        for (int i = first; i < count; i++) {
            records += batch.records(i);
            bytes += segments[i].remaining();
        }
        counters.lost(records, bytes);
        return records;
    }

    /** Writes one summary line into the stream when records were discarded since the last one. */
    private void reportDiscards(boolean force) {
        long now = System.nanoTime();
        if (!force && now - lastSummaryNanos < SUMMARY_INTERVAL_NANOS) {
            return;
        }
        long total = 0;
        StringBuilder detail = null;
        for (int s = Severity.COUNT - 1; s >= 0; s--) {
            long d = ring.discarded(s) - reportedDiscards[s];
            if (d != 0) {
                total += d;
                reportedDiscards[s] += d;
                detail = (detail == null ? new StringBuilder() : detail.append(", ")).append(Severity.name(s)).append('=').append(d);
            }
        }
        lastSummaryNanos = now;
        long sinceMillis = lastSummaryMillis;
        lastSummaryMillis = System.currentTimeMillis();
        if (total == 0) {
            return;
        }
        String line = "spool: discarded " + total + " events at " + Severity.name(discardThreshold) + " and below ("
                + detail + ") since " + Instant.ofEpochMilli(sinceMillis) + System.lineSeparator();
        ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        try {
            while (bytes.hasRemaining()) {
                counters.writeCall();
                if (sink.write(new ByteBuffer[] {bytes}, 0, 1) == 0) {
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
                }
            }
            counters.written(0, bytes.capacity());
            counters.summaryLine();
        } catch (IOException | RuntimeException e) {
            counters.writeError();
        }
    }

    /**
     * Asks the writer to drain everything accepted and finish, giving up at {@code deadlineNanos}.
     *
     * @param deadlineNanos a {@link System#nanoTime()} value
     */
    public void requestStop(long deadlineNanos) {
        this.stopDeadlineNanos = deadlineNanos;
        this.stopRequested = true;
        ring.close();
        ring.signal().wakeNow();
    }

    /**
     * Waits for the writer thread to finish.
     *
     * @param timeout longest wait
     * @param unit    its unit
     * @return {@code true} if it finished
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    /** @return whether the writer thread has finished */
    public boolean isTerminated() {
        return terminated.getCount() == 0;
    }
}
