package io.github.spool.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link CellPool} against {@link ArrayDeque} on the same seeded operations, across growth. */
class CellPoolTest {

    @Test
    void behavesAsADequeMostRecentFirstAcrossGrowth() {
        List<Cell> cells = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            cells.add(new Cell(DirectMemory.allocateAtStart(64), false, new Reservation(64, new java.lang.ref.ReferenceQueue<>())));
        }
        CellPool pool = new CellPool(2);
        ArrayDeque<Cell> reference = new ArrayDeque<>();
        SplittableRandom random = new SplittableRandom(20261126L);
        int next = 0;
        for (int step = 0; step < 20_000; step++) {
            int op = random.nextInt(4);
            if (op < 2 && reference.size() < cells.size()) {
                // offer a cell not in the pool (each cell is in the pool at most once, as in the ring)
                Cell c = cells.get(next);
                while (reference.contains(c)) {
                    next = (next + 1) % cells.size();
                    c = cells.get(next);
                }
                if (op == 0) {
                    pool.offerFirst(c);
                    reference.offerFirst(c);
                } else {
                    pool.offerLast(c);
                    reference.offerLast(c);
                }
            } else if (op == 2) {
                assertSame(reference.pollFirst(), pool.pollFirst());
            } else {
                assertSame(reference.pollLast(), pool.pollLast());
            }
            assertEquals(reference.size(), pool.size());
            assertEquals(reference.isEmpty(), pool.isEmpty());
        }
        while (!reference.isEmpty()) {
            assertSame(reference.pollFirst(), pool.pollFirst());
        }
        assertNull(pool.pollFirst());
        assertNull(pool.pollLast());
        assertTrue(pool.isEmpty());
    }
}
