package io.github.spool.time;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * The cached clock's publication, with the refresher's two kinds of store racing a reader's probe
 * acknowledgement: the refresher publishes T1 with the probe armed (start of a window, a CAS)
 * then T2 keeping the probe state (a release store, or a CAS while the probe is still set); the
 * reader reads twice, and each read that sees the probe clears it with a CAS.
 *
 * <p>r1, r2: the reader's two values as indexes 0, 1, 2 of T0 (the initial value), T1, T2; -1 for
 * any other value (a torn or corrupted word: T0..T2 differ in both 32-bit halves of the word).
 * r3: the final value's index (must be T2: an acknowledgement CAS never rolls back a newer
 * value). r4: the probe bit at the end (1 = armed and not yet acknowledged; both are legal).
 */
@JCStressTest
@Description("Cached clock: a reader sees published values only, never going backwards; its probe acknowledgement never undoes a refresh")
@Outcome(id = "0, 0, 2, 1", expect = Expect.ACCEPTABLE, desc = "Reader ran before both stores; the probe stays armed")
@Outcome(id = "0, 1, 2, [01]", expect = Expect.ACCEPTABLE, desc = "Second read saw T1 (armed) and acknowledged it, or its CAS lost to T2")
@Outcome(id = "0, 2, 2, [01]", expect = Expect.ACCEPTABLE, desc = "Second read saw T2 (probe kept or cleared)")
@Outcome(id = "1, 1, 2, [01]", expect = Expect.ACCEPTABLE, desc = "Both reads saw T1")
@Outcome(id = "1, 2, 2, [01]", expect = Expect.ACCEPTABLE, desc = "Reads saw T1 then T2")
@Outcome(id = "2, 2, 2, [01]", expect = Expect.ACCEPTABLE, desc = "Reader ran after both stores")
@Outcome(id = "[012], [012], [01], [01]", expect = Expect.FORBIDDEN, desc = "The final value is not T2: a probe acknowledgement undid a refresh")
@Outcome(id = "2, [01], .*", expect = Expect.FORBIDDEN, desc = "Time went backwards from T2")
@Outcome(id = "1, 0, .*", expect = Expect.FORBIDDEN, desc = "Time went backwards from T1")
@Outcome(expect = Expect.FORBIDDEN, desc = "A value never published (torn or corrupted word)")
@State
public class CachedClockPublicationStress {
    /** T0..T2: consecutive words differ in both 32-bit halves of {@code millis << 1 | probe}. */
    static final long T0 = 0x7FFF_FFFFL;
    static final long T1 = T0 + 1;
    static final long T2 = T1 + 0x1_0000_0001L;

    final CachedClock clock = CachedClock.withoutRefresherForStress(T0);

    @Actor
    public void refresher() {
        clock.store(T1, true);
        clock.store(T2, false);
    }

    @Actor
    public void reader(IIII_Result r) {
        r.r1 = index(clock.currentTimeMillis());
        r.r2 = index(clock.currentTimeMillis());
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        final long w = clock.lvWord();
        r.r3 = index(w >> 1);
        r.r4 = (int) (w & 1);
    }

    static int index(long millis) {
        if (millis == T0) {
            return 0;
        }
        if (millis == T1) {
            return 1;
        }
        return millis == T2 ? 2 : -1;
    }
}
