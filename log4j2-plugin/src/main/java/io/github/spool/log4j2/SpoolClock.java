package io.github.spool.log4j2;

import io.github.spool.time.MillisClock;
import io.github.spool.time.SharedClock;
import org.apache.logging.log4j.core.util.Clock;

/**
 * A log4j2 {@link Clock} over Spool's clock ({@link SharedClock}): the cached clock (one daemon
 * thread per JVM refreshes a cached {@code currentTimeMillis} every millisecond) where reading
 * the system clock is a system call, the system clock itself where it is not (the refresher's
 * wake-ups cost more than they save there), or either one forced by {@code -Dspool.clock}.
 * Select it with {@code -Dlog4j.Clock=io.github.spool.log4j2.SpoolClock} or
 * {@code -Dlog4j2.clock=...}; log4j2's {@code ClockFactory} instantiates it through the public
 * no-arg constructor.
 *
 * <p>Millisecond precision, on purpose: this class does not implement log4j2's {@code
 * PreciseClock}, so log4j2 stores event instants with a zero sub-millisecond part
 * ({@code MutableInstant.initFrom(Clock)}) and patterns such as {@code %d{HH:mm:ss.SSSSSS}} print
 * {@code 000} for the microseconds. A cached clock has nothing finer to offer; keep log4j2's default
 * {@code SystemClock} if you need sub-millisecond timestamps.
 */
public final class SpoolClock implements Clock {

    private final MillisClock clock;

    /** Binds to the JVM-wide clock, starting the cached clock's refresher if it is the one chosen. */
    public SpoolClock() {
        this.clock = SharedClock.get();
    }

    /**
     * Returns the time: the system clock's, or the cached clock's, at most about one refresh period
     * behind it.
     *
     * @return milliseconds since the epoch
     */
    @Override
    public long currentTimeMillis() {
        return clock.currentTimeMillis();
    }
}
