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

import java.io.ByteArrayOutputStream;

/**
 * Cell recycling: a producer fills cell X exactly (record A) and then seals it by installing Y
 * for record B, while the writer collects and recycles concurrently. X must not return to the
 * pool while A is still being copied into it. The arbiter then forces X's reuse (record C
 * overflows Y into the recycled X): if X had been recycled early, A or C would be lost or torn.
 */
@JCStressTest
@Description("The writer recycles a cell only after every claim in it is committed")
@Outcome(id = "1", expect = Expect.ACCEPTABLE, desc = "Prefix, A, B, C: all exactly once and whole")
@Outcome(expect = Expect.FORBIDDEN, desc = "A cell was reused too early: bytes lost, duplicated or torn")
@State
public class RecycleRaceStress {
    static final int A = 80;
    static final int PREFIX = RingStress.CELL - A;
    static final int B = 40;
    static final int C = RingStress.CELL - B + 10; // does not fit beside B in Y: goes to recycled X
    final ManyToOneCellRing ring = RingStress.smallRing(OverflowPolicy.BLOCK);
    final ByteArrayOutputStream collected = new ByteArrayOutputStream();

    public RecycleRaceStress() {
        byte[] prefix = RingStress.record('P', PREFIX);
        ring.append(prefix, 0, PREFIX, Severity.INFO);
    }

    @Actor
    public void producer() {
        ring.append(RingStress.record('A', A), 0, A, Severity.INFO); // fills X exactly
        ring.append(RingStress.record('B', B), 0, B, Severity.INFO); // crosses X: installs Y
    }

    @Actor
    public void writer() {
        Batch batch = new Batch();
        for (int i = 0; i < 4; i++) {
            ring.collect(batch);
            RingStress.copyOut(batch, collected);
            ring.release(batch);
        }
    }

    @Arbiter
    public void arbiter(I_Result r) {
        byte[] rest = RingStress.drain(ring);
        collected.write(rest, 0, rest.length);
        ring.append(RingStress.record('C', C), 0, C, Severity.INFO);
        rest = RingStress.drain(ring);
        collected.write(rest, 0, rest.length);
        byte[] out = collected.toByteArray();
        boolean ok = out.length == PREFIX + A + B + C
                && RingStress.run(out, 0, 'P', PREFIX)
                && RingStress.run(out, PREFIX, 'A', A)
                && RingStress.run(out, PREFIX + A, 'B', B)
                && RingStress.run(out, PREFIX + A + B, 'C', C);
        r.r1 = ok ? 1 : 0;
    }
}
