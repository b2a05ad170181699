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
 * JDK 25). Allocating a small block at every level of a recursion lands the overflow inside the
 * allocation at one level or another; no level may get {@code null} while memory is plentiful.
 */
class DirectMemoryOverflowTest {
    private static final int TRIALS = 20;

    private static int refused;
    private static int allocated;

    private static void recurse() {
        DirectMemory.Block b = DirectMemory.tryAllocate(64);
        if (b == null) {
            refused++; // a field increment: no call that could itself overflow
        } else {
            allocated++;
            b.free();
        }
        recurse();
    }

    @Test
    void anOverflowInsideAnAllocationPropagatesInsteadOfReadingAsNoMemory() throws Exception {
        for (int trial = 0; trial < TRIALS; trial++) {
            Thread t = new Thread(null, () -> {
                try {
                    recurse();
                } catch (StackOverflowError expected) {
                    // the point of the exercise
                }
            }, "recursion-" + trial, 256 << 10);
            t.start();
            t.join();
        }
        assertTrue(allocated > TRIALS, "the recursion allocated at every level before the overflow: " + allocated);
        assertEquals(0, refused, () -> "levels answered 'no memory' by an overflow, of " + (allocated + refused));
    }
}
