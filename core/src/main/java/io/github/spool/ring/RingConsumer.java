package io.github.spool.ring;

import java.nio.ByteBuffer;

/**
 * The writer thread's side of a {@link ManyToOneCellRing}: collecting committed bytes in order,
 * releasing written cells, recovering from producers that failed half-way through the protocol,
 * and closing. Everything here runs on the consumer thread only, so its own state needs no
 * ordering; what it shares with producers (the cells' words, {@code current}, the books) is read
 * and written with the orderings the package documentation argues, each noted where it happens.
 * Internal to Spool.
 */
final class RingConsumer {
    private final ManyToOneCellRing ring;
    /** The cell the writer reads; every cell before it is written and released. */
    Cell writeCell;
    private Cell closeSealed;
    final StallWatch stall = new StallWatch();
    /** Consumer-only, like the watch: written by recoverStall, read by the writer's report. */
    private String lastStall = "";
    private long[] holeScratch = new long[4];

    RingConsumer(ManyToOneCellRing ring, Cell first) {
        this.ring = ring;
        this.writeCell = first;
    }

    /**
     * Collects committed, unwritten bytes in write order into {@code batch} (consumer only).
     *
     * @param batch an empty batch
     * @return the number of ranges collected
     */
    int collect(Batch batch) {
        Cell c = writeCell;
        while (batch.count < Batch.MAX_SEGMENTS) {
            if (c.abandoned) {
                Cell next = c.laNext();
                if (next == null) {
                    break;
                }
                ring.supply.dropCell(c);
                c = arrive(next);
                continue;
            }
            // committed (and aborted) first, then claimed: see the package documentation.
            long cw = c.laCommitted();
            long aborted = c.abortedBytes;
            long kw = c.laClaimed();
            long limit = completeLimit(c, Cell.committedBytes(cw) + aborted, Cell.bytes(kw), false);
            if (limit < 0) {
                break; // a claim is still being copied
            }
            if (limit > c.flushedBytes) {
                long records = Cell.committedRecords(cw);
                if (aborted == 0) {
                    ByteBuffer v = c.view;
                    v.limit((int) limit);
                    v.position((int) c.flushedBytes);
                    batch.add(v, records - c.flushedRecords);
                } else {
                    addAroundHoles(batch, c, limit, records - c.flushedRecords);
                }
                c.flushedBytes = limit;
                c.flushedRecords = records;
            }
            if (Cell.bytes(kw) < c.capacity) {
                break; // not sealed: producers are still filling it
            }
            Cell next = c.laNext();
            if (next == null) {
                if (c.dedicated && !c.unaccounted) {
                    batch.unaccount = c; // written once this batch is: stop counting it (see Batch)
                }
                break; // sealed, but its successor is not installed yet
            }
            batch.done[batch.doneCount++] = c;
            c = arrive(next);
        }
        writeCell = c;
        return batch.count;
    }

    /**
     * Adds {@code [flushedBytes, limit)} of {@code c} without the holes failed copies left in it
     * (rare): the bytes after each hole are moved down over it, so the range stays one segment
     * holding exactly its committed records. Every claim below {@code limit} is complete, and
     * claims above it never touch these bytes, so the writer may move them.
     */
    private void addAroundHoles(Batch batch, Cell c, long limit, long records) {
        int n;
        synchronized (c) {
            n = c.holeCount;
            if (holeScratch.length < n) {
                holeScratch = new long[c.holes.length];
            }
            System.arraycopy(c.holes, 0, holeScratch, 0, n);
        }
        long[] h = holeScratch;
        java.util.Arrays.sort(h, 0, n); // by start: the start sits in the high bits
        long from = c.flushedBytes;
        int to = (int) from; // where the next kept byte goes
        int pos = (int) from; // the next byte not yet kept or skipped
        int skipped = 0;
        ByteBuffer b = c.buffer;
        for (int i = 0; i < n; i++) {
            int hs = (int) (h[i] >>> 32);
            int hl = (int) h[i];
            if (hs < from || hs + hl > limit) {
                continue; // skipped by an earlier pass
            }
            to = moveDown(b, pos, hs, to);
            pos = hs + hl;
            skipped++;
            c.flushedHoleBytes += hl;
        }
        to = moveDown(b, pos, (int) limit, to);
        if (to > from) {
            ByteBuffer v = c.view;
            v.limit(to);
            v.position((int) from);
            batch.add(v, records);
        }
        ring.failedCopies += skipped; // writer-only read-modify-write of a volatile: one writer
    }

