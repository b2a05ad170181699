package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.logging.log4j.core.time.PreciseClock;
import org.apache.logging.log4j.core.util.Clock;
import org.apache.logging.log4j.core.util.ClockFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** log4j2's ClockFactory picks SpoolClock up by either property spelling. */
class SpoolClockTest {

    @ParameterizedTest
    @ValueSource(strings = {"log4j.Clock", "log4j2.clock"})
    void clockFactoryInstantiatesSpoolClock(String property) {
        String old = System.getProperty(property);
        System.setProperty(property, SpoolClock.class.getName());
        try {
            Clock clock = ClockFactory.getClock();
            assertInstanceOf(SpoolClock.class, clock);
        } finally {
            if (old == null) {
                System.clearProperty(property);
            } else {
                System.setProperty(property, old);
            }
        }
    }

    @Test
    void tracksTheSystemClockAndIsMillisecondPrecision() {
        SpoolClock clock = new SpoolClock();
        long before = System.currentTimeMillis();
        long t = clock.currentTimeMillis();
        long after = System.currentTimeMillis();
        // The cache lags by about one refresh period; a second is far beyond any sane lag.
        assertTrue(t >= before - 1000 && t <= after + 1000, before + " <= " + t + " <= " + after);
        assertTrue(!PreciseClock.class.isAssignableFrom(SpoolClock.class), "documented as millisecond precision");
    }
}
