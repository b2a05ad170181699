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
 * A producer that fails after claiming (its copy threw) records a hole instead of committing, and
 * then appends record B behind it, while the writer collects. The writer counts aborted bytes
 * beside committed ones; it must never write the hole's bytes, never write a record before it is
 * complete, move B down over the hole, and skip the hole exactly once. (Two actors: jcstress runs
 * no more actors than there are CPUs, and this machine has two.)
 */
@JCStressTest
@Description("A claim whose copy failed is skipped: the writer writes only committed records")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "B whole and alone in the output, the hole skipped once")
@Outcome(expect = Expect.FORBIDDEN, desc = "Hole bytes written, B torn or missing, or the hole counted wrongly")
@State
public class AbortedCopyStress {
    static final int HOLE = 48;
    static final int B = 32;
    final ManyToOneCellRing ring = RingStress.smallRing(OverflowPolicy.BLOCK);
    final ByteArrayOutputStream collected = new ByteArrayOutputStream();

    @Actor
    public void failingProducer() {
        Cell c = ring.currentCell();
        long start = c.gaaClaim(HOLE) & Cell.BYTES_MASK;
        // What the ring's exception handler does (Cell, "recordHole"): no commit.
        synchronized (c) {
            int n = c.holeCount;
            c.holes[n] = start << 32 | HOLE;
            c.holeCount = n + 1;
            c.abortedBytes += HOLE;
        }
        ring.append(RingStress.record('B', B), 0, B, Severity.INFO);
    }

    @Actor
    public void writer() {
        Batch batch = new Batch();
        ring.collect(batch);
        RingStress.copyOut(batch, collected);
        ring.release(batch);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        byte[] rest = RingStress.drain(ring);
        collected.write(rest, 0, rest.length);
        byte[] out = collected.toByteArray();
        r.r1 = out.length == B && RingStress.run(out, 0, 'B', B) ? 1 : 0;
        r.r2 = ring.failedCopies() == 1 ? 1 : 0;
    }
}
