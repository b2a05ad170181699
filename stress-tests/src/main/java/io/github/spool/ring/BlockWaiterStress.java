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

import java.io.ByteArrayOutputStream;

/**
 * The BLOCK waiter: the ring is at its cap (both cells full, none pooled) when a producer appends;
 * it registers as blocked and parks while the writer collects, writes and frees a cell, which
 * unparks the registered producers. The record must get in and come out exactly once, and the
 * waiters' queue must be empty afterwards (each waiter queued at most once, dequeued on wake-up or
 * removed on return).
 */
@JCStressTest
@Description("A producer parked at the cap is released when the writer frees a cell")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "Accepted, written once, queue empty")
@Outcome(expect = Expect.FORBIDDEN, desc = "Refused, lost, duplicated, torn, or a waiter left in the queue")
@State
public class BlockWaiterStress {
    static final int R = 64;
    final ManyToOneCellRing ring = RingStress.smallRing(OverflowPolicy.BLOCK);
    final ByteArrayOutputStream collected = new ByteArrayOutputStream();
    volatile boolean producerDone;
    AppendResult result;
    int prefixLen;

    public BlockWaiterStress() {
        // Fill both cells exactly: the first, then its successor (the pooled cell).
        byte[] full = RingStress.record('P', RingStress.CELL);
        ring.append(full, 0, full.length, Severity.INFO);
        ring.append(full, 0, full.length, Severity.INFO);
        prefixLen = 2 * RingStress.CELL;
    }

    @Actor
    public void producer() {
        result = ring.append(RingStress.record('R', R), 0, R, Severity.INFO);
        producerDone = true;
    }

    @Actor
    public void writer() {
        Batch batch = new Batch();
        for (int i = 0; i < 1_000_000 && !producerDone; i++) {
            ring.collect(batch);
            RingStress.copyOut(batch, collected);
            ring.release(batch);
        }
    }

    @Arbiter
    public void arbiter(II_Result r) {
        byte[] rest = RingStress.drain(ring);
        collected.write(rest, 0, rest.length);
        byte[] out = collected.toByteArray();
        boolean ok = result == AppendResult.ACCEPTED && out.length == prefixLen + R
                && RingStress.run(out, 0, 'P', prefixLen) && RingStress.run(out, prefixLen, 'R', R);
        r.r1 = ok ? 1 : 0;
        r.r2 = ring.waiting();
    }
}
