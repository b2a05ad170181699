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
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Stop racing an installer: the writer closes the ring and seals the current cell for good
 * (retrying while an installer holds the flag) while a producer's record crosses the cell's end
 * and installs a successor. The record is either refused (CLOSED) and absent, or accepted and
 * drained — and the writer's drain check must not finish before it.
 *
 * <p>The writer's loop is bounded in time (5 s, as ParkUnparkStress), not in iterations: with
 * 100,000 spins it sometimes gave up while the producer, descheduled on a 2-CPU machine, still
 * held the install flag, and the arbiter then saw an accepted record that was "not drained" — a
 * timed-out test, not a lost record (the real writer's stop loop runs to its deadline and then
 * counts what is left as lost). A writer that times out now reports so on its own outcome.
 */
@JCStressTest
@Description("sealForClose racing an installer: an accepted record is always drained")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "Accepted before the seal, drained")
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "Refused after the seal, absent")
@Outcome(id = {"0, 7", "1, 7"}, expect = Expect.FORBIDDEN, desc = "The writer did not drain within 5 s")
@Outcome(expect = Expect.FORBIDDEN, desc = "Accepted but not drained, or refused but written")
@State
public class CloseInstallRaceStress {
    static final int PREFIX = RingStress.CELL - 20;
    static final int A = 64; // does not fit beside the prefix: its producer installs the next cell
    final ManyToOneCellRing ring = RingStress.smallRing(OverflowPolicy.BLOCK);
    final java.io.ByteArrayOutputStream collected = new java.io.ByteArrayOutputStream();
    AppendResult result;
    boolean drained;

    public CloseInstallRaceStress() {
        byte[] prefix = RingStress.record('P', PREFIX);
        ring.append(prefix, 0, PREFIX, Severity.INFO);
    }

    @Actor
    public void producer() {
        result = ring.append(RingStress.record('A', A), 0, A, Severity.INFO);
    }

    @Actor
    public void writer() {
        ring.close();
        Batch batch = new Batch();
        long t0 = System.nanoTime();
        while (System.nanoTime() - t0 < java.util.concurrent.TimeUnit.SECONDS.toNanos(5)) { // the stop loop
            ring.collect(batch);
            RingStress.copyOut(batch, collected);
            ring.release(batch);
            if (ring.sealForClose() && ring.isDrained()) {
                drained = true;
                return;
            }
            Thread.onSpinWait();
        }
    }

    @Arbiter
    public void arbiter(II_Result r) {
        byte[] out = collected.toByteArray();
        r.r1 = result == AppendResult.ACCEPTED ? 1 : 0;
        boolean withA = out.length == PREFIX + A && RingStress.run(out, 0, 'P', PREFIX) && RingStress.run(out, PREFIX, 'A', A);
        boolean withoutA = out.length == PREFIX && RingStress.run(out, 0, 'P', PREFIX);
        r.r2 = !drained ? 7 : withA ? 1 : withoutA ? 0 : 9;
    }
}
