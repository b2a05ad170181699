package io.github.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Per-thread scratch: platform threads keep their own value; virtual threads borrow one from a
 * small shared pool for the length of a call, so a server that runs each request on a new
 * virtual thread does not make (and abandon) a value per request, and no two threads ever hold
 * the same value at once.
 */
class OwnedThreadLocalTest {

    /** A value with a holder field: whoever holds it writes its index there. */
    static final class Slot {
        int holder = -1;
    }

    @Test
    void aPlatformThreadAcquiresItsOwnValueEveryTime() {
        OwnedThreadLocal<Slot> local = OwnedThreadLocal.withInitial(Slot::new);
        Slot own = local.get();
        for (int i = 0; i < 100; i++) {
            Slot s = local.acquire();
            assertSame(own, s, "the thread's own value");
            local.release(s);
        }
        assertEquals(1, local.created());
    }

    @Test
    void virtualThreadsOneAfterAnotherShareOneValue() throws Exception {
        assumeTrue(VirtualThreadsRig.available(), "virtual threads need JDK 21+");
        OwnedThreadLocal<Slot> local = OwnedThreadLocal.withInitial(Slot::new);
        AtomicInteger seenPrevious = new AtomicInteger();
        VirtualThreadsRig.oneAfterAnother(2_000, i -> {
            Slot s = local.acquire();
            try {
                if (s.holder == i - 1) {
                    seenPrevious.incrementAndGet(); // the previous thread's write, handed over
                }
                s.holder = i;
            } finally {
                local.release(s);
            }
        });
        // Before: a value per thread, 2,000 made. A thread that lands on another carrier may
        // start its scan elsewhere, but the pool is small: a few values at most.
        assertTrue(local.created() <= SharedScratch.PROBES, local.created() + " values made for 2,000 threads");
        assertTrue(seenPrevious.get() >= 1_000, seenPrevious.get() + " of 2,000 found the value the previous thread wrote");
    }

    @Test
    void noTwoVirtualThreadsHoldTheSameValueAtOnce() throws Exception {
        assumeTrue(VirtualThreadsRig.available(), "virtual threads need JDK 21+");
        OwnedThreadLocal<Slot> local = OwnedThreadLocal.withInitial(Slot::new);
        ConcurrentLinkedQueue<String> clashes = new ConcurrentLinkedQueue<>();
        long seed = 20261127L;
        VirtualThreadsRig.allAtOnce(1_000, i -> {
            SplittableRandom random = new SplittableRandom(seed + i);
            for (int round = 0; round < 50; round++) {
                Slot s = local.acquire();
                try {
                    s.holder = i;
                    if (random.nextInt(4) == 0) {
                        LockSupport.parkNanos(random.nextInt(50_000)); // unmounts: others run meanwhile
                    } else {
                        Thread.yield();
                    }
                    if (s.holder != i) {
                        clashes.add("thread " + i + " found " + s.holder + " in its value");
                    }
                } finally {
                    local.release(s);
                }
            }
        });
        assertTrue(clashes.isEmpty(), clashes.size() + " clashes, e.g. " + clashes.peek());
        // Up to all 1,000 hold one at once (parked inside a call), so up to 1,000 are made; the
        // pool keeps a few and drops the rest, which a later call may make again, but values
        // are reused across calls, not made per call.
        assertTrue(local.created() < 5_000, local.created() + " values made for 1,000 threads x 50 calls");
    }
}
