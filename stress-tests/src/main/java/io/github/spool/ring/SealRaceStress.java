package io.github.spool.ring;

import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Seal racing with claims: a cell has room for one of two racing records. One fits, the other
 * crosses the end, seals the cell at the right limit and installs the next cell. Both must come
 * out exactly once, whole, after the prefix, in either order.
 */
@JCStressTest
@Description("Two claims race for the end of a cell")
@Outcome(id = "1", expect = Expect.ACCEPTABLE, desc = "A then B")
@Outcome(id = "2", expect = Expect.ACCEPTABLE, desc = "B then A")
@Outcome(expect = Expect.FORBIDDEN, desc = "A record lost, duplicated or torn, or the seal limit wrong")
@State
public class SealRaceStress {
    static final int PREFIX = RingStress.CELL - 100;
    static final int A = 80;
    static final int B = 70;
    final ManyToOneCellRing ring = RingStress.smallRing(OverflowPolicy.BLOCK);
    final byte[] a = RingStress.record('A', A);
    final byte[] b = RingStress.record('B', B);

    public SealRaceStress() {
        byte[] prefix = RingStress.record('P', PREFIX);
        ring.append(prefix, 0, PREFIX, Severity.INFO);
    }

    @Actor
    public void producerA() {
        ring.append(a, 0, A, Severity.INFO);
    }

    @Actor
    public void producerB() {
        ring.append(b, 0, B, Severity.INFO);
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = RingStress.orderOf(RingStress.drain(ring), PREFIX, 'A', A, 'B', B);
    }
}
