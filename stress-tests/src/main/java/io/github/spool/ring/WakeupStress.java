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

/**
 * The writer's park/wake handshake (Dekker): the writer announces sleep and re-checks for work;
 * a producer commits and reads the sleep flag. Either the writer sees the record, or the producer
 * sees the flag and wakes it — never neither (a lost wake-up would strand the record until the
 * housekeeping timer).
 */
@JCStressTest
@Description("No lost wake-up between a committing producer and a writer going to sleep")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "Writer saw the record (it cancels its own sleep)")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "Writer saw the record and the producer also woke it")
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "Writer missed it, but the producer woke it")
@Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "Lost wake-up: writer sleeps, record waits")
@State
public class WakeupStress {
    final ManyToOneCellRing ring = RingStress.smallRing(OverflowPolicy.BLOCK);
    final byte[] record = RingStress.record('R', 32);

    @Actor
    public void producer() {
        ring.append(record, 0, record.length, Severity.INFO); // commit, then signal()
    }

    @Actor
    public void writer(II_Result r) {
        ring.signal().svSleeping();
        r.r1 = ring.hasWork() ? 1 : 0;
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = ring.signal().isSleeping() ? 1 : 0;
    }
}
