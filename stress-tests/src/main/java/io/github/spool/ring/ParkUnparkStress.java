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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The writer's untimed sleep with a real park and a real unpark (WakeupStress checks the flags
 * only): the writer registers itself, announces sleep, re-checks for work and parks — for up to
 * 10 s, standing in for "untimed"; a producer commits a record and signals. The writer must wake
 * well before the bound with the record there to collect: a lost wake-up shows as a park that
 * runs to its timeout.
 */
@JCStressTest
@Description("A parked writer is always unparked by a committing producer")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "The writer found the record, promptly (parked and woken, or never parked)")
@Outcome(id = "0, .*", expect = Expect.FORBIDDEN, desc = "Lost wake-up: the park ran to its timeout")
@Outcome(expect = Expect.FORBIDDEN, desc = "Woken without the record visible")
@State
public class ParkUnparkStress {
    final ManyToOneCellRing ring = RingStress.smallRing(OverflowPolicy.BLOCK);
    final byte[] record = RingStress.record('R', 32);

    @Actor
    public void producer() {
        ring.append(record, 0, record.length, Severity.INFO); // commit, then signal(): unpark if sleeping
    }

    @Actor
    public void writer(II_Result r) {
        WakeSignal signal = ring.signal();
        signal.consumer(Thread.currentThread());
        long t0 = System.nanoTime();
        for (;;) {
            signal.svSleeping();
            // Dekker: the volatile store above, then volatile loads of the ring's progress.
            if (ring.hasWork()) {
                signal.clearSleeping();
                break;
            }
            LockSupport.parkNanos(this, TimeUnit.SECONDS.toNanos(10));
            signal.clearSleeping();
            if (ring.hasWork() || System.nanoTime() - t0 > TimeUnit.SECONDS.toNanos(5)) {
                break; // woken (a stale permit from an earlier sample may also end a park early: loop)
            }
        }
        r.r1 = System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5) ? 1 : 0;
        r.r2 = ring.hasWork() ? 1 : 0;
    }
}
