package io.github.spool;

import io.github.spool.io.ExitLane;
import io.github.spool.io.FramedText;
import io.github.spool.io.RingWriter;
import io.github.spool.io.Sink;
import io.github.spool.io.Sinks;
import io.github.spool.metrics.JmxRegistry;
import io.github.spool.metrics.SpoolAppenderStats;
import io.github.spool.metrics.WriterCounters;
import io.github.spool.ring.DirectMemory;
import io.github.spool.ring.ManyToOneCellRing;
import io.github.spool.time.SharedClock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.management.JMException;

/**
 * One asynchronous appender: the facade an adapter uses. {@link #start} opens the sink and starts
 * the writer thread; {@link #append} copies an encoded record into the lock-free ring and returns
 * at once (it waits only at the byte cap under {@link OverflowPolicy#BLOCK}); {@link #stop} drains
 * with a bounded wait. Thread-safe.
 *
 * <p>At JVM exit a shutdown hook puts every open appender in its exit mode ({@link ShutdownDrain}):
 * the ring drains, and records that come later (logged by other shutdown hooks, or by a framework
 * draining its own queue) are written before their call returns, by an {@link ExitLane}, until the
 * framework stops the appender. An appender unregisters (JMX, the hook) when its writer — or its
 * exit lane — really ends, whenever that is, not when a stop gives up waiting for it.
 */
public final class Spool implements AutoCloseable {

    /** Default bounded wait of {@link #close()}. */
    public static final long DEFAULT_STOP_TIMEOUT_MILLIS = 10_000;
    /**
     * System property: how long (ms) a claim may stay uncommitted or an install flag held before
     * the writer treats the producer as failed and recovers (docs/design.md); default 1000.
     */
    public static final String STALL_TIMEOUT_PROPERTY = "spool.stallTimeoutMillis";

    private final SpoolConfig config;
    private final ManyToOneCellRing ring;
    private final RingWriter writer;
    /**
     * Frames caller-rendered text when the sink must know where records end (a file rolling by
     * size: it rolls between events); {@code null} otherwise, and the text goes in as it is.
     */
    private final FramedText framed;
    private final WriterCounters counters = new WriterCounters();
    private final SpoolAppenderStats stats;
    private final Thread thread;
    /** Guards the fields below it; never held while waiting. */
    private final Object stopLock = new Object();
    private boolean stopBegun;
    private long stopDeadline;
    /** The writer has ended (its sink closed or handed to the lane): no lane may start after it. */
    private boolean writerEnded;
    private boolean unregistered;
    /**
     * The exit mode's lane, or {@code null}. Set under {@link #stopLock} before the ring closes for
     * the exit; a volatile store, so that a producer the closed ring refuses (its volatile load of
     * {@code closed} comes after) finds it.
     */
    private volatile ExitLane exitLane;

    private Spool(SpoolConfig config, Sink sink) {
        this.config = config;
        long stallMillis = Long.getLong(STALL_TIMEOUT_PROPERTY, TimeUnit.NANOSECONDS.toMillis(ManyToOneCellRing.DEFAULT_STALL_NANOS));
        this.ring = new ManyToOneCellRing(config.bufferSize(), config.maxBufferSize(), config.overflowPolicy(),
                config.discardThreshold(), TimeUnit.MILLISECONDS.toNanos(Math.max(1, stallMillis)));
        ring.name(config.name());
        this.framed = config.renderer() == null && sink.needsRecordEnds() ? new FramedText() : null;
        this.writer = new RingWriter(config.name(), ring, sink, counters, config.statusListener(), config.discardThreshold(),
                framed != null ? framed : config.renderer(), config.writerNapMicros());
        this.stats = new SpoolAppenderStats(config.name(), sink.describe(), ring, counters, clockStaleness(), sink::requestReopen);
        // A daemon nobody can interrupt, pinning nothing of its creator (WriterThread, SpoolThreads).
        this.thread = writer.newThread("spool-writer-" + config.name());
    }

    /**
     * Opens the sink the configuration names and starts the writer. A file that cannot be opened
     * does not stop the appender: it is reported (ERROR status) and its lines go to stderr until
     * the writer manages to open it ({@link Sinks}).
     *
     * @param config validated settings
     * @return the running appender
     * @throws IOException never since files fall back to stderr; declared for source compatibility
     */
    public static Spool start(SpoolConfig config) throws IOException {
        return start(config, Sinks.open(config));
    }

