package io.github.spool.ring;

/**
 * The writer's watch over a state of the ring that may be stuck (a claim never committed, a flag
 * never let go, a successor never published): the snapshot it last saw, since when, and over how
 * many passes. A state counts as stuck only once the very same snapshot has been seen for a time
 * bound and {@link ManyToOneCellRing#STALL_MIN_PASSES} passes: one long pause of the whole JVM (a
 * GC) stops producers and writer alike and is no evidence. Consumer-only, no synchronisation.
 * Internal to Spool.
 */
final class StallWatch {

    private Cell cell;
    private long committed;
    private long claimed;
    private Cell next;
    private Cell current;
    private Cell currentNext;
    private int passes;
    private long since;

    /**
     * One pass's look at a suspicious state.
     *
     * @param c          the cell being written
     * @param cw         its committed word
     * @param kw         its claimed word
     * @param cNext      its successor
     * @param cur        the current cell
     * @param curNext    the current cell's successor
     * @param nowNanos   {@link System#nanoTime()}
     * @param boundNanos how long the same state must last
     * @return {@code true} if the same state has now lasted the bound and enough passes (the watch
     *         is then cleared, for the recovery to act once)
     */
    boolean stuck(Cell c, long cw, long kw, Cell cNext, Cell cur, Cell curNext, long nowNanos, long boundNanos) {
        if (cell != c || committed != cw || claimed != kw || next != cNext || current != cur || currentNext != curNext) {
            cell = c;
            committed = cw;
            claimed = kw;
            next = cNext;
            current = cur;
            currentNext = curNext;
            passes = 0;
            since = nowNanos;
            return false;
        }
        if (++passes < ManyToOneCellRing.STALL_MIN_PASSES || nowNanos - since < boundNanos) {
            return false;
        }
        clear();
        return true;
    }

    /** Forgets the snapshot: the state moved on, or was recovered. */
    void clear() {
        cell = null;
    }

    /** @return whether a state that may be stuck is being watched */
    boolean pending() {
        return cell != null;
    }

    /** @return passes the watched state has lasted (for diagnostics) */
    int passes() {
        return passes;
    }
}
