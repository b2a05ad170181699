package io.github.spool.ring;

/**
 * The ring's free standard cells: a deque in an array, under this object's monitor, most recently
 * used at the top (warm in cache) and the oldest at the bottom (the first to free when trimming).
 * Internal to Spool.
 *
 * <p>Why a monitor and not a lock-free deque: the pool is touched once per cell (an installer takes
 * one, the writer gives one back), never per record, and that path runs so rarely that the JIT
 * does not compile it for minutes — it runs in the interpreter, from cold caches. There a monitor
 * and a few array accesses are bytecodes the interpreter executes inline, while
 * {@code ConcurrentLinkedDeque.pollFirst} is a chain of calls and VarHandle operations: 6–7 µs
 * of a 60 µs cell switch, measured on the producer that crossed the cell's end (docs/benchmarks.md,
 * "the cell switch"). No holder blocks inside (every method is a few stores; memory is allocated
 * and freed outside), so a producer waiting for the monitor waits for a few instructions, unless
 * the holder is descheduled — a cost paid once per cell at most, as the unpark it replaces was.
 *
 * <p>The monitor orders a cell's reset and its records before the next thread that takes it;
 * {@link #isEmpty} alone is a volatile read of the size, for waiters that only want a hint.
 */
final class CellPool {

    private Cell[] cells;
    /** Index of the bottom (oldest) cell. */
    private int bottom;
    /** Written inside the monitor; volatile for {@link #isEmpty}'s read outside it. */
    private volatile int size;

    CellPool(int capacity) {
        cells = new Cell[Math.max(4, Integer.highestOneBit(Math.max(1, capacity - 1)) << 1)];
    }

    /** @return the most recently used cell, or {@code null} */
    synchronized Cell pollFirst() {
        int n = size;
        if (n == 0) {
            return null;
        }
        int i = (bottom + n - 1) & (cells.length - 1);
        Cell c = cells[i];
        cells[i] = null;
        size = n - 1;
        return c;
    }

    /** @return the least recently used cell, or {@code null} */
    synchronized Cell pollLast() {
        int n = size;
        if (n == 0) {
            return null;
        }
        Cell c = cells[bottom];
        cells[bottom] = null;
        bottom = (bottom + 1) & (cells.length - 1);
        size = n - 1;
        return c;
    }

    /** Puts {@code c} on top: the next {@link #pollFirst} returns it. */
    synchronized void offerFirst(Cell c) {
        int n = size;
        if (n == cells.length) {
            grow();
        }
        cells[(bottom + n) & (cells.length - 1)] = c;
        size = n + 1;
    }

    /** Puts {@code c} at the bottom: {@link #pollLast} returns it first. */
    synchronized void offerLast(Cell c) {
        int n = size;
        if (n == cells.length) {
            grow();
        }
        bottom = (bottom - 1) & (cells.length - 1);
        cells[bottom] = c;
        size = n + 1;
    }

    /** Doubles the array, bottom first. Rare: the pool holds at most every cell ever allocated. */
    private void grow() {
        Cell[] old = cells;
        Cell[] bigger = new Cell[old.length << 1];
        for (int k = 0; k < size; k++) {
            bigger[k] = old[(bottom + k) & (old.length - 1)];
        }
        cells = bigger;
        bottom = 0;
    }

    /** @return whether the pool held no cell at the moment of the read (a hint: it may change) */
    boolean isEmpty() {
        return size == 0;
    }

    /** @return the number of pooled cells (a snapshot) */
    int size() {
        return size;
    }

    /**
     * Replaces the array (tests: {@code null} makes the next poll throw, as a producer failing
     * inside the pool would) and returns the old one.
     */
    synchronized Cell[] swapArray(Cell[] array) {
        Cell[] old = cells;
        cells = array;
        return old;
    }
}
