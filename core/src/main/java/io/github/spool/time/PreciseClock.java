package io.github.spool.time;

import java.time.Instant;

/**
 * The precise wall-clock instant, for patterns that print micro- or nanoseconds
 * ({@link TimestampFormat#needsSubMillis()}), where a cached millisecond clock is not enough.
 * {@link Instant#now()} reads the OS clock with the best precision the JDK offers (microseconds on
 * Linux with JDK 17); once inlined, escape analysis usually removes the {@code Instant}. Static,
 * thread-safe.
 */
public final class PreciseClock {

    private PreciseClock() {
    }

    /**
     * Now, in nanoseconds since the epoch (a long holds them until the year 2262).
     *
     * @return epoch nanoseconds
     */
    public static long currentEpochNanos() {
        final Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /**
     * The seconds part of an epoch-nanosecond value, for
     * {@link TimestampFormat#format(long, int, byte[], int)}.
     *
     * @param epochNanos nanoseconds since the epoch
     * @return seconds since the epoch (floor)
     */
    public static long epochSecond(long epochNanos) {
        return Math.floorDiv(epochNanos, 1_000_000_000L);
    }

    /**
     * The nanosecond-of-second part of an epoch-nanosecond value.
     *
     * @param epochNanos nanoseconds since the epoch
     * @return 0 to 999,999,999
     */
    public static int nanoOfSecond(long epochNanos) {
        return (int) Math.floorMod(epochNanos, 1_000_000_000L);
    }
}
