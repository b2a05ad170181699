package io.github.spool.ring;

import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import org.junit.jupiter.api.Test;

import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The books' backstop (CellSupply): a reservation lost while still counted — what a failure
 * handler that never ran would leave — leaves the books at the writer's first idle pass after
 * the GC found it unreachable, so the cap never shrinks for good (docs/reliability.md, item
 * 10d). Each loss is played directly: the reference a handler would have handed on is dropped,
 * and the test plays the writer's pass ({@code settleOrphans}).
 */
class BooksBackstopTest {
    private static final long BUFFER = 16 << 10;
    private static final long MAX = 64 << 10;

    private static ManyToOneCellRing ring() {
        return new ManyToOneCellRing(BUFFER, MAX, OverflowPolicy.BLOCK, Severity.INFO, 50_000_000L);
    }

    /**
     * Collects, and settles as the writer's idle pass does, until the condition holds, within a
     * bound: there is no latch for a collection, and the GC enqueues a phantom reference on its
     * own thread after it. The losses are played in methods of their own, so that no reference
     * is left in this frame.
     */
    static boolean afterGc(ManyToOneCellRing ring, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            ring.consumer.settleOrphans();
            if (condition.getAsBoolean()) {
                return true;
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            System.gc();
            Thread.sleep(10);
        }
    }

    private static void loseDedicatedCell(ManyToOneCellRing ring, int len) {
        Cell lost = ring.supply.growDedicated(len);
        assertNotNull(lost, "a dedicated cell under the cap");
    }

    private static void loseReservation(ManyToOneCellRing ring) {
        assertNotNull(ring.supply.reserve(ring.cellSize(), false), "a reservation under the cap");
    }

    @Test
    void aDedicatedCellLostWhileCountedLeavesTheBooksAtTheNextCollection() throws Exception {
        ManyToOneCellRing ring = ring();
        long before = ring.allocatedBytes();
        long cellsBefore = ring.cellCount();
        int len = ring.cellSize() + 100;
        loseDedicatedCell(ring, len);
        assertEquals(before + len, ring.allocatedBytes(), "counted while nobody holds it");
        assertTrue(afterGc(ring, () -> ring.allocatedBytes() == before), () -> "taken back: " + ring.describeState());
        assertEquals(cellsBefore, ring.cellCount());
        assertEquals(len, ring.supply.reclaimed.get());
    }

    @Test
    void aReservationLostBeforeItsCellExistsLeavesTheBooks() throws Exception {
        ManyToOneCellRing ring = ring();
        long before = ring.allocatedBytes();
        loseReservation(ring);
        assertEquals(before + ring.cellSize(), ring.allocatedBytes());
        assertTrue(afterGc(ring, () -> ring.allocatedBytes() == before), () -> "taken back: " + ring.describeState());
        assertEquals(ring.cellSize(), ring.supply.reclaimed.get());
    }

    @Test
    void aCellReleasedNormallyIsNotTakenBackTwice() throws Exception {
        ManyToOneCellRing ring = ring();
        long before = ring.allocatedBytes();
        int len = ring.cellSize() + 100;
        Cell c = ring.supply.growDedicated(len);
        ring.supply.freeCell(c);
        c = null; // unreachable from here on: its claim, settled, must not be taken back again
        assertEquals(before, ring.allocatedBytes());
        // Lose one more so there is a collection to wait for, then look at the books.
        loseReservation(ring);
        assertTrue(afterGc(ring, () -> ring.supply.reclaimed.get() > 0), () -> "the lost one taken back: " + ring.describeState());
        assertEquals(ring.cellSize(), ring.supply.reclaimed.get(), "only the lost reservation, not the released cell");
        assertEquals(before, ring.allocatedBytes());
    }
}
