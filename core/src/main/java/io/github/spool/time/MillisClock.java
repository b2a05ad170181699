package io.github.spool.time;

/**
 * A source of wall-clock milliseconds since the epoch (1970-01-01T00:00:00Z). Two implementations:
 * {@link CachedClock} for production, {@link ManualClock} for tests.
 */
public interface MillisClock {

    /**
     * Returns the current time.
     *
     * @return milliseconds since the epoch, as {@link System#currentTimeMillis()} counts them
     */
    long currentTimeMillis();
}
