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
import org.openjdk.jcstress.infra.results.II_Result;

import java.io.ByteArrayOutputStream;

/**
 * A small record, then an oversized one that takes the dedicated-cell path (allocated outside the
 * install flag, then installed), while the writer collects, recycles and frees the written
 * dedicated cell. Both must come out whole, once each, in order, and the cap accounting must
 * return to the standard cells. (Two actors: jcstress runs no more actors than CPUs.)
 */
@JCStressTest
@Description("The dedicated-cell path racing a normal record and the writer")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "Both whole, once each, in order; the dedicated cell no longer counted")
@Outcome(expect = Expect.FORBIDDEN, desc = "Lost, duplicated or torn, or the dedicated cell still counted")
@State
public class DedicatedCellStress {
    static final int BIG = RingStress.CELL * 2; // larger than any standard cell
    static final int SMALL = 40;
    final ManyToOneCellRing ring = new ManyToOneCellRing(2L * RingStress.CELL, 8L * RingStress.CELL,
            OverflowPolicy.BLOCK, Severity.INFO);
    final ByteArrayOutputStream collected = new ByteArrayOutputStream();

    @Actor
    public void producer() {
        ring.append(RingStress.record('S', SMALL), 0, SMALL, Severity.INFO);
        ring.append(RingStress.record('O', BIG), 0, BIG, Severity.INFO);
    }

    @Actor
    public void writer() {
        Batch batch = new Batch();
        for (int i = 0; i < 3; i++) {
            ring.collect(batch);
            RingStress.copyOut(batch, collected);
            ring.release(batch);
        }
    }

    @Arbiter
    public void arbiter(II_Result r) {
        byte[] rest = RingStress.drain(ring);
        collected.write(rest, 0, rest.length);
        r.r1 = RingStress.orderOf(collected.toByteArray(), 0, 'O', BIG, 'S', SMALL);
        // Written dedicated cells are freed; the standard cells stay (no trim here).
        r.r2 = ring.allocatedBytes() <= 2L * RingStress.CELL + (long) RingStress.CELL ? 1 : 0;
    }
}
