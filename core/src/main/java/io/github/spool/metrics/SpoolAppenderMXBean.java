package io.github.spool.metrics;

import java.util.Map;

/**
 * JMX view of one Spool appender, registered as
 * {@code io.github.spool:type=Appender,context=<logging context>,name=<appender name>}.
 * Every count is since the appender started. At any moment
 * {@code accepted = EventsWritten + EventsLost + events still in the buffer}, and after a stop the
 * last term is zero; {@code EventsDiscarded} counts what was never accepted.
 */
public interface SpoolAppenderMXBean {

    /** @return the appender's name */
    String getName();

    /** @return where it writes: {@code stdout}, {@code stderr} or a file path */
    String getTarget();

    /** @return events written to the sink */
    long getEventsWritten();

    /** @return bytes written to the sink, discard summary lines included */
    long getBytesWritten();

    /** @return events dropped at the buffer cap under the DISCARD policy, all levels */
    long getEventsDiscarded();

    /** @return events dropped at the cap, per level name (TRACE … FATAL) */
    Map<String, Long> getEventsDiscardedByLevel();

    /**
     * @return accepted events not written: lost to a failing sink (ENOSPC, EPIPE, ...), given up
     *         with a cell whose producer failed half-way, or left in the ring when stop's
     *         deadline passed
     */
    long getEventsLost();

    /**
     * @return logging calls that threw while copying their event into the ring (for example a
     *         {@link StackOverflowError} in a deep call stack); never accepted, skipped by the writer
     */
    long getFailedCopies();

    /**
     * @return events refused because the appender was stopping or its writer thread had failed
     *         (the caller got {@code CLOSED}; never accepted)
     */
    long getEventsRefused();

    /** @return times the writer recovered from a producer that failed half-way through the ring's protocol */
    long getStallRecoveries();

    /** @return bytes of {@link #getEventsLost()} */
    long getBytesLost();

    /** @return failed write calls */
    long getWriteErrors();

    /** @return write calls made to the sink (each one {@code write(2)} or {@code writev(2)}) */
    long getWriteCalls();

    /** @return bytes of buffer currently allocated (cells in use and pooled) */
    long getBufferBytesInUse();

    /** @return the most buffer bytes allocated at once */
    long getBufferBytesHighWater();

    /** @return the configured cap, {@code maxBufferSize} */
    long getBufferBytesMax();

    /** @return number of cells currently allocated */
    long getCells();

    /** @return how far the cached clock lags {@code System.currentTimeMillis()}, in ms */
    long getClockStalenessMillis();

    /**
     * Closes and reopens the appender's file before its next write, for log rotation tools that
     * move the file and then signal the application (as sonic-boom's {@code reopen()}). The writer
     * also notices a moved or deleted file by itself within a second. Does nothing for stdout and
     * stderr.
     */
    void reopen();
}
