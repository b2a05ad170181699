package io.github.spool.io;

import io.github.spool.Severity;
import io.github.spool.jfr.DiscardEvent;
import io.github.spool.jfr.SlowWriteEvent;
import io.github.spool.jfr.StallRecoveryEvent;
import io.github.spool.SpoolConfig;
import io.github.spool.SpoolThreads;
import io.github.spool.StatusListener;
import io.github.spool.metrics.WriterCounters;
import io.github.spool.ring.Batch;
import io.github.spool.ring.DirectMemory;
import io.github.spool.ring.ManyToOneCellRing;
import io.github.spool.ring.WakeSignal;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.time.TimestampFormat;

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
 *
 * <p>Failure containment (docs/design.md): nothing a sink or a status listener throws ends the
 * writer — a sink's throwable is a fault (records counted as lost, the writer goes on), a
 * listener's is swallowed; a pass that fails anyway is retried, and only
 * {@link #MAX_FAILED_PASSES} failed passes without a pass that wrote end the thread. However the writer ends, it
 * first gives up the ring ({@link ManyToOneCellRing#abandonAll}): producers stop waiting for it,
 * every record it did not write is counted as lost, and {@link #drained()} says whether it
 * finished cleanly. On idle passes it recovers from producers that failed half-way through the
 * ring's protocol ({@link ManyToOneCellRing#recoverStall}).
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
    private final WriterCounters counters;
    private final StatusListener status;
    private final int discardThreshold;
    private final Batch batch = new Batch();
    /** Renders captured records, or {@code null} when records are text written as they are. */
    private final RecordRenderer renderer;
    /** The rendered bytes of the current batch (writer only); keeps up to 4 MiB across batches. */
    private final ByteLineBuilder rendered;
    /** Holds one rendered range for {@link #write}. */
    private final Batch renderedBatch = new Batch();
    private final RecordRenderer.Result renderResult = new RecordRenderer.Result();
    /** Render failures that lost records and are not reported yet, and their records (writer only). */
    private long renderEpisodesPending;
    private long renderLostPending;
    private Throwable renderFailurePending;
    /** When render failures were last reported ({@link System#nanoTime()}); at most one report a second. */
    private long renderReportedNanos;
    private boolean renderReportedOnce;
    /**
     * Rendered bytes go out through this fixed direct buffer, a slice at a time: handed a heap
     * buffer, a channel copies it whole into a temporary direct buffer of its size (and keeps it
     * cached), which would put direct memory beyond the ring's cap by a batch — or a 10 MiB line.
     * Allocated at the first rendered write (so that a start-up never fails for it, and an
     * appender that never renders holds none), freed when the writer ends (writer only).
     */
    private ByteBuffer[] staging;
    private DirectMemory.Block stagingMemory;
    /** Without direct memory for any staging buffer: the rendered range itself, written as it is. */
    private final ByteBuffer[] unstaged = new ByteBuffer[1];
    private boolean stagingTried;
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
    private final long[] reportedDiscards = new long[Severity.COUNT];
    /** Whether the sink is told where records end before each write ({@link Sink#needsRecordEnds}). */
    private final boolean recordEnds;
    /** The record ends of the rendered text being written ({@link RecordRenderer.Result#ends}), or {@code null}. */
    private int[] renderedEnds;
    private int renderedEndCount;
    /** The end of a record passed through from the ring: one record, written alone. */
    private final int[] passThroughEnd = new int[1];

    private volatile boolean stopRequested;
    private volatile long stopDeadlineNanos;
    private volatile Outcome outcome = Outcome.RUNNING;
    private boolean inFault;
    /**
     * The sink's last byte is not a line end: a write ended mid-line and the next one failed.
     * The next write starts with {@link #NEWLINE}, so no line is glued onto the torn one.
     */
    private boolean torn;
    /** One line end, for {@link #torn}; reset before each use (writer only). */
    private final ByteBuffer[] newline = {ByteBuffer.wrap(new byte[] {'\n'})};
    private long faultLostRecords;
    /**
     * Set while the writer is inside a sink write (writer thread only). A record the writer
     * thread appends meanwhile was caused by the write itself — {@code follow} into a
     * {@code System.out} that is bridged back into logging — and would be written, and so
     * appended, again and again: {@link #dropsFeedback} drops it.
     */
    private boolean inSinkWrite;
    private boolean feedbackReported;
    private long feedbackDropped;
    private boolean wouldBlockReported;
    private boolean passFailureReported;
    private boolean givenUp;
    private long lastSummaryNanos;
    private long lastSummaryMillis;
    /** Allocates cells and renders seconds ahead; started at the first records collected (writer thread only). */
    private AheadWorker ahead;
    private Thread aheadThread;
    private long reportedStallRecoveries;
    /**
     * Longest a committed line waits while the writer naps ({@code SpoolConfig.writerNapMicros}).
     * 5 ms by default, not less: on 2 vCPUs the naps' wake-ups cost more than their CPU — in the
     * request scenario (two ping-pong connections, a log call per request) 0.5 ms naps lost 10–12%
     * of the no-logging QPS and 5 ms naps 3–8% (docs/benchmarks.md, 2026-11-26), with the writer's
     * CPU per line a quarter, while the logging call's latency percentiles stayed where they were.
     */
    private final long napNanos;

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
        this.renderer = renderer;
        this.rendered = renderer == null ? null : new ByteLineBuilder(64 << 10, 4 << 20);
        this.name = name;
        this.ring = ring;
        this.sink = sink;
        this.counters = counters;
        this.status = status;
        this.discardThreshold = discardThreshold;
        this.recordEnds = renderer != null && sink.needsRecordEnds();
        this.lastSummaryNanos = System.nanoTime();
        this.lastSummaryMillis = System.currentTimeMillis();
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
                reportDiscards(true);
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
            if (renderer != null) {
                writeRendered(batch);
            } else {
                write(batch);
            }
            ring.release(batch);
            state.idleRounds = 0;
            reportDiscards(false);
            state.wrote = true;
            return false;
        }
        long now = System.nanoTime();
        if (ring.recoverStall(now)) {
            reportStall();
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
        reportDiscards(false);
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
     * Renders and writes the batch range by range, so the rendered text stays within about one
     * cell's worth (a whole batch could be 16 cells); a long text record the renderer passes
     * through is written straight from the ring, whole, as the writer writes text records. A
     * range the renderer fails on (it should not throw: it counts what it cannot render) is
     * counted as lost from there on; the writer goes on.
     */
    private void writeRendered(Batch batch) {
        ByteBuffer[] segments = batch.segments();
        Batch one = renderedBatch;
        RecordRenderer.Result result = renderResult;
        for (int i = 0; i < batch.count(); i++) {
            ByteBuffer range = segments[i];
            long inRange = batch.records(i);
            long done = 0; // records of this range written, given up or counted lost so far
            boolean retried = false;
            Throwable failed = null;
            while (range.hasRemaining() && done < inRange) {
                if (givenUp) {
                    break; // past the stop deadline: the rest is lost, as write() counts it
                }
                ByteLineBuilder out = rendered;
                out.reset();
                result.clear();
                int at = range.position();
                try {
                    renderer.render(range, out, result);
                } catch (Throwable t) {
                    if (!retried) {
                        // Once more from where this call began: a failure can be transient (the heap
                        // exhausted for a moment by the application), and the records are all still here.
                        retried = true;
                        range.position(at);
                        continue;
                    }
                    failed = t;
                    break;
                }
                retried = false;
                done += result.rendered + result.left;
                if (result.left > 0) {
                    counters.lost(result.left, 0);
                }
                if (out.length() > 0 || result.rendered > 0) {
                    renderedEnds = result.ends;
                    renderedEndCount = result.endCount;
                    writeOne(one, out.view(), result.rendered);
                    renderedEnds = null;
                }
                if (result.passThrough > 0 && !givenUp) {
                    int limit = range.limit();
                    int end = range.position() + result.passThrough;
                    range.limit(end);
                    writeOne(one, range, 1); // written or counted: either way the record is done
                    range.limit(limit);
                    range.position(end);
                    done++;
                }
            }
            if (done < inRange) {
                counters.lost(inRange - done, 0);
            }
            if (failed != null) {
                renderEpisodesPending++;
                renderLostPending += inRange - done;
                renderFailurePending = failed;
                reportRenderFailures(false);
            }
        }
        // Give back the array of a huge rendering now, not at the next batch (it may be long in coming).
        rendered.reset();
    }

    /** Writes one range of {@code records} records through {@link #write}. */
    private void writeOne(Batch one, ByteBuffer range, long records) {
        one.replaceRanges(range, records);
        write(one);
        one.replaceRanges(null, 0);
    }

    private void write(Batch batch) {
        ByteBuffer[] segments = batch.segments();
        int count = batch.count();
        int first = 0;
        int pauses = 0;
        while (first < count) {
            long n;
            if (torn && sink.sizeNow() == 0) {
                torn = false; // truncated (copytruncate) or new since the torn write: no torn line to end
            }
            boolean endingTornLine = torn;
            inSinkWrite = true;
            long began = System.nanoTime();
            SlowWriteEvent slow = new SlowWriteEvent(); // per batch, on the writer; committed only if over its threshold
            slow.begin();
            try {
                counters.writeCall();
                if (endingTornLine) {
                    newline[0].clear();
                    if (recordEnds) {
                        sink.recordEnds(null, 0, -1, 0); // the end of a torn line: place it by its line end
                    }
                    n = sink.write(newline, 0, 1);
                } else if (renderer == null || segments[first].isDirect()) {
                    if (recordEnds) {
                        // A direct range here is one record passed through from the ring.
                        passThroughEnd[0] = segments[first].limit();
                        sink.recordEnds(passThroughEnd, 0, count - first == 1 ? 1 : -1, segments[first].position());
                    }
                    n = sink.write(segments, first, count - first);
                } else {
                    n = writeStaged(segments[first]);
                }
            } catch (Throwable e) {
                inSinkWrite = false;
                counters.batchWriteTime(System.nanoTime() - began);
                slowWrite(slow, -1, segments, first, count);
                // Anything a sink throws is a fault of that write, Errors included: the records
                // are counted, the writer goes on.
                fault(e, segments, first, count, batch);
                return;
            }
            inSinkWrite = false;
            counters.batchWriteTime(System.nanoTime() - began);
            slowWrite(slow, n, segments, first, count);
            if (n == 0) {
                // Would block (a non-blocking descriptor): wait for the reader rather than lose.
                if (!wouldBlockReported) {
                    wouldBlockReported = true;
                    report(StatusListener.Level.WARN, sink.describe()
                            + " is non-blocking and full (EAGAIN); the writer waits and retries", null);
                }
                if (pastDeadline()) {
                    giveUp(segments, first, count, batch);
                    givenUp = true; // records were dropped for the deadline: not a drain
                    return;
                }
                LockSupport.parkNanos(this, Math.min(TimeUnit.MILLISECONDS.toNanos(10), 10_000L << Math.min(pauses++, 10)));
                continue;
            }
            if (endingTornLine) {
                torn = false;
                counters.written(0, n);
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
                report(StatusListener.Level.INFO, "writing to " + sink.describe() + " works again; "
                        + faultLostRecords + " records were lost while it failed", null);
                faultLostRecords = 0;
            }
        }
    }

    /** Writes the next slice of a rendered (heap) range through {@link #staging}; moves its position. */
    private long writeStaged(ByteBuffer rendered) throws java.io.IOException {
        ByteBuffer[] staging = staging();
        if (staging == null) {
            unstaged[0] = rendered;
            try {
                return sink.write(unstaged, 0, 1); // moves rendered's position
            } finally {
                unstaged[0] = null;
            }
        }
        ByteBuffer st = staging[0];
        st.clear();
        int from = rendered.position();
        int len = Math.min(st.capacity(), rendered.remaining());
        int endsFrom = 0;
        int endsCount = -1;
        if (recordEnds && renderedEnds != null) {
            // The slice holds whole records where it can; the sink places them (size rollovers).
            int[] ends = renderedEnds;
            int i = 0;
            while (i < renderedEndCount && ends[i] <= from) {
                i++;
            }
            int j = i;
            while (j < renderedEndCount && ends[j] <= from + len) {
                j++;
            }
            endsFrom = i;
            endsCount = j - i;
            if (endsCount > 0 && len < rendered.remaining()) {
                len = ends[j - 1] - from;
            }
        }
        if (len < rendered.remaining() && endsCount <= 0) {
            // End the slice after its last line end: every write(2) then holds whole lines, and an
            // O_APPEND file shared with another writer (a reconfiguration's old and new appender)
            // never gets a line cut by theirs. Only a line longer than the slice goes out in parts.
            for (int i = from + len - 1; i > from; i--) {
                if (rendered.get(i) == '\n') {
                    len = i + 1 - from;
                    break;
                }
            }
        }
        st.put(0, rendered, from, len);
        st.limit(len);
        if (recordEnds) {
            sink.recordEnds(renderedEnds, endsFrom, renderedEnds == null ? -1 : endsCount, from);
        }
        long n = sink.write(staging, 0, 1);
        rendered.position(from + (int) n);
        return n;
    }

    /**
     * The staging buffer, allocated at the first call: {@link #STAGING_BYTES}, or with too little
     * direct memory {@link #SMALL_STAGING_BYTES} (slices are then smaller, each still whole lines),
     * or none (rendered ranges then go to the sink as they are, which may copy them itself). Said
     * once when it is not the full size; never thrown into a logging call: it runs on the writer.
     */
    private ByteBuffer[] staging() {
        if (!stagingTried) {
            stagingTried = true;
            DirectMemory.Block b = DirectMemory.tryAllocate(STAGING_BYTES);
            if (b == null) {
                b = DirectMemory.tryAllocate(SMALL_STAGING_BYTES);
                report(StatusListener.Level.WARN, "not enough direct memory for the " + (STAGING_BYTES >> 10)
                        + " KiB buffer rendered lines go out through; " + (b == null ? "writing them without one"
                        : "using " + (SMALL_STAGING_BYTES >> 10) + " KiB"), null);
            }
            if (b != null) {
                stagingMemory = b;
                staging = new ByteBuffer[] {b.buffer()};
            }
        }
        return staging;
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
        DirectMemory.Block b = stagingMemory;
        if (b != null) {
            stagingMemory = null;
            staging = null;
            b.free();
        }
    }

    private boolean pastDeadline() {
        return stopRequested && System.nanoTime() - stopDeadlineNanos > 0;
    }

    private void fault(Throwable e, ByteBuffer[] segments, int first, int count, Batch batch) {
        counters.writeError();
        long lost = giveUp(segments, first, count, batch);
        if (!inFault) {
            inFault = true;
            report(StatusListener.Level.ERROR, "writing to " + sink.describe() + " failed (" + e
                    + "); records are dropped and counted until the sink works again", e);
        }
        faultLostRecords += lost;
        if (!stopRequested) {
            LockSupport.parkNanos(this, FAULT_PAUSE_NANOS);
        }
    }

    /**
     * Counts the rest of a batch as lost. Ranges from {@code first} on may be partly written: by a
     * short write before the one that failed, or by a sink that wrote part of a gather write and
     * then threw (a rolling file meeting ENOSPC mid-batch). In each, the whole records that reached
     * the sink count as written, found by their line ends when every record of the range is
     * exactly one line (the ring keeps no record boundaries; the adapters' layouts end each record
     * with one line separator); the record the sink stopped in counts as lost, once. A partly
     * written range whose records are not one line each counts wholly as lost, and
     * docs/reliability.md says so. When the sink's last byte is not a line end, the next write
     * ends that torn line first ({@link #torn}).
     *
     * @return records lost
     */
    private long giveUp(ByteBuffer[] segments, int first, int count, Batch batch) {
        long records = 0;
        long bytes = 0;
        int lastTouched = -1;
        for (int i = first; i < count; i++) {
            ByteBuffer s = segments[i];
            int start = batch.start(i);
            long inRange = batch.records(i);
            bytes += s.remaining();
            if (s.position() > start) {
                lastTouched = i;
                if (countLineEnds(s, start, s.limit()) == inRange) {
                    long out = countLineEnds(s, start, s.position());
                    counters.written(out, 0);
                    records += inRange - out;
                    continue;
                }
            }
            records += inRange;
        }
        if (lastTouched >= 0) {
            ByteBuffer s = segments[lastTouched];
            torn = s.get(s.position() - 1) != '\n';
        }
        counters.lost(records, bytes);
        return records;
    }

    private static long countLineEnds(ByteBuffer b, int from, int to) {
        long n = 0;
        for (int i = from; i < to; i++) {
            if (b.get(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    /**
     * Reports the render failures that lost records since the last report: each episode is
     * counted, and reported within about a second (the writer's housekeeping calls this) or when
     * the writer ends, in one message a second at most, so that a renderer failing on every batch
     * cannot flood the status listener.
     */
    private void reportRenderFailures(boolean force) {
        long episodes = renderEpisodesPending;
        if (episodes == 0) {
            return;
        }
        long now = System.nanoTime();
        if (!force && renderReportedOnce && now - renderReportedNanos < SUMMARY_INTERVAL_NANOS) {
            return;
        }
        renderReportedOnce = true;
        renderReportedNanos = now;
        long lost = renderLostPending;
        Throwable cause = renderFailurePending;
        renderEpisodesPending = 0;
        renderLostPending = 0;
        renderFailurePending = null;
        report(StatusListener.Level.ERROR, "rendering records failed " + episodes + (episodes == 1 ? " time" : " times")
                + " (each range rendered twice); " + lost + " records counted as lost", cause);
    }

    /**
     * Ends a batch write's {@link SlowWriteEvent} and commits it if a recording wants it (over its
     * threshold, 20 ms by default). The bytes asked are what the write took plus what the
     * segments still hold, added up only then.
     */
    private void slowWrite(SlowWriteEvent event, long written, ByteBuffer[] segments, int first, int count) {
        try {
            event.end();
            if (event.shouldCommit()) {
                long left = 0;
                for (int i = first; i < count; i++) {
                    left += segments[i].remaining();
                }
                event.appender = name;
                event.written = written;
                event.bytes = Math.max(written, 0) + left;
                event.commit();
            }
        } catch (Throwable ignored) {
            // a diagnostic must never take the writer down
        }
    }

    /** Writes one summary line into the stream when records were discarded since the last one. */
    private void reportDiscards(boolean force) {
        reportRenderFailures(force);
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
        DiscardEvent event = new DiscardEvent(); // once per summary at most
        if (event.shouldCommit()) {
            event.appender = name;
            event.discarded = total;
            event.threshold = Severity.name(discardThreshold);
            event.byLevel = detail.toString();
            event.commit();
        }
        // After a torn line, the summary starts on a line of its own (unless the file was emptied since).
        if (torn && sink.sizeNow() == 0) {
            torn = false;
        }
        String line = (torn ? System.lineSeparator() : "") + "spool: discarded " + total + " events at " + Severity.name(discardThreshold) + " and below ("
                + detail + ") since " + Instant.ofEpochMilli(sinceMillis) + System.lineSeparator();
        ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        ByteBuffer[] one = {bytes};
        try {
            while (bytes.hasRemaining()) {
                if (pastDeadline()) {
                    // the stop deadline outranks the summary; the counters keep the figures
                    torn |= bytes.position() > 0;
                    return;
                }
                counters.writeCall();
                if (recordEnds) {
                    sink.recordEnds(null, 0, -1, 0); // one line, between two batches
                }
                long n;
                inSinkWrite = true;
                try {
                    n = sink.write(one, 0, 1);
                } finally {
                    inSinkWrite = false;
                }
                if (n == 0) {
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
                } else {
                    counters.written(0, n);
                }
            }
            torn = false;
            counters.summaryLine();
        } catch (Throwable e) {
            if (bytes.position() > 0) {
                torn = bytes.get(bytes.position() - 1) != '\n';
            }
            counters.writeError();
        }
    }

    private void reportStall() {
        long n = ring.stallRecoveries();
        if (n != reportedStallRecoveries) {
            reportedStallRecoveries = n;
            StallRecoveryEvent event = new StallRecoveryEvent();
            if (event.shouldCommit()) {
                event.appender = name;
                event.recoveries = n;
                event.stuck = ring.lastStallRecovery();
                event.lostSoFar = ring.lostRecords();
                event.commit();
            }
            report(StatusListener.Level.ERROR, "a logging call failed half-way through appending (or stalled past "
                    + "the bound: " + ring.lastStallRecovery() + "); the writer recovered, " + ring.lostRecords()
                    + " records lost so far", null);
        }
    }

    /** Status messages never throw into the writer: a listener that fails is ignored. */
    private void report(StatusListener.Level level, String message, Throwable cause) {
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
        if (!inSinkWrite) {
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
