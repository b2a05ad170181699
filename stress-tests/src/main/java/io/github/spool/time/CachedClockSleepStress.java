package io.github.spool.time;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The cached clock's idle stop racing a reader: at the end of a window whose probe is still armed,
 * the refresher publishes {@code SLEEPING} ({@code trySleep}, after resetting the wake flag)
 * unless the reader acknowledged the probe first; a reader that sees {@code SLEEPING} returns the
 * system clock (never the stale cached value) and sets the wake flag, which the refresher parks on.
 *
 * <p>r1: 1 if the refresher went to sleep. r2: what the reader returned: 0 = the cached value T,
 * 1 = the system clock (it saw {@code SLEEPING}), -1 = anything else. r3: the wake flag at the end
 * (1 = set: the reader asked the refresher to wake, or the refresher never reset it).
 */
@JCStressTest
@Description("Cached clock idle stop: a reader that sees SLEEPING reads the system clock and always leaves a wake request")
@Outcome(id = "0, 0, [01]", expect = Expect.ACCEPTABLE, desc = "The reader acknowledged the probe first: the refresher stays awake")
@Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "The reader read the cached value just before the refresher slept (a read racing the window end may go uncounted)")
@Outcome(id = "1, 1, 1", expect = Expect.ACCEPTABLE, desc = "The reader saw SLEEPING, read the system clock and requested the wake")
@Outcome(id = "1, 1, 0", expect = Expect.FORBIDDEN, desc = "Lost wake-up: the reader saw SLEEPING but no wake is requested")
@Outcome(id = "1, 0, 1", expect = Expect.FORBIDDEN, desc = "A wake request without a reader that saw SLEEPING")
@Outcome(id = "0, 1, [01]", expect = Expect.FORBIDDEN, desc = "The reader saw SLEEPING that was never published")
@Outcome(expect = Expect.FORBIDDEN, desc = "The reader returned neither the cached value nor the system clock")
@State
public class CachedClockSleepStress {
    /** The cached value, far in the past, so the system clock is told apart from it. */
    static final long T = 1_000_000L;

    final CachedClock clock = CachedClock.withoutRefresherForStress(T);

    public CachedClockSleepStress() {
        clock.store(T, true); // a window starts: probe armed, nobody has read yet
    }

    @Actor
    public void refresher(III_Result r) {
        final long w = clock.lvWord();
        r.r1 = (w & 1) != 0 && clock.trySleep(w) ? 1 : 0;
    }

    @Actor
    public void reader(III_Result r) {
        r.r2 = classify(clock.currentTimeMillis());
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = clock.wakeRequested() ? 1 : 0;
    }

    static int classify(long millis) {
        if (millis == T) {
            return 0;
        }
        return millis > 1_600_000_000_000L ? 1 : -1;
    }
}
