package io.github.spool.bench.e2e;

import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * One load phase's schedule and latencies, as wrk2 measures them: request {@code n} is due at
 * {@code start + n / rate} whether or not the server has answered the ones before it, and its latency
 * runs from that <em>intended</em> send time to its response. A server that stalls for 100 ms thus
 * shows 100 ms, 99 ms, 98 ms... for every request that fell due during the stall, rather than one slow
 * request followed by fast ones (coordinated omission: a sender that waits for the server stops
 * scheduling the very requests that would have been slow).
 *
 * <p>A rate of 0 is a closed loop: each request is due when it is sent (the maximum requests/s).
 * Threads: {@link #intendedNanos} and {@link #start} on the sender; {@link #completed} on the one
 * thread that reads responses; the results after the sender has seen every response come back
 * (the hand-over of the connections orders the reader's writes before those reads).
 */
public final class OpenLoopRecorder {

    /** Longest latency recorded without clipping: a minute, far beyond any window. */
    private static final long HIGHEST_NANOS = 60_000_000_000L;

    private final LongSupplier clock;
    private final double intervalNanos;
    private final Histogram latency = new Histogram(HIGHEST_NANOS, 3);
    private long start;
    private long lastCompletion;

    /**
     * @param clock the time in nanoseconds ({@code System::nanoTime}, or a fake one in tests)
     * @param rate  requests per second, or 0 for a closed loop
     */
    public OpenLoopRecorder(LongSupplier clock, double rate) {
        this.clock = clock;
        this.intervalNanos = rate > 0 ? 1e9 / rate : 0;
    }

    /**
     * Starts the schedule now.
     *
     * @return the start time, nanoseconds
     */
    public long start() {
        start = clock.getAsLong();
        lastCompletion = start;
        return start;
    }

    /** @return whether requests are due on a schedule (open loop) rather than when sent */
    public boolean openLoop() {
        return intervalNanos > 0;
    }

    /**
     * @param n the request's number in this phase, 0, 1, 2, ...
     * @return when it is due: on the schedule in an open loop, now in a closed one
     */
    public long intendedNanos(long n) {
        return openLoop() ? start + (long) (n * intervalNanos) : clock.getAsLong();
    }

    /**
     * Records one response received now.
     *
     * @param intendedNanos when its request was due ({@link #intendedNanos})
     */
    public void completed(long intendedNanos) {
        long now = clock.getAsLong();
        latency.recordValue(Math.min(HIGHEST_NANOS, Math.max(0, now - intendedNanos)));
        lastCompletion = Math.max(lastCompletion, now);
    }

    /** @return the latencies recorded, nanoseconds */
    public Histogram latency() {
        return latency;
    }

    /** @return responses per second from the start to the last response */
    public double achievedPerSecond() {
        long elapsed = lastCompletion - start;
        return elapsed <= 0 ? 0 : latency.getTotalCount() * 1e9 / elapsed;
    }
}