    /**
     * Starts an appender over a given sink (tests and special sinks; the sink is closed on stop).
     *
     * @param config validated settings; its target is only used in descriptions
     * @param sink   where the writer writes
     * @return the running appender
     */
    public static Spool start(SpoolConfig config, Sink sink) {
        Spool spool;
        try {
            // Room for the writer's staging buffer too, and so some left for the JDK's own
            // temporary buffers: a ring that took the last byte failed the next NIO read elsewhere.
            spool = DirectMemory.fits(config.bufferSize() + RingWriter.STAGING_BYTES) ? new Spool(config, sink) : null;
        } catch (OutOfMemoryError e) {
            spool = null; // the rest of the ring is the GC's: nothing refers to it
        }
        if (spool == null) {
            // Too little direct memory for the initial ring: start with the smallest one, which
            // grows under maxBufferSize as direct memory allows, rather than fail the logging call
            // that started us. Said once; an OutOfMemoryError here is the adapter's to report.
            SpoolConfig small = config.withBufferSize(SpoolConfig.MIN_BUFFER_SIZE);
            spool = new Spool(small, sink);
            config.statusListener().status(StatusListener.Level.WARN, "spool appender '" + config.name()
                    + "': not enough direct memory for a ring of " + config.bufferSize() + " bytes (-XX:MaxDirectMemorySize); "
                    + "started with " + small.bufferSize() + " bytes, growing up to " + config.maxBufferSize()
                    + " as direct memory allows", null);
        }
        spool.writer.atEnd(spool::writerEnded);
        // Registered before the writer runs: it unregisters when it ends, which may be at once.
        try {
            JmxRegistry.register(config.contextIdentity(), config.context(), config.name(), spool, spool.stats);
        } catch (JMException | RuntimeException | OutOfMemoryError e) {
            // The appender runs without an MBean rather than not at all.
            config.statusListener().status(StatusListener.Level.WARN,
                    "spool appender '" + config.name() + "': JMX registration failed", e);
        }
        if (!ShutdownDrain.register(spool)) {
            // Started while the JVM exits: no hook will drain it, so it writes synchronously from
            // the first record, and nothing it accepts waits for a writer the halt would cut off.
            spool.beginExit(ShutdownDrain.exitDeadlineNanos(), false);
        }
        spool.thread.start();
        return spool;
    }

    private static LongSupplier clockStaleness() {
        // Read on demand only (JMX): a cached clock's refresher sleeps again after a second without
        // readers; the system clock (SharedClock's choice on most hosts) is never stale.
        return SharedClock::stalenessMillis;
    }

    /** @return the appender's name */
    public String name() {
        return config.name();
    }

    /** @return the settings it was started with */
    public SpoolConfig config() {
        return config;
    }

    /**
     * Appends one encoded record (normally one line, its line separator included). Never throws
     * for flow control and never blocks on I/O.
     *
     * @param src      bytes
     * @param offset   first byte
     * @param length   number of bytes; {@code 0} is accepted and writes nothing
     * @param severity the record's {@link Severity}
     * @return what happened to the record
     */
    public AppendResult append(byte[] src, int offset, int length, int severity) {
        // One reference compare per call; only the writer thread itself goes further (RingWriter.dropsFeedback).
        if (Thread.currentThread() == thread && writer.dropsFeedback()) {
            return AppendResult.DISCARDED;
        }
        FramedText f = framed;
        AppendResult r = f == null ? ring.append(src, offset, length, severity) : f.append(ring, src, offset, length, severity);
        return r != AppendResult.CLOSED ? r : appendLate(src, offset, length);
    }

    /**
     * Appends the remaining bytes of {@code src} as one record; {@code src}'s position is unchanged.
     *
     * @param src      bytes between position and limit
     * @param severity the record's {@link Severity}
     * @return what happened to the record
     */
    public AppendResult append(ByteBuffer src, int severity) {
        if (Thread.currentThread() == thread && writer.dropsFeedback()) {
            return AppendResult.DISCARDED;
        }
        FramedText f = framed;
        AppendResult r = f == null ? ring.append(src, severity) : f.append(ring, src, severity);
        if (r != AppendResult.CLOSED || exitLane == null) {
            return r;
        }
        byte[] copy = new byte[src.remaining()];
        src.get(src.position(), copy);
        return appendLate(copy, 0, copy.length);
    }

