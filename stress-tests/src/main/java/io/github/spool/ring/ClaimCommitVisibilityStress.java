package io.github.spool.ring;

import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.nio.ByteBuffer;

/**
 * Claim/commit visibility: the writer either sees no record, or the whole record — never a
 * counted record whose bytes are not all there (the commit's release / the writer's acquire).
 */
@JCStressTest
@Description("A record the writer collects is complete")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "Writer looked before the commit: nothing collected yet")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "Writer collected the whole record")
@Outcome(expect = Expect.FORBIDDEN, desc = "Torn record: counted but bytes missing or wrong")
@State
public class ClaimCommitVisibilityStress {
    static final int LEN = 64;
    final ManyToOneCellRing ring = RingStress.smallRing(OverflowPolicy.BLOCK);
    final byte[] record = RingStress.record('R', LEN);

    @Actor
    public void producer() {
        ring.append(record, 0, LEN, Severity.INFO);
    }

    @Actor
    public void writer(II_Result r) {
        Batch batch = new Batch();
        ring.collect(batch);
        long records = 0;
        boolean intact = true;
        for (int i = 0; i < batch.count(); i++) {
            records += batch.records(i);
            ByteBuffer b = batch.segments()[i];
            intact &= b.remaining() == LEN;
            while (b.hasRemaining()) {
                intact &= b.get() == 'R';
            }
        }
        r.r1 = (int) records;
        r.r2 = intact ? 1 : 0;
    }
}
