package io.github.spool;

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
 * with a bounded wait. A JVM shutdown hook stops every appender still open. Thread-safe.
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
    private final WriterCounters counters = new WriterCounters();
    private final SpoolAppenderStats stats;
    private final Thread thread;
    private final Object stopLock = new Object();
    private boolean stopBegun;
    private boolean stopReported;

    private Spool(SpoolConfig config, Sink sink) {
        this.config = config;
        long stallMillis = Long.getLong(STALL_TIMEOUT_PROPERTY, TimeUnit.NANOSECONDS.toMillis(ManyToOneCellRing.DEFAULT_STALL_NANOS));
        this.ring = new ManyToOneCellRing(config.bufferSize(), config.maxBufferSize(), config.overflowPolicy(),
                config.discardThreshold(), TimeUnit.MILLISECONDS.toNanos(Math.max(1, stallMillis)));
        this.writer = new RingWriter(config.name(), ring, sink, counters, config.statusListener(), config.discardThreshold(),
                config.renderer(), config.writerNapMicros());
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
        spool.thread.start();
        ShutdownDrain.register(spool);
        try {
            JmxRegistry.register(config.contextIdentity(), config.context(), config.name(), spool, spool.stats);
        } catch (JMException | RuntimeException | OutOfMemoryError e) {
            // The appender runs already: without an MBean, not without its lines.
            config.statusListener().status(StatusListener.Level.WARN,
                    "spool appender '" + config.name() + "': JMX registration failed", e);
        }
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
        return ring.append(src, offset, length, severity);
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
        return ring.append(src, severity);
    }

    void beginStop(long deadlineNanos) {
        synchronized (stopLock) {
            if (!stopBegun) {
                stopBegun = true;
                writer.requestStop(deadlineNanos);
            }
        }
    }

    /**
     * Stops taking records and drains what the ring holds, waiting at most {@code timeout}.
     * Idempotent; concurrent callers all wait for the same drain. An interrupted caller stops
     * waiting and keeps its interrupt flag.
     *
     * @param timeout longest wait
     * @param unit    its unit
     * @return {@code true} if the writer drained everything accepted (records lost to a sink
     *         fault are counted, not waited for); {@code false} if it did not finish in time,
     *         gave up at the deadline or failed — what it did not write is then counted as lost
     */
    public boolean stop(long timeout, TimeUnit unit) {
        long nanos = unit.toNanos(timeout);
        beginStop(System.nanoTime() + nanos);
        boolean done;
        try {
            done = writer.awaitTermination(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done = writer.isTerminated();
        }
        synchronized (stopLock) {
            if (!stopReported && (done || !thread.isAlive())) {
                stopReported = true;
                ShutdownDrain.unregister(this);
                try {
                    JmxRegistry.unregister(config.context(), config.name(), this);
                } catch (JMException | RuntimeException e) {
                    config.statusListener().status(StatusListener.Level.WARN,
                            "spool appender '" + config.name() + "': JMX unregistration failed", e);
                }
            }
        }
        if (!done) {
            config.statusListener().status(StatusListener.Level.WARN, "spool appender '" + config.name()
                    + "': not drained within " + TimeUnit.NANOSECONDS.toMillis(nanos) + " ms (sink stalled?); "
                    + "records still buffered are counted as lost", null);
        } else if (!writer.drained()) {
            config.statusListener().status(StatusListener.Level.WARN, "spool appender '" + config.name() + "': "
                    + (writer.failed() ? "its writer thread had failed" : "the writer gave up at the stop deadline")
                    + "; " + stats.getEventsLost() + " records lost in all", null);
        }
        return done && writer.drained();
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