    /**
     * Whether producers wait at the cap now (a hint, see {@link ManyToOneCellRing#producersWaiting()}).
     *
     * @return {@code true} if some producer waits for room
     */
    public boolean producersWaiting() {
        return ring.producersWaiting();
    }

    /**
     * Whether the caller is a virtual thread whose append will most likely park at the cap
     * ({@link ManyToOneCellRing#virtualCallerWouldPark()}): it then copies its record out of its
     * borrowed scratch and gives the scratch back before appending.
     *
     * @return {@code true} if a virtual caller should not park holding borrowed scratch
     */
    public boolean virtualCallerWouldPark() {
        return ring.virtualCallerWouldPark();
    }

    /** A record the closed ring refused: in exit mode the lane writes it now; otherwise refused. */
    private AppendResult appendLate(byte[] src, int offset, int length) {
        ExitLane lane = exitLane; // volatile load, after the ring's load of closed: see exitLane
        if (lane == null || length == 0 || Thread.currentThread() == thread) {
            return AppendResult.CLOSED; // the writer itself (a status routed back) must not wait for the lane
        }
        return lane.write(src, offset, length);
    }

    /**
     * The JVM exits (ShutdownDrain's hook): the ring closes and drains by {@code deadlineNanos},
     * and later records go through an {@link ExitLane}, unless the appender is stopping already or
     * its writer has ended.
     */
    void beginExit(long deadlineNanos, boolean hookWaits) {
        synchronized (stopLock) {
            if (!stopBegun && !writerEnded && exitLane == null) {
                exitLane = new ExitLane(config.name(), counters, config.statusListener(), deadlineNanos,
                        config.renderer(), hookWaits, this::unregister);
            }
        }
        beginStop(deadlineNanos);
    }

    /**
     * The hook's wait: until the ring has drained and then the exit lane has been quiet a moment
     * (other hooks' lines need not wait while the hook does) and what the lane took meanwhile is
     * out; or the exit deadline. Reports what the writer did not write (the lane says what it
     * gives up).
     */
    void awaitExitDrain(long deadlineNanos) {
        long nanos = Math.max(0, deadlineNanos - System.nanoTime());
        boolean outcome = awaitOutcome(nanos);
        report(outcome, true, nanos, null);
        ExitLane lane = exitLane;
        if (lane != null) {
            lane.awaitQuiet(deadlineNanos);
        }
    }

    /** Begins the stop, or brings its deadline forward (the exit's deadline outranks a stop's). */
    private void beginStop(long deadlineNanos) {
        synchronized (stopLock) {
            if (!stopBegun || deadlineNanos - stopDeadline < 0) {
                stopBegun = true;
                stopDeadline = deadlineNanos;
                writer.requestStop(deadlineNanos);
            }
        }
    }

    /** Runs on the writer thread when it ends: hands the sink to the exit lane, or closes it and unregisters. */
    private void writerEnded(Sink sink) {
        ExitLane lane;
        synchronized (stopLock) {
            writerEnded = true;
            lane = exitLane;
        }
        if (lane != null) {
            lane.takeOver(sink, writer.drained()); // the lane closes it and unregisters when it ends
            return;
        }
        writer.closeSink();
        unregister();
    }

    /** Leaves the shutdown hook and JMX; once, from whichever thread ends last (writer or lane). */
    private void unregister() {
        synchronized (stopLock) {
            if (unregistered) {
                return;
            }
            unregistered = true;
        }
        ShutdownDrain.unregister(this);
        try {
            JmxRegistry.unregister(config.context(), config.name(), this);
        } catch (JMException | RuntimeException e) {
            config.statusListener().status(StatusListener.Level.WARN,
                    "spool appender '" + config.name() + "': JMX unregistration failed", e);
        }
    }

    /**
     * Stops taking records and drains what the ring holds, waiting at most {@code timeout} — or
     * less, to the exit's one deadline, while the JVM exits. Idempotent; concurrent callers all
     * wait for the same drain. An interrupted caller waits all the same, as a framework's file
     * appender closes its file at stop, and keeps its interrupt flag.
     * After an exit drain, ends the exit mode: records queued in the lane are still written, later
     * ones refused.
     *
     * @param timeout longest wait
     * @param unit    its unit
     * @return {@code true} if everything accepted was written (records lost to a sink fault are
     *         counted, not waited for); {@code false} if the drain did not finish in time, gave up
     *         at the deadline or failed — what the writer did not write is then counted as lost
     */
    public boolean stop(long timeout, TimeUnit unit) {
        long nanos = ShutdownDrain.boundByExit(unit.toNanos(timeout));
        long begin = System.nanoTime();
        beginStop(begin + nanos);
        ExitLane lane = exitLane;
        if (lane != null) {
            lane.close();
        }
        boolean outcome = awaitOutcome(nanos);
        boolean ended = outcome
                && awaitUninterruptibly(n -> writer.awaitTermination(n, TimeUnit.NANOSECONDS), nanos - (System.nanoTime() - begin))
                && (lane == null || awaitUninterruptibly(n -> lane.awaitEnd(n, TimeUnit.NANOSECONDS),
                        nanos - (System.nanoTime() - begin)));
        return report(outcome, ended, nanos, lane);
    }