    /** Moves {@code [from, end)} down to {@code to} (no-op when in place); returns the new {@code to}. */
    private static int moveDown(ByteBuffer b, int from, int end, int to) {
        int len = end - from;
        if (len > 0 && to != from) {
            byte[] tmp = new byte[len]; // rare path: a copy through the heap keeps overlap simple
            b.get(from, tmp, 0, len);
            b.put(to, tmp, 0, len);
        }
        return to + Math.max(0, len);
    }

    /** The writer reaches a cell through its link: start tracking its incarnation. */
    private static Cell arrive(Cell c) {
        c.writerGen = Cell.gen(c.laClaimed());
        c.flushedBytes = 0;
        c.flushedRecords = 0;
        c.flushedHoleBytes = 0;
        return c;
    }

    /**
     * Bytes of {@code c} that are claimed and all committed, or {@code -1} while a claim is in
     * flight or the seal limit is not yet published.
     */
    static long completeLimit(Cell c, long committedBytes, long claimedBytes, boolean volatileLoads) {
        long limit;
        if (claimedBytes <= c.capacity) {
            limit = claimedBytes;
        } else {
            limit = volatileLoads ? c.lvSealLimit(c.writerGen) : c.laSealLimit(c.writerGen);
            if (limit < 0) {
                return -1;
            }
        }
        return committedBytes == limit ? limit : -1;
    }

    /**
     * Returns the cells of a written batch to the pool (dedicated ones are freed) and clears
     * the batch (consumer only).
     *
     * @param batch the batch whose ranges have been written or given up
     */
    void release(Batch batch) {
        Cell u = batch.unaccount;
        long freed = 0;
        if (u != null && !u.unaccounted) {
            u.unaccounted = true;
            ring.supply.freeCell(u); // its one record is out and no claim can succeed in it
            freed += u.capacity;
        }
        for (int i = 0; i < batch.doneCount; i++) {
            Cell c = batch.done[i];
            if (c.dedicated) {
                if (!c.unaccounted) {
                    ring.supply.freeCell(c);
                    freed += c.capacity;
                }
            } else {
                ring.pool.offerFirst(c); // then the waiters' queue: Dekker with Waiter.idle's re-check
                freed += c.capacity;
            }
        }
        batch.clear();
        if (freed > 0) {
            ring.parked.wake(freed);
        }
    }

    /**
     * Whether {@link #collect} would find something (consumer only). Uses volatile loads: it is
     * the writer's check between announcing sleep and parking (see {@link WakeSignal}).
     *
     * @return {@code true} if there are committed unwritten bytes or a cell to move past
     */
    boolean hasWork() {
        Cell c = writeCell;
        if (c.abandoned) {
            return c.lvNext() != null;
        }
        long cw = c.lvCommitted();
        long aborted = c.abortedBytes;
        long kw = c.lvClaimed();
        long limit = completeLimit(c, Cell.committedBytes(cw) + aborted, Cell.bytes(kw), true);
        if (limit < 0) {
            return false;
        }
        return limit > c.flushedBytes || (Cell.bytes(kw) >= c.capacity && c.lvNext() != null);
    }

    // ------------------------------------------------------------------ failure containment

