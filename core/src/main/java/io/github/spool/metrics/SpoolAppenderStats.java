package io.github.spool.metrics;

import io.github.spool.Severity;
import io.github.spool.ring.ManyToOneCellRing;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/** Reads one appender's ring and writer counters for JMX. Internal to Spool. */
public final class SpoolAppenderStats implements SpoolAppenderMXBean {
    private final String name;
    private final String target;
    private final ManyToOneCellRing ring;
    private final WriterCounters counters;
    private final LongSupplier clockStaleness;
    private final Runnable reopen;

    /**
     * @param name           appender name
     * @param target         sink description
     * @param ring           its ring
     * @param counters       its writer's counters
     * @param clockStaleness how stale the cached clock is, in ms
     * @param reopen         asks the sink to reopen its file
     */
    public SpoolAppenderStats(String name, String target, ManyToOneCellRing ring, WriterCounters counters,
                              LongSupplier clockStaleness, Runnable reopen) {
        this.reopen = reopen;
        this.name = name;
        this.target = target;
        this.ring = ring;
        this.counters = counters;
        this.clockStaleness = clockStaleness;
    }

    @Override
    public void reopen() {
        reopen.run();
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getTarget() {
        return target;
    }

    @Override
    public long getEventsWritten() {
        return counters.recordsWritten();
    }

    @Override
    public long getBytesWritten() {
        return counters.bytesWritten();
    }

    @Override
    public long getEventsDiscarded() {
        long n = 0;
        for (int s = 0; s < Severity.COUNT; s++) {
            n += ring.discarded(s);
        }
        return n;
    }

    @Override
    public Map<String, Long> getEventsDiscardedByLevel() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int s = 0; s < Severity.COUNT; s++) {
            m.put(Severity.name(s), ring.discarded(s));
        }
        return m;
    }

    /**
     * Not part of the MBean: one level of {@link #getEventsDiscardedByLevel()} without a map, for
     * the Micrometer binder.
     *
     * @param severity a {@link Severity}
     * @return events of that level dropped at the cap
     */
    public long eventsDiscarded(int severity) {
        return ring.discarded(severity);
    }

    @Override
    public long getEventsLost() {
        // Sink faults (the writer's count) plus records the ring gave up (a failed producer, a
        // writer that stopped at its deadline or failed): disjoint by construction.
        return counters.recordsLost() + ring.lostRecords();
    }

    @Override
    public long getBytesLost() {
        return counters.bytesLost() + ring.lostBytes();
    }

    @Override
    public long getFailedCopies() {
        return ring.failedCopies();
    }

    @Override
    public long getEventsRefused() {
        return ring.refused();
    }

    @Override
    public long getStallRecoveries() {
        return ring.stallRecoveries();
    }

    @Override
    public long getWriteErrors() {
        return counters.writeErrors();
    }

    @Override
    public long getWriteCalls() {
        return counters.writeCalls();
    }

    /**
     * Not part of the MBean: the Micrometer binder's write timer.
     *
     * @return batch writes to the sink that were timed (each one {@code write(2)} or
     *         {@code writev(2)}; discard summary lines and the exit lane's writes are not timed)
     */
    public long timedWrites() {
        return counters.timedWrites();
    }

    /**
     * Not part of the MBean: the Micrometer binder's write timer.
     *
     * @return the time the writes of {@link #timedWrites()} took in all, in ns
     */
    public long writeNanos() {
        return counters.writeNanos();
    }

    /**
     * Not part of the MBean: the Micrometer binder's producer wait timer.
     *
     * @return logging calls that parked at the cap (overflowPolicy BLOCK) and have since returned
     */
    public long producerWaits() {
        return ring.producerWaits();
    }

    /**
     * Not part of the MBean: the Micrometer binder's producer wait timer.
     *
     * @return the time the waits of {@link #producerWaits()} took in all, in ns
     */
    public long producerWaitNanos() {
        return ring.producerWaitNanos();
    }

    @Override
    public long getBufferBytesInUse() {
        return ring.allocatedBytes();
    }

    @Override
    public long getBufferBytesHighWater() {
        return ring.highWaterBytes();
    }

    @Override
    public long getBufferBytesMax() {
        return ring.maxBufferSize();
    }

    @Override
    public long getCells() {
        return ring.cellCount();
    }

    @Override
    public long getClockStalenessMillis() {
        return clockStaleness.getAsLong();
    }
}