    /** Waits for the writer's outcome, interrupted or not (see {@link #awaitUninterruptibly}). */
    private boolean awaitOutcome(long nanos) {
        return awaitUninterruptibly(n -> writer.awaitOutcome(n, TimeUnit.NANOSECONDS), nanos);
    }

    /** A bounded wait that may be interrupted. */
    @FunctionalInterface
    private interface Wait {
        boolean await(long nanos) throws InterruptedException;
    }

    /**
     * Waits up to {@code nanos} even if the caller is interrupted, and keeps its interrupt flag: a
     * framework's own file appender flushes and closes at stop whatever the stopping thread's
     * state, and logback's {@code AsyncAppender} interrupts its worker before that worker stops
     * the appenders behind it — an interruptible wait would return before their lines are out.
     */
    private static boolean awaitUninterruptibly(Wait wait, long nanos) {
        long deadline = System.nanoTime() + Math.max(0, nanos);
        boolean interrupted = Thread.interrupted();
        try {
            for (;;) {
                try {
                    return wait.await(Math.max(0, deadline - System.nanoTime()));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Says what a stop or an exit drain achieved, truthfully; returns whether nothing accepted was lost. */
    private boolean report(boolean outcome, boolean ended, long nanos, ExitLane lane) {
        String prefix = "spool appender '" + config.name() + "': ";
        if (!outcome) {
            warn(prefix + "not drained within " + TimeUnit.NANOSECONDS.toMillis(nanos) + " ms (sink stalled?); "
                    + "records it has not written when it gives up at the deadline are counted as lost");
            return false;
        }
        if (!writer.drained()) {
            warn(prefix + (writer.failed() ? "its writer thread had failed" : "the writer gave up at the stop deadline")
                    + "; " + stats.getEventsLost() + " records lost in all");
            return false;
        }
        if (lane != null && lane.gaveUp()) {
            // Said already, by whoever gave up; the lane may still be counting them (so not
            // "every record is written" below, even while it is still ending).
            return false;
        }
        if (lane != null && ended && lane.lost() > 0) {
            warn(prefix + lane.lost() + " records logged during the JVM's exit were lost (counted)");
            return false;
        }
        if (!ended) {
            config.statusListener().status(StatusListener.Level.INFO, prefix + "every record is written; closing "
                    + stats.getTarget() + " is still under way (an archive being compressed?), and the appender "
                    + "unregisters when it ends", null);
        }
        return true;
    }

    /**
     * A warning about lost records. While the JVM exits it also goes to standard error when the
     * framework would not show it (logback keeps status messages to itself unless configured to
     * print them): the last chance to learn that lines were lost.
     */
    private void warn(String message) {
        StatusListener listener = config.statusListener();
        listener.status(StatusListener.Level.WARN, message, null);
        if (ShutdownDrain.exitNoticed() && !listener.shows(StatusListener.Level.WARN)) {
            StatusListener.STDERR.status(StatusListener.Level.WARN, message, null);
        }
    }

    /**
     * Waits until the appender has really ended — its writer, and its exit lane if it had one —
     * and has unregistered; for tests.
     */
    boolean awaitEndForTest(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        if (!writer.awaitTermination(timeout, unit)) {
            return false;
        }
        ExitLane lane = exitLane;
        return lane == null || lane.awaitEnd(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** @return {@code true} once {@link #stop} has begun */
    public boolean isStopped() {
        return ring.isClosed();
    }

    /** @return this appender's counters and buffer figures (also registered with JMX) */
    public SpoolAppenderStats stats() {
        return stats;
    }

    /** Same as {@link #stop} with {@link #DEFAULT_STOP_TIMEOUT_MILLIS}. */
    @Override
    public void close() {
        stop(DEFAULT_STOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }
}