    /**
     * Consumer, on a pass that collected nothing: recovers when a producer failed half-way
     * through the protocol (package documentation, "Failure containment"). Nothing happens until
     * the same stuck state has been watched for {@code stallNanos} ({@link StallWatch}: at least
     * {@link ManyToOneCellRing#STALL_MIN_PASSES} passes). Stuck states: the cell being written has a claim that is never committed (or a
     * seal limit never published) — the cell is given up; it is sealed and written but nobody
     * installs a successor while its install flag stays taken — the writer installs one;
     * {@code current} is linked past but was never republished — the writer republishes it.
     *
     * @param nowNanos {@link System#nanoTime()}
     * @return {@code true} if a recovery was made
     */
    boolean recoverStall(long nowNanos) {
        settleOrphans();
        if (!ring.pool.isEmpty() && !ring.parked.isEmpty()) {
            // Producers parked while cells are free: a wake-up went missing somewhere. One check
            // per idle pass here, rather than every parked producer looking on a timer.
            ring.parked.wake((long) ring.pool.size() * ring.cellSize);
        }
        Cell c = writeCell;
        // The flag is read once, and before the link. An installer links its successor and only
        // then hands the flag to SHUT (volatile stores, in that order; install, forceInstall), so
        // a flag read as SHUT here means the link read below is seen: a live installer finishing
        // during this pass reads as itself (a live holder, the long bound) or as linked, never as
        // a flag left to no thread with no successor. Read in the other order, or twice, the
        // flag of an installer that finished between the reads once came out as SHUT beside a
        // null link, and a live installer was taken over at the short bound (a CI run).
        Object flag = c.lvInstaller();
        long cw = c.lvCommitted();
        long done = Cell.committedBytes(cw) + c.abortedBytes;
        long kw = c.lvClaimed();
        Cell next = c.lvNext();
        Cell cur = (Cell) ManyToOneCellRing.CURRENT.getVolatile(ring);
        Cell curNext = cur.lvNext();
        boolean incomplete = !c.abandoned && completeLimit(c, done, Cell.bytes(kw), true) < 0;
        boolean orphaned = !ring.closed && next == null && flag != null
                && (c.abandoned || (Cell.bytes(kw) > c.capacity && !incomplete && c.flushedBytes == done));
        boolean staleCurrent = curNext != null;
        if (!incomplete && !orphaned && !staleCurrent) {
            stall.clear();
            return false;
        }
        Object holder = orphaned && !incomplete && !staleCurrent ? flag : null;
        boolean liveHolder = holder instanceof Thread && ((Thread) holder).isAlive();
        long bound = liveHolder ? ManyToOneCellRing.LIVE_HOLDER_STALLS * ring.stallNanos : ring.stallNanos;
        if (!stall.stuck(c, cw, kw, next, cur, curNext, nowNanos, bound)) {
            return false;
        }
        if (staleCurrent) {
            // An installer linked a successor and stopped before publishing it.
            Cell t = curNext;
            for (Cell n; (n = t.lvNext()) != null; ) {
                t = n;
            }
            if (!ManyToOneCellRing.CURRENT.compareAndSet(ring, cur, t)) {
                return false; // its installer published it after all: nothing recovered
            }
            cur.installer = Cell.SHUT; // its holder linked past it: taken for good, by nobody's thread
            t.srInstallerOpen();
            ring.parked.wake(t.capacity);
        } else if (incomplete) {
            abandon(c);
        } else if (!forceInstall(c)) {
            return false; // the holder linked its own, or no cell yet: nothing recovered
        }
        lastStall = staleCurrent ? "a successor linked but never published"
                : incomplete ? "a claim never committed"
                : "an install flag held by " + (liveHolder ? "a live thread that made no progress"
                        : holder instanceof Thread ? "a thread that ended" : "no thread");
        ring.stallRecoveries.incrementAndGet();
        return true;
    }

    /** @return what the last stall recovery found stuck, for its report (consumer only) */
    String lastStallRecovery() {
        return lastStall;
    }

    /** @return whether {@link #recoverStall} is watching a state that may be stuck (consumer only) */
    boolean stallPending() {
        return stall.pending();
    }

    /** Gives up the cell being written: seals it if needed, and counts what it cannot write. */
    private void abandon(Cell c) {
        sealFor(c);
        giveUp(c, c.flushedRecords, c.flushedBytes, c.flushedHoleBytes);
        c.abandoned = true;
    }

