package io.github.spool.io;

import io.github.spool.SpoolConfig;
import io.github.spool.SpoolThreads;
import io.github.spool.StatusListener;
import io.github.spool.metrics.WriterCounters;
import io.github.spool.ring.Batch;
import io.github.spool.ring.ManyToOneCellRing;
import io.github.spool.ring.WakeSignal;
import io.github.spool.time.TimestampFormat;

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
 *
 * <p>Failure containment (docs/design.md): nothing a sink or a status listener throws ends the
 * writer — a sink's throwable is a fault (records counted as lost, the writer goes on), a
 * listener's is swallowed; a pass that fails anyway is retried, and only
 * {@link #MAX_FAILED_PASSES} failed passes without a pass that wrote end the thread. However the writer ends, it
 * first gives up the ring ({@link ManyToOneCellRing#abandonAll}): producers stop waiting for it,
 * every record it did not write is counted as lost, and {@link #drained()} says whether it
 * finished cleanly. On idle passes it recovers from producers that failed half-way through the
 * ring's protocol ({@link ManyToOneCellRing#recoverStall}).
 *
 * <p>This class holds the loop, the idle strategy and the writer's life (start, stop, drain,
 * end). Its parts, each writer-thread only and reached once per batch, never per record:
 * {@link BatchWriter} writes batches to the sink (staging, faults, torn lines),
 * {@link BatchRenderer} renders captured records first, and {@link LossReports} says what was
 * not written (discard summaries, render failures, stall recoveries).
 */
public final class RingWriter implements Runnable {

    /** Quiet time after which the writer sleeps untimed and trims the ring. */
    static final long SLEEP_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Untimed sleep still wakes this often, to report discards and notice a stop. */
    static final long HOUSEKEEPING_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** At most one discard summary line per interval. */
    static final long SUMMARY_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Pause after a failed write, so a broken sink costs at most ~1000 syscalls a second. */
    static final long FAULT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Passes in a row that may throw before the writer gives up (about 0.1 s of retrying). */
    static final int MAX_FAILED_PASSES = 100;

    private enum Outcome { RUNNING, DRAINED, GAVE_UP, FAILED }

    private final String name;
    private final ManyToOneCellRing ring;
    private final Sink sink;
    private final StatusListener status;
    private final Batch batch = new Batch();
    /** Bytes staged at most per write: the direct memory a writer that renders holds beside its ring. */
    public static final int STAGING_BYTES = 256 << 10;
    /** The staging buffer when the JVM has no direct memory for {@link #STAGING_BYTES}. */
    static final int SMALL_STAGING_BYTES = 8 << 10;
    /** Counted down once the outcome is final: every record written, given up or counted lost. */
    private final CountDownLatch finished = new CountDownLatch(1);
    /** Counted down last, after the sink was closed or handed on ({@link #atEnd}). */
    private final CountDownLatch terminated = new CountDownLatch(1);
    /**
     * What the writer does with the sink when it ends, after {@link #finished}; {@code null}:
     * close it. Set before the thread starts (its start publishes it).
     */
    private SinkHandoff atEnd;

    /** Read by {@link BatchWriter} too: a fault pauses only while no stop is requested. */
    volatile boolean stopRequested;
    private volatile long stopDeadlineNanos;
    private volatile Outcome outcome = Outcome.RUNNING;
    private boolean feedbackReported;
    private long feedbackDropped;
    private boolean passFailureReported;
    /** Records were dropped for the stop deadline: not a drain. Set by {@link BatchWriter} (writer thread only). */
    boolean givenUp;
    /** Allocates cells and renders seconds ahead; started at the first records collected (writer thread only). */
    private AheadWorker ahead;
    private Thread aheadThread;
    /**
     * Longest a committed line waits while the writer naps ({@code SpoolConfig.writerNapMicros}).
     * 5 ms by default, not less: on 2 vCPUs the naps' wake-ups cost more than their CPU — in the
     * request scenario (two ping-pong connections, a log call per request) 0.5 ms naps lost 10–12%
     * of the no-logging QPS and 5 ms naps 3–8% (docs/benchmarks.md, 2026-11-26), with the writer's
     * CPU per line a quarter, while the logging call's latency percentiles stayed where they were.
     */
    private final long napNanos;
    /** Writes batches to the sink. */
    private final BatchWriter writes;
    /** Renders each batch before {@link #writes} writes it, or {@code null} when records are text written as they are. */
    private final BatchRenderer rendering;
    private final LossReports losses;

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
        this(name, ring, sink, counters, status, discardThreshold, null, SpoolConfig.DEFAULT_WRITER_NAP_MICROS);
    }

    /**
     * @param name             appender name, for status messages
     * @param ring             the ring to drain
     * @param sink             where to write
     * @param counters         counters to update
     * @param status           where status messages go
     * @param discardThreshold the configured threshold, named in discard summaries
     * @param renderer         renders each batch's records before they are written, or {@code null}
     * @param napMicros        how long to nap between passes while lines trickle in
     */
    public RingWriter(String name, ManyToOneCellRing ring, Sink sink, WriterCounters counters, StatusListener status,
                      int discardThreshold, RecordRenderer renderer, long napMicros) {
        this.napNanos = TimeUnit.MICROSECONDS.toNanos(napMicros);
        this.name = name;
        this.ring = ring;
        this.sink = sink;
        this.status = status;
        this.writes = new BatchWriter(this, name, sink, counters, renderer != null);
        this.losses = new LossReports(this, ring, writes, name, discardThreshold);
        this.rendering = renderer == null ? null : new BatchRenderer(this, renderer, writes, losses, counters);
    }

    /**
     * Creates the thread this writer must run on: one that cannot be interrupted, created the way
     * {@link SpoolThreads} creates Spool's threads (pinning nothing of its creator), and a daemon —
     * the shutdown hook drains it; it must not keep the JVM alive.
     *
     * @param threadName the thread's name
     * @return the thread, not started
     */
    public WriterThread newThread(String threadName) {
        return SpoolThreads.newThread(() -> new WriterThread(this, threadName), true);
    }

    @Override
    public void run() {
        WakeSignal signal = ring.signal();
        signal.consumer(Thread.currentThread());
        try {
            loop(signal);
        } catch (Throwable t) {
            outcome = Outcome.FAILED;
            report(StatusListener.Level.ERROR, "writer thread failed; records not yet written are counted as lost, "
                    + "and the appender takes no more", t);
        } finally {
            if (outcome != Outcome.DRAINED) {
                if (outcome == Outcome.RUNNING) {
                    outcome = Outcome.FAILED; // ended by something no catch saw (ThreadDeath)
                }
                ring.abandonAll();
            }
            try {
                losses.reportDiscards(true);
            } catch (Throwable t) {
                // best effort on the way out
            }
            if (aheadThread != null) {
                ahead.stop(aheadThread);
            }
            finished.countDown();
            // Closing may take long (a rolling file waits for its archives' compression): the
            // outcome is known before it, and stop() reports the two apart.
            if (atEnd == null) {
                closeSink();
            } else {
                try {
                    atEnd.writerEnded(sink);
                } catch (Throwable t) {
                    report(StatusListener.Level.WARN, "ending failed", t);
                }
            }
            freeMemory();
            terminated.countDown();
        }
    }

    /** Closes the sink, reporting a failure. Called once, by the thread that ends up owning the sink. */
    public void closeSink() {
        try {
            sink.close();
        } catch (Throwable e) {
            report(StatusListener.Level.WARN, "closing " + sink.describe() + " failed", e);
        }
    }

    /** Takes the sink when the writer ends, instead of the writer closing it. */
    @FunctionalInterface
    public interface SinkHandoff {
        /**
         * Called once, on the writer thread, after its last write and before {@link #awaitTermination}
         * returns; the callee now owns the sink (and must close it, e.g. through {@link #closeSink}).
         *
         * @param sink the sink the writer wrote to
         */
        void writerEnded(Sink sink);
    }

    /**
     * Lets {@code handoff} take the sink when the writer ends. Call before the writer's thread starts.
     *
     * @param handoff what takes the sink
     */
    public void atEnd(SinkHandoff handoff) {
        this.atEnd = handoff;
    }

    /**
     * Starts the thread that allocates cells and renders seconds ahead (AheadWorker) at the first
     * records collected, so that an appender that never logs has none. Not later, at the first
     * growth: the writer may then be blocked in a write for seconds. If the thread cannot start,
     * producers allocate cells themselves, and the writer alone renders seconds ahead.
     */
    private void startAhead() {
        AheadWorker w = new AheadWorker(ring);
        try {
            Thread t = SpoolThreads.newThread(w, "spool-ahead-" + name, true);
            t.start();
            aheadThread = t;
            ahead = w;
            ring.grower(t);
        } catch (Throwable e) {
            ahead = w; // do not try again at every pass; aheadThread stays null
            report(StatusListener.Level.WARN, "could not start the thread that works ahead of the logging calls; "
                    + "they allocate the ring's new cells themselves", e);
        }
    }

    private void loop(WakeSignal signal) {
        int failedPasses = 0;
        PassState state = new PassState();
        for (;;) {
            try {
                if (pass(signal, state)) {
                    return;
                }
                // Only a pass that wrote proves the writer can work: idle passes between failing
                // ones (producers parked until the failed pass released cells) must not reset the
                // count, or a writer that fails at every batch would never give up.
                if (state.wrote) {
                    state.wrote = false;
                    failedPasses = 0;
                    passFailureReported = false;
                }
            } catch (Throwable t) {
                // Not a sink fault (those are handled in write): an Error inside the writer's own
                // work, e.g. an OutOfMemoryError while it recycles cells. Retry; give up only when
                // it keeps failing, so producers are not left waiting for a writer that cannot work.
                if (++failedPasses >= MAX_FAILED_PASSES) {
                    throw t;
                }
                if (!passFailureReported) {
                    passFailureReported = true;
                    report(StatusListener.Level.ERROR, "writer pass failed; retrying", t);
                }
                try {
                    ring.release(batch); // recycle what was collected; its records are accounted
                } catch (Throwable ignored) {
                    // the next pass starts from what the ring still holds
                }
                LockSupport.parkNanos(this, FAULT_PAUSE_NANOS);
            }
        }
    }

    /** Idle bookkeeping that survives from pass to pass. */
    private static final class PassState {
        int idleRounds;
        long idleSince;
        /** The last pass wrote (or counted) a batch without throwing. */
        boolean wrote;
    }

    /** One collect/write/recycle pass, or one idle step. Returns {@code true} when the writer is done. */
    private boolean pass(WakeSignal signal, PassState state) {
        // Nothing may leave the interrupt status set on this thread (WriterThread): a set status
        // makes every park return at once and the next channel write close the channel.
        Thread.interrupted();
        final ManyToOneCellRing ring = this.ring;
        final Batch batch = this.batch;
        if (givenUp || pastDeadline()) {
            // The stop deadline outranks the rest of the ring (a slow sink could otherwise hold
            // the writer long past it): what is left is counted as lost, exactly once.
            outcome = Outcome.GAVE_UP;
            ring.abandonAll();
            return true;
        }
        // Off the producers: the first call of each second would otherwise render it, cold.
        TimestampFormat.prepareNextSecond(System.currentTimeMillis());
        ring.collect(batch);
        if (!batch.isEmpty()) {
            if (ahead == null) {
                startAhead();
            }
            if (rendering != null) {
                rendering.writeRendered(batch);
            } else {
                writes.write(batch);
            }
            ring.release(batch);
            state.idleRounds = 0;
            losses.reportDiscards(false);
            state.wrote = true;
            return false;
        }
        long now = System.nanoTime();
        if (ring.recoverStall(now)) {
            losses.reportStall();
            return false;
        }
        if (stopRequested) {
            if (ring.sealForClose() && ring.isDrained()) {
                outcome = Outcome.DRAINED;
                return true;
            }
            LockSupport.parkNanos(this, TimeUnit.MICROSECONDS.toNanos(50));
            return false;
        }
        losses.reportDiscards(false);
        if (state.idleRounds == 0) {
            state.idleSince = now;
        }
        state.idleRounds++;
        if (now - state.idleSince < SLEEP_AFTER_NANOS || ring.stallPending()) {
            // Keep napping while a claim looks stuck, so the stall bound is checked often.
            LockSupport.parkNanos(this, napNanos);
        } else {
            ring.trim();
            try {
                sink.idle();
            } catch (Throwable t) {
                // housekeeping only; a sink that fails here fails its next write, where it is counted
            }
            signal.svSleeping();
            // Dekker: the volatile store above, then volatile loads of the ring's progress.
            if (!ring.hasWork() && !stopRequested) {
                LockSupport.parkNanos(this, HOUSEKEEPING_NANOS);
                if (aheadThread != null && ring.hasWork()) {
                    // Records again after a sleep: the ahead thread parked untimed with us.
                    LockSupport.unpark(aheadThread);
                }
            }
            signal.clearSleeping();
        }
        return false;
    }

    /**
     * The writer's last act before it says it has ended: gives back, now, the direct memory of the
     * staging buffer and of every ring cell no producer can still copy into
     * ({@link ManyToOneCellRing#freeAll}), so that a stopped appender does not hold it until a GC
     * (which {@code -XX:+DisableExplicitGC} or a quiet heap may put off indefinitely).
     */
    private void freeMemory() {
        try {
            ring.freeAll();
        } catch (Throwable t) {
            // what is not freed here is the GC's, as before
        }
        writes.freeStaging();
    }

    /** @return whether a stop was requested and its deadline has passed: what is left is to be given up */
    boolean pastDeadline() {
        return stopRequested && System.nanoTime() - stopDeadlineNanos > 0;
    }

    /** Status messages never throw into the writer: a listener that fails is ignored. */
    void report(StatusListener.Level level, String message, Throwable cause) {
        try {
            status.status(level, "spool appender '" + name + "': " + message, cause);
        } catch (Throwable ignored) {
            // a failing listener must not take the writer down with it
        }
    }

    /**
     * Called by {@code Spool.append} when the writer thread itself appends: drops the record if it
     * is feedback of a sink write (one the writer thread makes while it is inside a sink write) and says so once, as log4j2's
     * {@code Console} appender stops "Recursive call to appender". A record the writer appends
     * outside a write — a status message routed back into the appender — goes in as any other.
     * Writer thread only.
     *
     * @return whether to drop the record
     */
    public boolean dropsFeedback() {
        if (!writes.inSinkWrite) {
            return false;
        }
        feedbackDropped++;
        if (!feedbackReported) {
            feedbackReported = true; // first: the report may itself come back here, and is dropped
            report(StatusListener.Level.WARN, "a line written to " + sink.describe() + " came back into this appender "
                    + "(is it bridged into logging?); lines the writer causes while it writes are dropped, "
                    + "not written again (said once)", null);
        }
        return true;
    }

    /** @return records the writer thread appended while writing, dropped as feedback (writer thread, or after it ended) */
    public long feedbackDropped() {
        return feedbackDropped;
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

    /**
     * Waits until the writer's outcome is final — everything accepted written ({@link #drained()}),
     * or given up and counted — which may come before the thread ends (closing a rolling file
     * waits for its compressions).
     *
     * @param timeout longest wait
     * @param unit    its unit
     * @return {@code true} if the outcome is final
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitOutcome(long timeout, TimeUnit unit) throws InterruptedException {
        return finished.await(timeout, unit);
    }

    /** @return whether the writer thread has finished */
    public boolean isTerminated() {
        return terminated.getCount() == 0;
    }

    /** @return whether the writer finished by draining everything accepted (not by giving up or failing) */
    public boolean drained() {
        return outcome == Outcome.DRAINED;
    }

    /** @return whether the writer thread failed (as opposed to running, draining or giving up at a deadline) */
    public boolean failed() {
        return outcome == Outcome.FAILED;
    }
}
