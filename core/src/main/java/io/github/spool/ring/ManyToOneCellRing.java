package io.github.spool.ring;

import io.github.spool.AppendResult;
import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

abstract class RingPadHead {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class RingCurrentField extends RingPadHead {
    /** The cell producers claim in. Read by every producer per record; written once per cell. */
    volatile Cell current;
}

abstract class RingPadTail extends RingCurrentField {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}

/**
 * Many producers, one consumer: a ring of direct-memory cells, bounded in bytes, that grows by
 * whole cells when the consumer falls behind and shrinks back when idle. Producers
 * {@link #append} encoded records without locks; the consumer (the writer thread) {@link #collect}s
 * committed bytes in order and {@link #release}s written cells. The protocol and its ordering
 * argument are in the {@link io.github.spool.ring package documentation}. Internal to Spool.
 */
public final class ManyToOneCellRing extends RingPadTail {

    /** Smallest and largest standard cell; records per incarnation must stay below 2^24. */
    public static final int MIN_CELL_SIZE = 4 << 10;
    public static final int MAX_CELL_SIZE = 1 << 20;

    /** The claim that seals the current cell for good when the ring closes. */
    private static final long CLOSE_CLAIM = 1L << 40;

    private static final VarHandle CURRENT;

    static {
        try {
            CURRENT = MethodHandles.lookup().findVarHandle(RingCurrentField.class, "current", Cell.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int cellSize;
    private final long bufferSize;
    private final long maxBufferSize;
    private final boolean discardAllowed;
    private final int discardThreshold;
    private final WakeSignal signal = new WakeSignal();

    /** Free standard cells, most recently used first (warm in cache). Installers and writer. */
    private final ConcurrentLinkedDeque<Cell> pool = new ConcurrentLinkedDeque<>();
    /** Bytes of every live cell: chain and pool. Incremented only by the installer. */
    private final AtomicLong allocated = new AtomicLong();
    private final AtomicLong cells = new AtomicLong();
    private final AtomicLongArray discarded = new AtomicLongArray(Severity.COUNT);
    private final AtomicLong highWater = new AtomicLong();
    /** Producers parked at the cap, waiting for the writer to free a cell. Slow path only. */
    private final ConcurrentLinkedQueue<Thread> blocked = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    // Consumer-private.
    private Cell writeCell;
    private Cell closeSealed;

    /**
     * Creates the ring with {@code bufferSize / cellSize} cells allocated up front.
     *
     * @param bufferSize       initial bytes (at least two cells)
     * @param maxBufferSize    hard cap in bytes
     * @param policy           what producers do at the cap
     * @param discardThreshold most severe {@link Severity} that {@link OverflowPolicy#DISCARD} drops
     */
    public ManyToOneCellRing(long bufferSize, long maxBufferSize, OverflowPolicy policy, int discardThreshold) {
        this.cellSize = cellSizeFor(bufferSize);
        if (maxBufferSize < 2L * cellSize) {
            throw new IllegalArgumentException("maxBufferSize " + maxBufferSize + " must hold at least two cells of " + cellSize + " bytes");
        }
        this.bufferSize = bufferSize;
        this.maxBufferSize = maxBufferSize;
        this.discardAllowed = policy == OverflowPolicy.DISCARD;
        this.discardThreshold = Severity.check(discardThreshold);
        long initial = Math.max(2, bufferSize / cellSize);
        Cell first = newCell(cellSize, false);
        for (long i = 1; i < initial; i++) {
            pool.offerLast(newCell(cellSize, false));
        }
        first.installFlag = 0; // the one current, open cell; the ring reaches other threads through
        this.current = first;  // Thread.start or a volatile field, which publishes these stores
        this.writeCell = first;
    }

    /**
     * The standard cell size for a ring of {@code bufferSize} bytes: a quarter of it, as a power of
     * two between {@link #MIN_CELL_SIZE} and {@link #MAX_CELL_SIZE}. Four cells let producers fill
     * one while the writer writes another, with room to spare before the ring must grow.
     *
     * @param bufferSize initial ring bytes
     * @return the cell size in bytes
     */
    public static int cellSizeFor(long bufferSize) {
        long quarter = Math.max(MIN_CELL_SIZE, bufferSize / 4);
        return (int) Math.min(MAX_CELL_SIZE, Long.highestOneBit(quarter));
    }

    private Cell newCell(int capacity, boolean dedicated) {
        Cell c = new Cell(capacity, dedicated);
        long now = allocated.addAndGet(capacity);
        cells.incrementAndGet();
        highWater.accumulateAndGet(now, Math::max);
        return c;
    }

    private void freeCell(Cell c) {
        allocated.addAndGet(-c.capacity);
        cells.decrementAndGet();
    }

    // ------------------------------------------------------------------ producers

    /**
     * Appends one record copied from {@code src[offset, offset+length)}.
     *
     * @param src      bytes
     * @param offset   first byte
     * @param length   number of bytes ({@code 0}: nothing to do, {@link AppendResult#ACCEPTED})
     * @param severity the record's {@link Severity}
     * @return what happened to the record
     */
    public AppendResult append(byte[] src, int offset, int length, int severity) {
        return append0(src, null, offset, length, severity);
    }

    /**
     * Appends one record copied from {@code src}'s remaining bytes; {@code src}'s position is not
     * changed.
     *
     * @param src      bytes between position and limit
     * @param severity the record's {@link Severity}
     * @return what happened to the record
     */
    public AppendResult append(ByteBuffer src, int severity) {
        return append0(null, src, src.position(), src.remaining(), severity);
    }

    private AppendResult append0(byte[] array, ByteBuffer buffer, int offset, int len, int severity) {
        if (len <= 0) {
            return closed ? AppendResult.CLOSED : AppendResult.ACCEPTED;
        }
        Waiter waiter = null;
        try {
            for (;;) {
                // Acquire load: pairs with the installer's release store of current, so the
                // fresh incarnation's reset fields are visible before we claim in it.
                Cell cur = (Cell) CURRENT.getAcquire(this);
                // An oversized record never fits: claim more than the cell to seal it for a
                // dedicated successor.
                long claimLen = len <= cur.capacity && len <= cellSize ? len : (long) cur.capacity + 1;
                long word = cur.gaaClaim(claimLen);
                long start = Cell.bytes(word);
                if (start + claimLen <= cur.capacity) {
                    copy(cur, start, array, buffer, offset, len);
                    cur.gaaCommit(len);
                    signal.signal();
                    return AppendResult.ACCEPTED;
                }
                int gen = Cell.gen(word);
                if (start <= cur.capacity && cur.casSeal(gen, start)) {
                    // A full cell is worth a wake-up even of a napping writer (one unpark per
                    // cell, not per record): otherwise a fast producer fills the ring while the
                    // writer naps, then waits for it at the cap.
                    signal.wakeNow();
                }
                if (waiter == null) {
                    waiter = new Waiter();
                }
                AppendResult r = advance(cur, gen, array, buffer, offset, len, severity, waiter);
                if (r != null) {
                    return r;
                }
            }
        } finally {
            if (waiter != null) {
                waiter.restoreInterrupt();
            }
        }
    }

    /**
     * Slow path after a failed claim on {@code sealed} (incarnation {@code gen}): install its
     * successor, wait, or discard. Returns {@code null} when the producer should claim again.
     */
    private AppendResult advance(Cell sealed, int gen, byte[] array, ByteBuffer buffer, int offset, int len,
                                 int severity, Waiter waiter) {
        boolean oversized = len > cellSize;
        for (;;) {
            if (closed) {
                return AppendResult.CLOSED;
            }
            if ((Cell) CURRENT.getAcquire(this) != sealed) {
                return null; // someone installed a successor: claim there
            }
            if (sealed.casInstallFlag(0, 1)) {
                // We hold the install rights; make sure our view is not from an older incarnation.
                long w = sealed.lvClaimed();
                if (Cell.gen(w) != gen || Cell.bytes(w) < sealed.capacity) {
                    sealed.srInstallFlag(0);
                    return null;
                }
                Cell fresh = obtain(oversized ? len : cellSize);
                if (fresh != null) {
                    fresh.reincarnate(len); // pre-claims [0, len) for us
                    sealed.svNext(fresh);
                    CURRENT.setRelease(this, fresh); // publishes the reset incarnation
                    fresh.srInstallFlag(0);
                    copy(fresh, 0, array, buffer, offset, len);
                    fresh.gaaCommit(len);
                    signal.signal();
                    return AppendResult.ACCEPTED;
                }
                sealed.srInstallFlag(0); // at the cap: let the next comer try after the writer frees a cell
                if (discardable(severity)) {
                    return discard(severity);
                }
            } else if (discardable(severity) && atCap(oversized ? len : cellSize)) {
                return discard(severity);
            }
            waiter.idle(this);
        }
    }

    private static void copy(Cell cell, long start, byte[] array, ByteBuffer buffer, int offset, int len) {
        // Plain writes into our exclusive range; published by the commit that follows.
        if (array != null) {
            cell.buffer.put((int) start, array, offset, len);
        } else {
            cell.buffer.put((int) start, buffer, offset, len);
        }
    }

    private boolean discardable(int severity) {
        return discardAllowed && severity <= discardThreshold;
    }

    private AppendResult discard(int severity) {
        discarded.incrementAndGet(severity);
        return AppendResult.DISCARDED;
    }

    private boolean atCap(int need) {
        return (need > cellSize || pool.isEmpty()) && allocated.get() + need > maxBufferSize;
    }

    /**
     * A cell for the installer: a pooled one, else a new one while under the cap. Only the holder
     * of an install flag calls this, so allocations are serialised and the cap is exact.
     */
    private Cell obtain(int need) {
        if (need <= cellSize) {
            Cell c = pool.pollFirst();
            if (c != null) {
                return c;
            }
            return allocated.get() + cellSize <= maxBufferSize ? tryNewCell(cellSize, false) : null;
        }
        // Oversized record: free pooled cells until it fits.
        while (allocated.get() + need > maxBufferSize) {
            Cell c = pool.pollLast();
            if (c == null) {
                break;
            }
            freeCell(c);
        }
        if (allocated.get() + need <= maxBufferSize) {
            return tryNewCell(need, true);
        }
        // A record that cannot fit beside even one other cell is admitted alone, over the cap,
        // once everything before it has been written and pooled cells are freed: at most one
        // standard cell (the sealed one) still counts, so the peak is cellSize + need. (A written
        // dedicated cell stops counting even before its successor exists: see Batch.unaccount.)
        if (need > maxBufferSize - cellSize && allocated.get() <= cellSize) {
            return tryNewCell(need, true);
        }
        return null;
    }

    private Cell tryNewCell(int capacity, boolean dedicated) {
        try {
            return newCell(capacity, dedicated);
        } catch (OutOfMemoryError e) {
            return null; // direct memory exhausted (-XX:MaxDirectMemorySize): behave as at the cap
        }
    }

    /** Per-call waiting state of a producer on the slow path: spin, yield, then park. */
    private static final class Waiter {
        private int rounds;
        private boolean interrupted;

        void idle(ManyToOneCellRing ring) {
            int r = rounds++;
            if (r < 64) {
                Thread.onSpinWait();
            } else if (r < 96) {
                Thread.yield();
            } else {
                // park returns at once while the interrupt flag is set: clear it while we wait
                // and restore it when the record is accounted for (restoreInterrupt).
                if (Thread.interrupted()) {
                    interrupted = true;
                }
                // Register, re-check, park: the writer unparks registered producers whenever it
                // frees a cell (release). A free cell between our last look and the registration
                // is caught by the re-check; the timeout bounds anything else.
                ring.blocked.offer(Thread.currentThread());
                if (ring.pool.isEmpty() && !ring.closed) {
                    long nanos = Math.min(TimeUnit.MILLISECONDS.toNanos(1), 1000L << Math.min(10, r - 96));
                    LockSupport.parkNanos(this, nanos);
                }
            }
        }

        void restoreInterrupt() {
            if (interrupted || Thread.interrupted()) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ------------------------------------------------------------------ consumer

    /** @return the signal the consumer sleeps on */
    public WakeSignal signal() {
        return signal;
    }

    /**
     * Collects committed, unwritten bytes in write order into {@code batch} (consumer only).
     *
     * @param batch an empty batch
     * @return the number of ranges collected
     */
    public int collect(Batch batch) {
        Cell c = writeCell;
        while (batch.count < Batch.MAX_SEGMENTS) {
            // committed first, then claimed: see the package documentation.
            long cw = c.laCommitted();
            long kw = c.laClaimed();
            long limit = completeLimit(c, Cell.committedBytes(cw), Cell.bytes(kw), false);
            if (limit < 0) {
                break; // a claim is still being copied
            }
            if (limit > c.flushedBytes) {
                ByteBuffer v = c.view;
                v.limit((int) limit);
                v.position((int) c.flushedBytes);
                long records = Cell.committedRecords(cw);
                batch.add(v, records - c.flushedRecords);
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

    /** The writer reaches a cell through its link: start tracking its incarnation. */
    private static Cell arrive(Cell c) {
        c.writerGen = Cell.gen(c.laClaimed());
        c.flushedBytes = 0;
        c.flushedRecords = 0;
        return c;
    }

    /**
     * Bytes of {@code c} that are claimed and all committed, or {@code -1} while a claim is in
     * flight or the seal limit is not yet published.
     */
    private static long completeLimit(Cell c, long committedBytes, long claimedBytes, boolean volatileLoads) {
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
     * Returns the cells of a written batch to the pool (dedicated ones are dropped) and clears
     * the batch (consumer only).
     *
     * @param batch the batch whose ranges have been written or given up
     */
    public void release(Batch batch) {
        Cell u = batch.unaccount;
        if (u != null && !u.unaccounted) {
            u.unaccounted = true;
            freeCell(u);
        }
        for (int i = 0; i < batch.doneCount; i++) {
            Cell c = batch.done[i];
            if (c.dedicated) {
                if (!c.unaccounted) {
                    freeCell(c);
                }
            } else {
                pool.offerFirst(c);
            }
        }
        batch.clear();
        wakeBlocked();
    }

    private void wakeBlocked() {
        Thread t;
        while ((t = blocked.poll()) != null) {
            LockSupport.unpark(t);
        }
    }

    /**
     * Whether {@link #collect} would find something (consumer only). Uses volatile loads: it is
     * the writer's check between announcing sleep and parking (see {@link WakeSignal}).
     *
     * @return {@code true} if there are committed unwritten bytes or a cell to move past
     */
    public boolean hasWork() {
        Cell c = writeCell;
        long cw = c.lvCommitted();
        long kw = c.lvClaimed();
        long limit = completeLimit(c, Cell.committedBytes(cw), Cell.bytes(kw), true);
        if (limit < 0) {
            return false;
        }
        return limit > c.flushedBytes || (Cell.bytes(kw) >= c.capacity && c.lvNext() != null);
    }

    /**
     * Frees pooled cells until the ring is back at its initial size (consumer only, when idle).
     *
     * @return bytes released
     */
    public long trim() {
        long freed = 0;
        while (allocated.get() > bufferSize) {
            Cell c = pool.pollLast();
            if (c == null) {
                break;
            }
            freeCell(c);
            freed += c.capacity;
        }
        return freed;
    }

    /** Stops accepting records: producers get {@link AppendResult#CLOSED} from now on, once sealed. */
    public void close() {
        closed = true;
        wakeBlocked();
    }

    /** @return whether {@link #close} was called */
    public boolean isClosed() {
        return closed;
    }

    /**
     * After {@link #close}: seals the current cell for good so no claim can succeed any more
     * (consumer only). Fails while an installer holds the current cell's install rights; call again.
     *
     * @return {@code true} once sealed
     */
    public boolean sealForClose() {
        if (closeSealed != null) {
            return true;
        }
        Cell cur = (Cell) CURRENT.getAcquire(this);
        if (!cur.casInstallFlag(0, 1)) {
            return false; // an installer is publishing a successor: seal that one next time
        }
        // Holding the flag, nobody can replace cur. A claim bigger than any cell fails, and if it
        // is the crosser it publishes the limit; every claim that succeeded came before it.
        long w = cur.gaaClaim(CLOSE_CLAIM);
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
    public boolean isDrained() {
        Cell c = writeCell;
        if (closeSealed == null || c != closeSealed) {
            return false;
        }
        long limit = completeLimit(c, Cell.committedBytes(c.laCommitted()), Cell.bytes(c.laClaimed()), false);
        return limit >= 0 && c.flushedBytes == limit;
    }

    // ------------------------------------------------------------------ metrics

    /** @return bytes of all live cells (chain and pool) */
    public long allocatedBytes() {
        return allocated.get();
    }

    /** @return the most bytes ever allocated at once */
    public long highWaterBytes() {
        return highWater.get();
    }

    /** @return number of live cells */
    public long cellCount() {
        return cells.get();
    }

    /** @return the standard cell size */
    public int cellSize() {
        return cellSize;
    }

    /** @return the hard cap */
    public long maxBufferSize() {
        return maxBufferSize;
    }

    /**
     * @param severity a {@link Severity}
     * @return records of that severity dropped at the cap so far
     */
    public long discarded(int severity) {
        return discarded.get(severity);
    }
}