    /** Seals {@code c} for good with a claim larger than any cell (if not sealed yet). */
    static void sealFor(Cell c) {
        if (Cell.bytes(c.lvClaimed()) <= c.capacity) {
            long w = c.gaaClaim(ManyToOneCellRing.CLOSE_CLAIM);
            long start = Cell.bytes(w);
            if (start <= c.capacity) {
                c.casSeal(Cell.gen(w), start);
            }
        }
    }

    /**
     * Sets {@link Cell#DEAD} on {@code c} and counts every record committed before it, beyond the
     * {@code flushedRecords} already collected, as lost. Records committed afterwards count
     * themselves ({@code ManyToOneCellRing.lostLate}).
     */
    void giveUp(Cell c, long flushedRecords, long flushedBytes, long flushedHoleBytes) {
        long before = c.casDead();
        if (before >= 0) {
            ring.lostRecords.addAndGet(Cell.committedRecords(before) - flushedRecords);
            ring.lostBytes.addAndGet(Cell.committedBytes(before) - (flushedBytes - flushedHoleBytes));
        }
    }

    /**
     * The writer installs a successor for {@code sealed}, whose installer went silent.
     *
     * @return {@code true} if it did; {@code false} if no cell could be had (the next bound
     *         tries again) or the holder linked its own first
     */
    private boolean forceInstall(Cell sealed) {
        Cell fresh = ring.pool.pollFirst();
        if (fresh == null && ring.supply.growIntoPool()) {
            fresh = ring.pool.pollFirst();
        }
        if (fresh == null) {
            return false;
        }
        fresh.reincarnate(0);
        if (!sealed.casNext(fresh)) {
            giveUp(fresh, 0, 0, 0); // the installer was alive after all and linked its own
            ring.supply.dropCell(fresh);
            return false;
        }
        ManyToOneCellRing.CURRENT.setRelease(ring, fresh);
        // The silent holder's flag stays taken for good, by a sentinel: a holder that wakes up
        // sees the link and lets go of nothing (its handlers check next), and the pooled cell
        // does not keep its thread reachable.
        sealed.installer = Cell.SHUT;
        fresh.srInstallerOpen();
        ring.parked.wake(fresh.capacity);
        return true;
    }

    /**
     * Takes back lost reservations (the books' backstop, {@link CellSupply#reclaimLost}), then gives
     * up the cells failed producers left behind ({@link CellSupply#orphans}; consumer only). A cell
     * that was re-opened (its claim word within capacity) may have taken stale producers' claims
     * in an incarnation never published: they are counted lost and its memory is left to the GC.
     * A cell still sealed as it was in the pool (the installer failed inside reincarnate, before
     * the CAS that re-opens it, or it was taken to be freed) is fully written, and its committed
     * word may still count its last incarnation's records, written long ago: counting them lost
     * would count them twice; no claim can land in it, so it is freed. Both are idempotent
     * ({@link Cell#DEAD}, the reservation's claim), should a cell be given up twice.
     */
    void settleOrphans() {
        // First the backstop: reservations the GC found unreachable while still counted (a path
        // the handlers missed; CellSupply). An empty queue costs one volatile load.
        long back = ring.supply.reclaimLost();
        if (back > 0) {
            ring.parked.wake(back);
        }
        if (!ring.supply.orphansPending) {
            return;
        }
        Cell o = ring.supply.takeOrphans();
        long freed = 0;
        while (o != null) {
            Cell n = o.nextOrphan;
            o.nextOrphan = null;
            if (Cell.bytes(o.lvClaimed()) <= o.capacity) {
                giveUp(o, 0, 0, 0);
                ring.supply.dropCell(o);
            } else {
                ring.supply.freeCell(o);
            }
            freed += o.capacity;
            o = n;
        }
        if (freed > 0) {
            ring.parked.wake(freed);
        }
    }

