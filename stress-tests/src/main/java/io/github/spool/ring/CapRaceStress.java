package io.github.spool.ring;

import io.github.spool.AppendResult;
import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Growth at the cap: the ring is at its byte cap with one free cell; two producers that each need
 * a cell race for it under DISCARD. Exactly one wins the cell; the other is discarded (counted);
 * the cap is never exceeded.
 */
@JCStressTest
@Description("Two producers race for the last cell under the cap")
@Outcome(id = {"1, 2, 1", "2, 1, 1"}, expect = Expect.ACCEPTABLE, desc = "One accepted, one discarded, cap held")
@Outcome(id = "1, 1, .*", expect = Expect.FORBIDDEN, desc = "Both accepted: the cap was exceeded")
@Outcome(id = "2, 2, .*", expect = Expect.FORBIDDEN, desc = "Both discarded although a cell was free")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else (cap exceeded, discard not counted)")
@State
public class CapRaceStress {
    static final int PREFIX = RingStress.CELL - 100;
    static final int BIG = 3_000;
    final ManyToOneCellRing ring = RingStress.smallRing(OverflowPolicy.DISCARD);
    final byte[] big = RingStress.record('X', BIG);

    public CapRaceStress() {
        byte[] prefix = RingStress.record('P', PREFIX);
        ring.append(prefix, 0, PREFIX, Severity.INFO);
    }

    private static int code(AppendResult r) {
        return r == AppendResult.ACCEPTED ? 1 : r == AppendResult.DISCARDED ? 2 : 3;
    }

    @Actor
    public void producer1(III_Result r) {
        r.r1 = code(ring.append(big, 0, BIG, Severity.INFO));
    }

    @Actor
    public void producer2(III_Result r) {
        r.r2 = code(ring.append(big, 0, BIG, Severity.INFO));
    }

    @Arbiter
    public void arbiter(III_Result r) {
        boolean capHeld = ring.highWaterBytes() <= 2L * RingStress.CELL;
        boolean counted = ring.discarded(Severity.INFO) == (r.r1 == 2 ? 1 : 0) + (r.r2 == 2 ? 1 : 0);
        r.r3 = capHeld && counted ? 1 : 0;
    }
}
