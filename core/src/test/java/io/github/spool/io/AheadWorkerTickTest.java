package io.github.spool.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The ahead thread's timed wake-up: 1 ms past the middle of each second, the render's start. */
class AheadWorkerTickTest {

    @Test
    void wakesJustPastTheMiddleOfEachSecond() {
        assertEquals(TimeUnit.MILLISECONDS.toNanos(501), AheadWorker.nanosToNextTick(1_000_000L));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1), AheadWorker.nanosToNextTick(1_000_500L));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1000), AheadWorker.nanosToNextTick(1_000_501L));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(502), AheadWorker.nanosToNextTick(999_999L));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(501), AheadWorker.nanosToNextTick(-1_000L), "before the epoch");
    }
}