    /**
     * The writer will collect nothing more (consumer only; its stop deadline passed, or it is
     * failing): closes the ring, then gives up every cell from the one being written to the end
     * of the chain, counting each committed, unwritten record as lost exactly once, and seals the
     * last cell so later claims fail and their producers see the ring closed. Commits still in
     * flight count themselves ({@link Cell#DEAD}); an installer that links a cell after this walk
     * sees {@code writerGone} and gives that cell up itself.
     */
    void abandonAll() {
        ring.closed = true;
        // Volatile store, then volatile loads of next in the walk: Dekker with install().
        ring.writerGone = true;
        Cell c = writeCell;
        long records = c.flushedRecords;
        long bytes = c.flushedBytes;
        long holes = c.flushedHoleBytes;
        for (;;) {
            if (!c.abandoned) {
                giveUp(c, records, bytes, holes);
            }
            Cell n = c.lvNext();
            if (n == null) {
                break;
            }
            c = n;
            records = 0;
            bytes = 0;
            holes = 0;
        }
        sealFor(c);
        ring.parked.wakeAll();
    }

    /** Stops accepting records: producers get {@link AppendResult#CLOSED} from now on, once sealed. */
    void close() {
        ring.closed = true;
        ring.parked.wakeAll();
    }

    /** @return whether {@link #close} was called */
    boolean isClosed() {
        return ring.closed;
    }

    /**
     * After {@link #close}: seals the current cell for good so no claim can succeed any more
     * (consumer only). Fails while an installer holds the current cell's install rights; call again.
     *
     * @return {@code true} once sealed
     */
    boolean sealForClose() {
        if (closeSealed != null) {
            return true;
        }
        Cell cur = (Cell) ManyToOneCellRing.CURRENT.getAcquire(ring);
        if (!cur.casInstaller(Cell.CLOSER)) {
            return false; // an installer is publishing a successor: seal that one next time
        }
        // Holding the flag, nobody can replace cur. A claim bigger than any cell fails, and if it
        // is the crosser it publishes the limit; every claim that succeeded came before it.
        long w = cur.gaaClaim(ManyToOneCellRing.CLOSE_CLAIM);
        long start = Cell.bytes(w);
        if (start <= cur.capacity) {
            cur.casSeal(Cell.gen(w), start);
        }
        closeSealed = cur;
        return true;
    }

    /**
     * After {@link #sealForClose} succeeded: whether every accepted record has been collected.
     *
     * @return {@code true} when nothing is left to collect
     */
    boolean isDrained() {
        Cell c = writeCell;
        if (closeSealed == null || c != closeSealed) {
            return false;
        }
        if (c.abandoned) {
            return true;
        }
        long done = Cell.committedBytes(c.laCommitted()) + c.abortedBytes;
        long limit = completeLimit(c, done, Cell.bytes(c.laClaimed()), false);
        return limit >= 0 && c.flushedBytes == limit;
    }

    // ------------------------------------------------------------------ end of the writer

    /**
     * The writer has ended (consumer only, its last act): frees now, not at some later GC, the
     * memory of every cell no producer can copy into any more, so that a stopped appender gives
     * its direct memory back deterministically (with {@code -XX:+DisableExplicitGC} a reconfigure
     * loop otherwise ran out of it). Those cells are the pooled ones (sealed and written: a stale
     * claim in them fails, as for {@link CellSupply#trim}) and, once the ring has drained, the cell it was
     * sealed in for the close: every claim in it is committed and written, and its install flag
     * stays taken, so no installer can re-open it. A ring the writer gave up keeps its chain: a
     * producer may still be copying into a given-up incarnation, which {@link CellSupply#dropCell} leaves
     * to the GC, and so are cells a producer grows or links after this. Orphans are settled first,
     * as on an idle pass.
     *
     * @return bytes freed
     */
    long freeAll() {
        // Cells failed producers left since the writer's last idle pass: a writer busy until it
        // stopped never settled them, and they stayed counted against the cap for good.
        settleOrphans();
        long freed = ring.supply.freePool();
        Cell c = writeCell;
        if (closeSealed == c && isDrained() && !c.abandoned && !c.unaccounted) {
            c.unaccounted = true; // a dedicated cell released already is marked so: never freed twice
            ring.supply.freeCell(c);
            freed += c.capacity;
        }
        return freed;
    }
}
