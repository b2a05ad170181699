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

import java.io.ByteArrayOutputStream;

/**
 * A producer claims and dies before committing, while another producer appends and the writer
 * gives the stuck cell up (the stall recovery, forced here by a clock far past the bound). Each
 * accepted record must be counted exactly once: written whole, or lost — by the writer when its
 * commit came before the DEAD mark, by its own producer when after.
 */
@JCStressTest
@Description("Giving up a cell with a dead claim counts every accepted record exactly once")
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "B committed in time and written before the give-up")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "B accepted, then counted lost (by the writer or by itself)")
@Outcome(expect = Expect.FORBIDDEN, desc = "B counted twice, not at all, torn, or the dead claim's bytes written")
@State
public class DeadClaimStress {
    static final int B = 32;
    final ManyToOneCellRing ring = new ManyToOneCellRing(2L * RingStress.CELL, 2L * RingStress.CELL,
            OverflowPolicy.BLOCK, Severity.INFO, 1);
    final ByteArrayOutputStream collected = new ByteArrayOutputStream();
    AppendResult result;

    public DeadClaimStress() {
        ring.currentCell().gaaClaim(16); // the dead producer's claim, never committed
    }

    @Actor
    public void producer() {
        result = ring.append(RingStress.record('B', B), 0, B, Severity.INFO);
    }

    long clock;

    /** Writer passes with a clock that passes the stall bound at every step. */
    void passes(int n) {
        Batch batch = new Batch();
        for (int pass = 0; pass < n; pass++) {
            ring.collect(batch);
            RingStress.copyOut(batch, collected);
            ring.release(batch);
            ring.recoverStall(clock += 1L << 40);
        }
    }

    @Actor
    public void writer() {
        passes(ManyToOneCellRing.STALL_MIN_PASSES + 2);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        passes(2 * ManyToOneCellRing.STALL_MIN_PASSES + 4); // finish the recovery if the race left it half-way
        byte[] rest = RingStress.drain(ring);
        collected.write(rest, 0, rest.length);
        byte[] out = collected.toByteArray();
        boolean written = out.length == B && RingStress.run(out, 0, 'B', B);
        r.r1 = result == AppendResult.ACCEPTED ? 1 : 0;
        r.r2 = written ? 1 : out.length == 0 ? 0 : 9;
        r.r3 = (int) ring.lostRecords();
    }
}
