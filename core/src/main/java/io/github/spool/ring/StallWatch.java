package io.github.spool.ring;

/**
 * The writer's watch over a state of the ring that may be stuck (a claim never committed, a flag
 * never let go, a successor never published): the snapshot it last saw, and how long it has
 * watched it. A state counts as stuck only once the very same snapshot has been watched for a time
 * bound, where each pass counts the time since the one before only up to
 * 1/{@link ManyToOneCellRing#STALL_MIN_PASSES} of the bound. A long pause of the whole JVM (a GC,
 * a container frozen or throttled) stops producers and writer alike and is no evidence: counted
 * whole, one pause just after a producer took a flag ran the clock past the bound, and the writer
 * took over from a producer that resumed with it (a CI run). So the bound takes at least that many
 * passes (counted too, for bounds too short to share out), and a producer gets the bound's time in
 * which the writer, at least, was running.
 * Consumer-only, no synchronisation. Internal to Spool.
 */
final class StallWatch {

    private Cell cell;
    private long committed;
    private long claimed;
    private Cell next;
    private Cell current;
    private Cell currentNext;
    private int passes;
    /** {@link System#nanoTime()} of the last pass. */
    private long last;
    /** Time watched: the sum of each pass's gap to the one before, capped (class comment). */
    private long watched;

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
     * @return {@code true} if the same state has now been watched for the bound (the watch is
     *         then cleared, for the recovery to act once)
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
            last = nowNanos;
            watched = 0;
            return false;
        }
        passes++;
        // At least 1 ns a pass: a bound below STALL_MIN_PASSES ns (the stress tests') still ends.
        watched += Math.min(nowNanos - last, Math.max(1, boundNanos / ManyToOneCellRing.STALL_MIN_PASSES));
        last = nowNanos;
        if (passes < ManyToOneCellRing.STALL_MIN_PASSES || watched < boundNanos) {
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
