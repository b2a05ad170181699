package io.github.spool.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link PreciseClock}: agrees with the system clock and splits nanos like floorDiv/floorMod. */
class PreciseClockTest {

    @Test
    void agreesWithTheSystemClock() {
        for (int i = 0; i < 1000; i++) {
            long before = System.currentTimeMillis();
            long nanos = PreciseClock.currentEpochNanos();
            long after = System.currentTimeMillis();
            long millis = Math.floorDiv(nanos, 1_000_000L);
            assertTrue(before <= millis && millis <= after, before + " <= " + millis + " <= " + after);
        }
    }

    @Test
    void splitsIntoSecondsAndNanos() {
        assertEquals(1, PreciseClock.epochSecond(1_999_999_999L));
        assertEquals(999_999_999, PreciseClock.nanoOfSecond(1_999_999_999L));
        assertEquals(-1, PreciseClock.epochSecond(-1));
        assertEquals(999_999_999, PreciseClock.nanoOfSecond(-1));
    }
}
