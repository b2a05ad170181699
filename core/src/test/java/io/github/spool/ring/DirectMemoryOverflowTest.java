package io.github.spool.ring;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link StackOverflowError} inside {@link DirectMemory#tryAllocate} is not "no memory": it must
 * reach the caller, whose handler gives its reservation back. On JDK 24+ (memory from an
 * {@code Arena}) the allocation's method-handle chain overflowed first near a stack's end and
 * answered {@code null}; a BLOCK producer growing the ring for an oversized record then retried at
 * the same depth for good, spinning beside an almost empty ring (GrowthFailureTest hung in CI on
 * JDK 25). Allocating a small block at each of the last levels of a recursion lands the overflow
 * inside the allocation at one level or another; no level may get {@code null} while memory is
 * plentiful.
 */
class DirectMemoryOverflowTest {
    private static final int TRIALS = 20;

    /**
     * Allocations start this many levels above the depth where the last trial overflowed: the
     * overflow lands in the last few of them, and on JDK 24+ each costs a shared arena's close
     * (a handshake with every thread), so allocating at every level took a minute.
     */
    private static final int WINDOW = 300;

    private static int depth;
    private static int allocateFrom;
    private static int refused;
    private static int allocated;

    private static void recurse() {
        depth++;
        if (depth >= allocateFrom) {
            DirectMemory.Block b = DirectMemory.tryAllocate(64);
            if (b == null) {
                refused++; // a field increment: no call that could itself overflow
            } else {
                allocated++;
                b.free();
            }
        }
        recurse();
    }

    @Test
    void anOverflowInsideAnAllocationPropagatesInsteadOfReadingAsNoMemory() throws Exception {
        allocateFrom = Integer.MAX_VALUE; // trial 0 only finds how deep the stack goes
        for (int trial = 0; trial <= TRIALS; trial++) {
            depth = 0;
            Thread t = new Thread(null, () -> {
                try {
                    recurse();
                } catch (StackOverflowError expected) {
                    // the point of the exercise
                }
            }, "recursion-" + trial, 256 << 10);
            t.start();
            t.join();
            allocateFrom = Math.max(1, depth - WINDOW);
        }
        assertTrue(allocated > TRIALS, "the recursion allocated at every level before the overflow: " + allocated);
        assertEquals(0, refused, () -> "levels answered 'no memory' by an overflow, of " + (allocated + refused));
    }
}
