package io.github.spool.ring;

import io.github.spool.AppendResult;
import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import io.github.spool.VirtualThreads;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.Objects;
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
    /**
     * Set once by close (or by the writer giving up); read by every producer per record, before
     * its claim (the cut: package documentation), so it shares the line of {@code current}.
     */
    volatile boolean closed;
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
 * argument are in the {@link io.github.spool.ring package documentation}, and so is how the ring
 * contains a producer that fails half-way (a claim never committed, an install flag never
 * released). Internal to Spool.
 */
public final class ManyToOneCellRing extends RingPadTail {

    /** Smallest and largest standard cell; records per incarnation must stay below 2^24. */
    public static final int MIN_CELL_SIZE = 4 << 10;
    public static final int MAX_CELL_SIZE = 1 << 20;

    /**
     * How long a claim may stay uncommitted, or an install flag stay held, before the writer
     * treats its producer as failed and recovers (package documentation, "Failure containment").
     * A live producer copies a record in microseconds; one second is far beyond any scheduling
     * delay while short enough that the stream resumes promptly after a failure.
     */
    public static final long DEFAULT_STALL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * The writer must also have looked this many times without seeing progress: one long pause
     * of the whole JVM (a GC) that stops the producer and the writer alike is no evidence.
     */
    static final int STALL_MIN_PASSES = 32;
    /**
     * How many stall bounds the writer waits before installing in place of an install flag's
     * holder that is a live thread. A live holder is on its way: between taking the flag and
     * linking a cell it only takes the pool's monitor, and a virtual thread that finds that
     * monitor taken is unmounted (JDK 24+) and queued behind every runnable virtual thread —
     * with 100,000 of them runnable, for over a second (seen in the parked-producers soak). A
     * holder that died (the flag left to no thread, or to a thread that ended) is recovered at
     * the bound itself.
     */
    static final int LIVE_HOLDER_STALLS = 10;

    /** The claim that seals a cell for good (close, give-up): larger than any cell. */
    private static final long CLOSE_CLAIM = 1L << 40;
    /**
     * How long a producer parked at the cap sleeps before it looks again on its own. Every event
     * that can let it on (a cell freed or grown, a recovery, close) wakes it, and the writer wakes
     * waiters whenever it finds cells pooled while producers wait ({@link #recoverStall}); this
     * only bounds a wake-up this code failed to foresee. Long, because each look costs: at one
     * second, 400 parked producers used 2–3% of a core just waking up to look.
     */
    static final long PARK_SAFETY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private static final VarHandle CURRENT;
    private static final VarHandle GROW_WANTED;

    static {
        try {
            CURRENT = MethodHandles.lookup().findVarHandle(RingCurrentField.class, "current", Cell.class);
            GROW_WANTED = MethodHandles.lookup().findVarHandle(ManyToOneCellRing.class, "growWanted", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int cellSize;
    private final long bufferSize;
    private final long maxBufferSize;
    private final boolean discardAllowed;
    private final int discardThreshold;
    private final long stallNanos;
    final WakeSignal signal = new WakeSignal();

    /** Free standard cells, most recently used first (warm in cache). Installers and writer. */
    final CellPool pool;
    /**
     * Bytes of every live cell (chain, pool, a producer's dedicated cell) plus reservations for
     * cells being allocated. Its monitor is the books' lock: {@code allocated}, {@code cells},
     * {@code highWater}, {@link Cell#counted} and the orphan list change only inside it. A monitor
     * rather than a CAS, because a producer's exception handler must be able to undo a reservation
     * with bytecodes only (a {@link StackOverflowError} may be what it handles), and because the
     * outcome of a block of field accesses is never ambiguous: a call around a CAS may throw after
     * the CAS happened. The books change once per cell, never per record.
     */
    final Books allocated = new Books();
    private final Books cells = new Books();
    private final Books highWater = new Books();
    private final AtomicLongArray discarded = new AtomicLongArray(Severity.COUNT);
    /** Accepted records (and bytes) the ring gave up: see {@link Cell#DEAD}. */
    private final AtomicLong lostRecords = new AtomicLong();
    private final AtomicLong lostBytes = new AtomicLong();
    /** Records whose copy threw, skipped by the writer (their callers got the throwable). */
    private volatile long failedCopies;
    /** Records refused because the ring was closed (stopping, or its writer gone). Slow path only. */
    private final AtomicLong refused = new AtomicLong();
    /** Producers that parked at the cap, and the time they waited there in all (ns). Slow path only. */
    final AtomicLong producerWaits = new AtomicLong();
    final AtomicLong producerWaitNanos = new AtomicLong();
    /** Times the writer recovered from a producer that failed mid-protocol. */
    private final AtomicLong stallRecoveries = new AtomicLong();
    /** Producers parked at the cap, and the waking of them. Slow path only. */
    final ParkingLot parked = new ParkingLot();
    /**
     * The thread that allocates cells ahead ({@link #growAhead}), or {@code null} until the writer
     * starts one: an installer that takes the last pooled cell unparks it rather than allocating
     * the next cell itself later, on a logging call.
     */
    private volatile Thread grower;
    /**
     * Set by an installer that took the last pooled cell (a volatile store: a bytecode, cheap in
     * the interpreter this path runs in), taken by the grower with a volatile getAndSet, so that a
     * request made while the grower serves another is kept for its next turn. The grower also
     * wakes for other work; only a request makes it allocate.
     */
    private volatile boolean growWanted;
    /**
     * Set by the grower while it polls {@link #growWanted} (it does while the ring grows): an
     * installer then only sets the flag, without the unpark — a futex wake that cost the logging
     * call that made it tens of µs on a 2 vCPU VM. Dekker with the grower: the installer stores
     * {@code growWanted} then loads this; the grower stores {@code false} here then takes
     * {@code growWanted} before it parks again (until the next second's middle, or untimed);
     * volatile accesses are totally ordered, so the grower sees the request or the installer sees
     * {@code false} and unparks it.
     */
    private volatile boolean growerPolls;
    /** The appender's name, for the JFR events of its producers' waits ({@link #name(String)}). */
    volatile String name = "";
    /** The writer collects nothing more (stop deadline passed, or it failed): see {@link #abandonAll}. */
    private volatile boolean writerGone;
    /**
     * Cells producers took (from the pool, or allocated for an oversized record) and could not
     * link because they failed: pushed by their exception handlers under the books' monitor
     * (bytecodes only), linked through {@link Cell#nextOrphan}; the writer gives them up
     * ({@link #settleOrphans}). A list, not one slot, so that two failing producers leak nothing.
     */
    private Cell orphans;
    /** Whether {@link #orphans} may be non-empty: a volatile hint for the writer's pass. */
    private volatile boolean orphansPending;

    // Consumer-private.
    private Cell writeCell;
    private Cell closeSealed;
    private final StallWatch stall = new StallWatch();
    /** Consumer-only, like the watch: written by recoverStall, read by the writer's report. */
    private String lastStall = "";
    private long[] holeScratch = new long[4];

    /**
     * Creates the ring with {@code bufferSize / cellSize} cells allocated up front.
     *
     * @param bufferSize       initial bytes (at least two cells)
     * @param maxBufferSize    hard cap in bytes
     * @param policy           what producers do at the cap
     * @param discardThreshold most severe {@link Severity} that {@link OverflowPolicy#DISCARD} drops
     */
    public ManyToOneCellRing(long bufferSize, long maxBufferSize, OverflowPolicy policy, int discardThreshold) {
        this(bufferSize, maxBufferSize, policy, discardThreshold, DEFAULT_STALL_NANOS);
    }

    /**
     * Creates the ring with {@code bufferSize / cellSize} cells allocated up front.
     *
     * @param bufferSize       initial bytes (at least two cells)
     * @param maxBufferSize    hard cap in bytes
     * @param policy           what producers do at the cap
     * @param discardThreshold most severe {@link Severity} that {@link OverflowPolicy#DISCARD} drops
     * @param stallNanos       how long a claim or install may make no progress before the writer
     *                         recovers from its producer ({@link #DEFAULT_STALL_NANOS})
     */
    public ManyToOneCellRing(long bufferSize, long maxBufferSize, OverflowPolicy policy, int discardThreshold,
                             long stallNanos) {
        this.cellSize = cellSizeFor(bufferSize);
        if (maxBufferSize < 2L * cellSize) {
            throw new IllegalArgumentException("maxBufferSize " + maxBufferSize + " must hold at least two cells of " + cellSize + " bytes");
        }
        if (stallNanos <= 0) {
            throw new IllegalArgumentException("stallNanos must be positive: " + stallNanos);
        }
        this.bufferSize = bufferSize;
        this.maxBufferSize = maxBufferSize;
        this.discardAllowed = policy == OverflowPolicy.DISCARD;
        this.discardThreshold = Severity.check(discardThreshold);
        this.stallNanos = stallNanos;
        long initial = Math.max(2, bufferSize / cellSize);
        this.pool = new CellPool((int) Math.min(initial, 1 << 16));
        Cell first = initialCell();
        for (long i = 1; i < initial; i++) {
            pool.offerLast(initialCell());
        }
        first.installer = null; // the one current, open cell; the ring reaches other threads through
        this.current = first;   // Thread.start or a volatile field, which publishes these stores
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

    /** Start-up cells: a failure here is a start-up error, so no pre-check and no fallback. */
    private Cell initialCell() {
        Cell c = new Cell(DirectMemory.allocateAtStart(cellSize), false);
        synchronized (allocated) {
            long now = allocated.value += cellSize;
            cells.value++;
            if (now > highWater.value) {
                highWater.value = now;
            }
        }
        return c;
    }

    /** A count in the books (see {@code allocated}): read without the lock, changed inside it. */
    static final class Books {
        volatile long value;

        long get() {
            return value;
        }
    }

    /**
     * Reserves {@code need} bytes under the cap. {@code alone}: a record too large to fit beside
     * even one other cell is admitted over the cap once at most one standard cell (the sealed one)
     * still counts, so the peak is then {@code cellSize + need}. A reservation counts as a cell
     * at once, so that nothing is left to count once the cell exists (only the high water mark
     * waits for the memory to be really there: {@link #noteHighWater}): the cell then owns the reservation ({@link Cell#counted}), and a handler that sees
     * no cell undoes it in the same monitor. Field accesses inside the books' monitor only: if
     * this throws, it threw on entry and reserved nothing.
     */
    private boolean tryReserve(long need, boolean alone) {
        synchronized (allocated) {
            long a = allocated.value;
            long after = a + need;
            if (after > maxBufferSize && !(alone && a <= cellSize)) {
                return false;
            }
            allocated.value = after;
            cells.value++;
            return true;
        }
    }

    /** Once a reserved cell exists: the high water mark counts memory really there, not a wish. */
    private void noteHighWater() {
        synchronized (allocated) {
            long a = allocated.value;
            if (a > highWater.value) {
                highWater.value = a;
            }
        }
    }

    /**
     * A cell of {@code size} bytes for a reservation already made, or {@code null} when the JVM
     * has no memory for it (the caller then gives the reservation back). Called inside the
     * growers' try blocks, whose handlers answer for the reservation.
     */
    private static Cell allocateCell(int size, boolean dedicated) {
        DirectMemory.Block b = DirectMemory.tryAllocate(size);
        if (b == null) {
            return null;
        }
        try {
            return new Cell(b, dedicated);
        } catch (OutOfMemoryError e) {
            b.free();
            return null;
        }
    }

    /**
     * Adds a new standard cell to the pool; {@code false} at the cap or when the JVM has no direct
     * memory for it. The grower does this ahead of need ({@link #growAhead}); a producer that
     * outruns it does it itself rather than wait for another thread — on a loaded machine that
     * wait is the other thread's scheduling delay, and DISCARD calls waited up to 0.8 s for it.
     * A producer may be anywhere in its stack here, so the handler gives back what it holds with
     * bytecodes only: the reservation until the cell exists (the leak of issue 31, item 10), then
     * the cell until it is pooled (to the orphan list). The reservation's outcome is never
     * ambiguous ({@link #tryReserve}), nor is the pooling's: {@code offerFirst} can only throw
     * before its store (its one call, the array's growth, comes first).
     */
    private boolean growIntoPool() {
        boolean reserved = false;
        Cell c = null;
        try {
            reserved = tryReserve(cellSize, false);
            if (!reserved) {
                return false;
            }
            c = allocateCell(cellSize, false);
            if (c == null) {
                synchronized (allocated) {
                    allocated.value -= cellSize;
                    cells.value--;
                }
                reserved = false;
                return false;
            }
            noteHighWater();
            pool.offerFirst(c);
            c = null; // pooled: the pool holds it now
            reserved = false;
            return true;
        } catch (Throwable t) {
            // Bytecodes only.
            if (c != null) {
                synchronized (allocated) {
                    c.nextOrphan = orphans;
                    orphans = c;
                }
                orphansPending = true;
            } else if (reserved) {
                synchronized (allocated) {
                    allocated.value -= cellSize;
                    cells.value--;
                }
            }
            throw t;
        }
    }

    /**
     * A dedicated cell for one oversized record: the producer that needs it allocates it (it is
     * made for that record alone, and the writer may be blocked in a write). Pooled cells are freed
     * first until the record fits. The producer may be deep in its stack, so every step that
     * holds something has a handler that gives it back with bytecodes only: a pooled cell taken
     * for freeing goes to the orphan list; a reservation not yet owned by a cell is taken back in
     * the books' monitor. From its construction the cell owns the reservation, and the caller's
     * handler (appendSlow) answers for it. Returns {@code null} at the cap or without memory.
     */
    private Cell growDedicated(int need) {
        Cell pooled = null;
        boolean reserved = false;
        Cell c = null;
        try {
            while (allocated.value + need > maxBufferSize) { // a volatile load, as a hint
                pooled = pool.pollLast();
                if (pooled == null) {
                    break;
                }
                freeCell(pooled);
                pooled = null;
            }
            reserved = tryReserve(need, need > maxBufferSize - cellSize);
            if (!reserved) {
                return null;
            }
            c = allocateCell(need, true);
            if (c == null) {
                synchronized (allocated) {
                    allocated.value -= need;
                    cells.value--;
                }
                reserved = false;
                return null;
            }
            noteHighWater();
        } catch (Throwable t) {
            // Bytecodes only. The pooled cell is sealed and written: the writer frees it.
            if (pooled != null) {
                synchronized (allocated) {
                    pooled.nextOrphan = orphans;
                    orphans = pooled;
                }
                orphansPending = true;
            }
            if (c != null) { // made, not handed over: to the writer, with its reservation
                synchronized (allocated) {
                    c.nextOrphan = orphans;
                    orphans = c;
                }
                orphansPending = true;
            } else if (reserved) { // the reservation got no cell: undo it
                synchronized (allocated) {
                    allocated.value -= need;
                    cells.value--;
                }
            }
            throw t;
        }
        return c; // one return after the handler: the caller's putfield takes it, nothing between
    }

    /**
     * Takes {@code c} out of the books unless someone did already; returns whether this call did.
     * Repeating it (a failure handler, then the writer) is harmless.
     */
    private boolean uncount(Cell c) {
        synchronized (allocated) {
            if (!c.counted) {
                return false;
            }
            c.counted = false;
            allocated.value -= c.capacity;
            cells.value--;
            return true;
        }
    }

    /**
     * Frees a cell no producer can copy into any more: its memory, then its bytes from the cap —
     * in that order, so that the memory really in use never exceeds the cap while another thread
     * reserves the bytes. Freeing twice (a failure handler left the cell to the writer after a
     * free that then threw) is harmless: the JDK's cleaner runs once, a closed arena stays closed.
     */
    void freeCell(Cell c) {
        c.memory.free();
        uncount(c);
    }

    /**
     * Forgets a cell a producer might still copy into (a given-up incarnation): it leaves the
     * cap's accounting, and its memory is left to the GC, which frees it only once no producer's
     * stack holds it.
     */
    private void dropCell(Cell c) {
        uncount(c);
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
     * @throws IndexOutOfBoundsException if the range is not within {@code src}, before anything
     *                                   is claimed
     */
    public AppendResult append(byte[] src, int offset, int length, int severity) {
        // Checked before claiming: a bad range must fail while it can still leave no trace.
        Objects.checkFromIndexSize(offset, length, src.length);
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
        // The cut (package documentation, "Close"): a volatile load before the claim. Once this
        // thread has read true it reads true ever after, so a producer told CLOSED is never told
        // ACCEPTED again, though the writer has not sealed the current cell yet.
        if (len == 0) {
            return closed ? AppendResult.CLOSED : AppendResult.ACCEPTED;
        }
        if (closed) {
            return refuse();
        }
        // Acquire load: pairs with the installer's release store of current, so the fresh
        // incarnation's reset fields are visible before we claim in it.
        Cell cur = (Cell) CURRENT.getAcquire(this);
        long claimLen = claimLength(cur, len);
        long word = attempt(cur, claimLen, array, buffer, offset, len);
        long start = word & Cell.BYTES_MASK;
        if (start + claimLen <= cur.capacity) {
            return AppendResult.ACCEPTED;
        }
        int gen = Cell.gen(word);
        // The crosser of a standard record is the natural installer of the successor: it takes the
        // install flag here, in compiled code. In a call it would run in the interpreter (attempt:
        // C2 does not inline what runs once per cell), 5 µs for this CAS alone from cold caches.
        // Then, as advance does, it checks that the flag is this incarnation's: a crosser delayed
        // since its seal may find the cell recycled and current again.
        Thread me = null;
        try {
            Thread holder = null;
            if (start <= cur.capacity && len <= cellSize) {
                me = Thread.currentThread();
                if (Cell.INSTALLER.compareAndSet(cur, (Object) null, me)) {
                    long w = cur.claimed; // volatile load
                    if (Cell.gen(w) == gen && Cell.bytes(w) >= cur.capacity) {
                        holder = me;
                    } else {
                        cur.installer = null; // volatile store: release is what it needs
                    }
                }
            }
            // Kept out of this method, so that it stays small enough for the JIT to inline it into
            // the adapters' call (HotSpot's FreqInlineSize is 325 bytecodes).
            return appendSlow(cur, gen, holder, array, buffer, offset, len, severity);
        } catch (Throwable t) {
            // Bytecodes only (package documentation, "Failure containment"): the CAS may have
            // taken the flag inside a call that then threw, or appendSlow may have failed on
            // entry. The holder's name says whether the flag is still ours; unlinked, we let go.
            if (me != null && cur.installer == me && cur.next == null) {
                cur.installer = null;
            }
            throw t;
        }
    }

    /** A record refused because the ring is closed: counted (slow path only). */
    private AppendResult refuse() {
        refused.incrementAndGet();
        return AppendResult.CLOSED;
    }

    /** An oversized record never fits: it claims more than the cell, to seal it for a dedicated successor. */
    private long claimLength(Cell cur, int len) {
        return len <= cur.capacity && len <= cellSize ? len : (long) cur.capacity + 1;
    }

    /**
     * One attempt in {@code cur}: claims {@code claimLen} bytes; if they fit, copies the record and
     * commits it; if this claim is the one that crosses the cell's end, publishes the seal.
     * Returns the claim word before the add: the record went in if and only if
     * {@code start + claimLen <= cur.capacity}.
     *
     * <p>No method call may come between the claim and the handlers below (Cell, "recordHole"):
     * a {@link StackOverflowError} is thrown on method entry and lands at the deepest call of an
     * append — the copy — so the handlers use bytecodes only. A copy or commit that throws leaves
     * its range as a recorded hole that the writer skips; a crosser that cannot reach its CAS
     * publishes the seal with a volatile store.
     */
    private long attempt(Cell cur, long claimLen, byte[] array, ByteBuffer buffer, int offset, int len) {
        long word = cur.gaaClaim(claimLen);
        long start = word & Cell.BYTES_MASK;
        if (start + claimLen <= cur.capacity) {
            try {
                copy(cur, start, array, buffer, offset, len);
            } catch (Throwable t) {
                synchronized (cur) {
                    int n = cur.holeCount;
                    long[] h = cur.holes;
                    if (n == h.length) {
                        long[] g = new long[2 * n]; // newarray and a loop: no method call
                        for (int i = 0; i < n; i++) {
                            g[i] = h[i];
                        }
                        cur.holes = h = g;
                    }
                    h[n] = start << 32 | len;
                    cur.holeCount = n + 1;
                    cur.abortedBytes += len;
                }
                throw t;
            }
            // Outside the handler: an overflow inside the VarHandle call may come before or
            // after its CAS (JDK 25's interpreter runs frames after it), and the handler could not
            // tell — a hole recorded for a committed range would count it twice. Before the CAS,
            // the claim stays open and the writer's stall recovery gives the cell up.
            if (cur.gaaCommit(len) < 0) {
                lostLate(len); // the writer gave this cell up before our commit: we count ourselves
            }
            try {
                signal.signal();
            } catch (Throwable t) {
                // Committed: an overflow here must not tell the caller its record failed (install).
            }
            return word;
        }
        if (start <= cur.capacity) {
            // We are the crosser: only we can publish this incarnation's seal, and until we do
            // the writer cannot finish the cell, so it cannot be recycled under us.
            int gen = (int) ((word >>> Cell.BYTES_BITS) & Cell.GEN_MASK);
            long tag = (long) gen << Cell.BYTES_BITS;
            try {
                // The CAS is written here, not called through Cell.casSeal: this branch runs once
                // per cell, and HotSpot's C2 (JDK 17) does not inline a callee run fewer than
                // MinInliningThreshold (250) times, so a call would leave this compiled method for
                // the interpreter, whose VarHandle CAS costs several µs from cold caches. The
                // VarHandle's own linkage is always inlined.
                if (Cell.SEAL.compareAndSet(cur, tag | Cell.UNSEALED, tag | start)) {
                    // Only a writer asleep without a timeout needs waking (one volatile load);
                    // a napping one looks again within its nap. The installer wakes it when the
                    // pool runs dry (install), before any producer has to wait for a free cell.
                    signal.signal();
                }
            } catch (Throwable t) {
                // A StackOverflowError on the way to the CAS: publish with a volatile store (a
                // bytecode, not a call), safe by the argument above.
                cur.seal = tag | start;
                throw t;
            }
        }
        return word;
    }

    /**
     * After a failed claim on {@code sealed}: install, wait or discard, and claim again until done.
     * {@code holder}: this producer's thread if it crossed the cell's end and holds its install
     * flag for incarnation {@code gen} (append0), else {@code null}.
     *
     * <p>This runs once per cell, so for the first minutes of a JVM it runs in the interpreter,
     * where every call, allocation and VarHandle operation costs microseconds from cold caches: a
     * cell switch cost its producer 60 µs (median) at 50,000 events/s while it went through
     * {@link #advance} with a {@code Waiter}, a {@code ConcurrentLinkedDeque} and an {@code unpark}
     * of the writer. The common case — the crosser finds a pooled cell — now installs it at once.
     *
     * <p>Whatever throws on the way (package documentation, "Failure containment"), the handler
     * gives back what this producer holds, with bytecodes only: the install flag, a cell taken
     * from the pool and not linked, a dedicated cell allocated and not installed.
     */
    private AppendResult appendSlow(Cell sealed, int gen, Thread holder, byte[] array, ByteBuffer buffer,
                                    int offset, int len, int severity) {
        boolean claimAgain = false;
        Cell fresh = null;
        Waiter waiter = null;
        AppendResult result = null;
        try {
            if (holder != null) {
                fresh = closed ? null : pool.pollFirst();
                if (fresh == null) {
                    // Closed (advance counts the refusal) or nothing pooled (advance grows the ring or waits).
                    sealed.installer = null; // volatile store: release is what it needs
                } else {
                    result = install(sealed, fresh, holder, array, buffer, offset, len);
                    fresh = null; // linked, or given up by install itself
                    if (result != null) {
                        return result;
                    }
                    claimAgain = true; // the writer linked a successor itself (install)
                }
            }
            for (;;) {
                if (!claimAgain) {
                    if (waiter == null) {
                        waiter = new Waiter(Thread.currentThread(), len);
                    }
                    result = advance(sealed, gen, array, buffer, offset, len, severity, waiter);
                    if (result != null) {
                        return result;
                    }
                }
                claimAgain = false;
                Cell cur = current; // volatile load (stronger than append0's acquire; bytecode, not a call)
                long claimLen = claimLength(cur, len);
                long word = attempt(cur, claimLen, array, buffer, offset, len);
                if ((word & Cell.BYTES_MASK) + claimLen <= cur.capacity) {
                    result = AppendResult.ACCEPTED;
                    return result;
                }
                sealed = cur;
                gen = Cell.gen(word);
            }
        } catch (Throwable t) {
            // Bytecodes only. The crosser's flag and pooled cell (install failed before linking it,
            // or on entry): let go of the flag if still ours and unlinked, leave the cell to the
            // writer. A dedicated cell not installed: to the writer too (its reservation is its own).
            if (holder != null && sealed.installer == holder && sealed.next == null) {
                sealed.installer = null;
            }
            if (fresh != null && sealed.next != fresh) {
                synchronized (allocated) {
                    fresh.nextOrphan = orphans;
                    orphans = fresh;
                }
                orphansPending = true;
            }
            if (waiter != null) {
                Cell d = waiter.dedicated;
                if (d != null) {
                    waiter.dedicated = null;
                    synchronized (allocated) {
                        d.nextOrphan = orphans;
                        orphans = d;
                    }
                    orphansPending = true;
                }
            }
            throw t;
        } finally {
            if (waiter != null) {
                try {
                    waiter.finish(this, result == AppendResult.ACCEPTED);
                } catch (Throwable t) {
                    // The outcome is decided — returned, or thrown from above — and a throw here
                    // (an overflow in finish's calls) must not turn an accepted record into an
                    // exception. Bytecodes only: a dedicated cell finish could not free goes to
                    // the writer; the rest finish does is bookkeeping a waker tolerates missing.
                    Cell d = waiter.dedicated;
                    if (d != null) {
                        waiter.dedicated = null;
                        synchronized (allocated) {
                            d.nextOrphan = orphans;
                            orphans = d;
                        }
                        orphansPending = true;
                    }
                }
            }
        }
    }

    private void lostLate(int len) {
        lostRecords.incrementAndGet();
        lostBytes.addAndGet(len);
    }

    /**
     * Slow path after a failed claim on {@code sealed} (incarnation {@code gen}): install its
     * successor, wait, or discard. Returns {@code null} when the producer should claim again.
     */
    private AppendResult advance(Cell sealed, int gen, byte[] array, ByteBuffer buffer, int offset, int len,
                                 int severity, Waiter waiter) {
        boolean oversized = len > cellSize;
        Thread me = waiter.thread;
        for (;;) {
            if (closed) {
                return refuse();
            }
            // Both reads are volatile field loads, stronger than the acquire they need, and
            // bytecodes rather than VarHandle calls: this loop is where waiters spin while another
            // producer installs, and with many producers on few cores it runs in the interpreter,
            // where a VarHandle operation costs microseconds. The flag is read before the CAS
            // (test-and-test-and-set): while the installer holds it, a CAS could only fail, and
            // each failed CAS would still take the installer's cache line away from it.
            if (current != sealed) {
                return null; // someone installed a successor: claim there
            }
            boolean nothingToInstall = false;
            if (sealed.installer == null) {
                Cell fresh = null;
                try {
                    if (Cell.INSTALLER.compareAndSet(sealed, (Object) null, me)) {
                        // We hold the install rights; make sure our view is not from an older incarnation.
                        long w = sealed.claimed; // volatile load
                        if (Cell.gen(w) != gen || Cell.bytes(w) < sealed.capacity) {
                            sealed.installer = null; // volatile store: release is what it needs
                            return null;
                        }
                        if (oversized) {
                            fresh = waiter.dedicated;
                            waiter.dedicated = null;
                        } else {
                            fresh = pool.pollFirst();
                        }
                        if (fresh != null) {
                            AppendResult r = install(sealed, fresh, me, array, buffer, offset, len);
                            fresh = null; // linked, or given up by install itself
                            return r;
                        }
                        // Nothing to install. Let go of the flag before anything slow: other
                        // producers must be free meanwhile to install what is freed, or to discard.
                        sealed.installer = null;
                        nothingToInstall = true;
                    }
                } catch (Throwable t) {
                    // Bytecodes only, as in appendSlow: the flag if still ours and unlinked, the
                    // cell we took if install did not link it.
                    if (sealed.installer == me && sealed.next == null) {
                        sealed.installer = null;
                    }
                    if (fresh != null && sealed.next != fresh) {
                        synchronized (allocated) {
                            fresh.nextOrphan = orphans;
                            orphans = fresh;
                        }
                        orphansPending = true;
                    }
                    throw t;
                }
                if (nothingToInstall) {
                    if (oversized) {
                        AppendResult r = growForOversized(len, severity, waiter);
                        if (r != null) {
                            return r;
                        }
                        if (waiter.dedicated != null) {
                            continue; // take the flag again and install it
                        }
                    } else {
                        long seen = allocated.value; // before trying: a free after it wakes us (Waiter.idle)
                        if (growIntoPool()) {
                            // Producers that parked while we grew wait for a cell too: this one
                            // (installed next, by us or by them) may have room for them.
                            parked.wake(cellSize);
                            continue; // take the flag again and install it (or whatever the pool has)
                        }
                        if (discardable(severity)) {
                            return discard(severity); // at the cap (or no memory to grow): drop
                        }
                        waiter.allocatedSeen = seen;
                    }
                }
            }
            // Here we are at the cap and may wait (BLOCK, or a record above the threshold), or
            // another producer holds the flag: it is installing a cell that may have room for
            // us, within a few hundred nanoseconds unless it is descheduled. Even a
            // discardable record waits for that — dropping is for when this producer has itself
            // found the cap — and an installer that never finishes is recovered by the writer
            // after its stall bound.
            if (!waiter.idle(this, sealed, nothingToInstall)) {
                // The writer thread itself, appending (a status message routed back to its own
                // appender): it would wait for itself. Drop the record, counted.
                return discard(severity);
            }
        }
    }

    /**
     * Holding {@code sealed}'s install flag (as {@code me}) with a cell to install: reincarnate it
     * with our record pre-claimed at offset 0, link it, publish it, open its flag, then copy the
     * record. Returns {@code null} when the writer linked a successor first (the cell is then
     * given up here). The exception handler deals with a cell it linked, with field stores only
     * (no method calls: a {@link StackOverflowError} may be what it handles); a cell it did not
     * link, and the flag, are the caller's to give back — the caller cannot tell a throw on entry
     * from one inside, but it can read the link.
     */
    private AppendResult install(Cell sealed, Cell fresh, Thread me, byte[] array, ByteBuffer buffer, int offset, int len) {
        boolean linked = false;
        try {
            fresh.reincarnate(len); // pre-claims [0, len) for us
            if (!sealed.casNext(fresh)) {
                // The writer linked a successor itself: we held the flag past its stall bound.
                // Our incarnation was never published, but a stale producer may have claimed in it.
                giveUp(fresh, 0, 0, 0);
                dropCell(fresh);
                return null;
            }
            linked = true;
            // Volatile stores (stronger than the release they need; bytecodes, not calls, for the
            // interpreter: appendSlow): current publishes the reset incarnation, then the flag
            // opens it to the next installer. The sealed cell's flag stays taken for good, by a
            // sentinel rather than our thread, which a pooled cell must not keep reachable.
            current = fresh;
            fresh.installer = null;
            sealed.installer = Cell.SHUT;
            // Volatile load after the volatile link (Dekker with abandonAll's store of writerGone
            // and its volatile loads of next): either the writer's final walk saw this link, or we
            // see that it is gone and give the cell up ourselves.
            if (writerGone) {
                giveUp(fresh, 0, 0, 0);
                sealFor(fresh);
            }
            copy(fresh, 0, array, buffer, offset, len);
        } catch (Throwable t) {
            if (linked || sealed.next == fresh) { // a volatile read: did the CAS happen before the throw?
                // Linked. Publish it if that did not happen yet — only from sealed, never moving
                // current back past a successor installed since — open its flag while it is
                // current (a second installer that this lets in loses the link CAS), and leave our
                // pre-claimed range as a hole. Volatile field stores, no method calls.
                if (current == sealed) {
                    current = fresh;
                }
                if (current == fresh && fresh.installer == Cell.SHUT) { // not opened yet (never someone else's)
                    fresh.installer = null;
                }
                if (sealed.installer == me) {
                    sealed.installer = Cell.SHUT;
                }
                synchronized (fresh) {
                    int n = fresh.holeCount;
                    long[] h = fresh.holes;
                    if (n == h.length) {
                        long[] g = new long[2 * n]; // newarray and a loop: no method call
                        for (int i = 0; i < n; i++) {
                            g[i] = h[i];
                        }
                        fresh.holes = h = g;
                    }
                    h[n] = len; // start 0
                    fresh.holeCount = n + 1;
                    fresh.abortedBytes += len;
                }
            }
            throw t;
        }
        if (fresh.gaaCommit(len) < 0) { // outside the handler, as in attempt()
            lostLate(len);
        }
        try {
            if (pool.isEmpty()) {
                poolRanDry();
            } else {
                signal.signal();
            }
        } catch (Throwable t) {
            // The record is in: a throw (an overflow) must not tell its caller otherwise. What is
            // missed is a wake-up — the writer sleeps a second at most, and the next commit wakes
            // it — or a request to grow ahead, which the next producer to find the pool empty
            // makes up for by growing itself.
        }
        return AppendResult.ACCEPTED;
    }

    /**
     * Holding no flag, with no dedicated cell for an oversized record: allocate one, or drop the
     * record (counted), or return {@code null} to wait for room under the cap.
     */
    private AppendResult growForOversized(int len, int severity, Waiter waiter) {
        waiter.allocatedSeen = allocated.value; // before trying: a free after it wakes us (Waiter.idle)
        waiter.dedicated = growDedicated(len); // one putfield after the call: nothing can throw between
        if (waiter.dedicated != null) {
            return null;
        }
        if (discardable(severity)) {
            return discard(severity);
        }
        if (allocated.value <= cellSize) {
            // Nothing in the ring left to wait for. The cap may have refused the grow only
            // because another producer's dedicated cell still counted, freed since: grow
            // again. Refused with nothing else allocated, the JVM has no direct memory for
            // this record and waiting would never end: drop it, counted. (Before the second
            // try, a BLOCK producer lost records here in ContentionTest's 8 KiB ring.)
            waiter.dedicated = growDedicated(len);
            if (waiter.dedicated == null && allocated.value <= cellSize) {
                return discard(severity);
            }
        }
        return null;
    }

    /**
     * An installer took the last free cell. Below the cap, the grower allocates the next one now,
     * while this cell fills, and then wakes the writer; otherwise the writer is woken even from a
     * nap, so that it frees the cells it has written before a producer needs one. One unpark
     * either way, and not at every cell: on a 2 vCPU VM an unpark cost the producer 25–35 µs.
     */
    private void poolRanDry() {
        Thread g = grower;
        if (g != null && allocated.get() + cellSize <= maxBufferSize) {
            growWanted = true; // before the load below: see growerPolls
            if (!growerPolls) {
                LockSupport.unpark(g);
            }
            // The grower wakes the writer only once it has allocated; a writer asleep without a
            // timeout is this producer's to wake, as after any commit (WakeSignal's Dekker).
            signal.signal();
        } else {
            signal.wakeNow();
        }
    }

    /**
     * Registers the thread that runs {@link #growAhead} when unparked (the writer starts it at the
     * first records it collects).
     *
     * @param thread the grower, or {@code null} when it has stopped
     */
    public void grower(Thread thread) {
        grower = thread;
    }

    /**
     * The grower says whether it polls for requests (see {@code growerPolls}); it stores
     * {@code false} before it takes the last request and parks.
     *
     * @param polls whether installers may skip the unpark
     */
    public void growerPolls(boolean polls) {
        growerPolls = polls;
    }

    /**
     * The grower's check: whether an installer asked for a cell since the last call (and clears
     * the request).
     *
     * @return whether {@link #growAhead} is wanted
     */
    public boolean takeGrowRequest() {
        return (boolean) GROW_WANTED.getAndSet(this, false);
    }

    /**
     * The grower's work: allocates one standard cell under the cap when none is pooled, so that
     * the next installer takes it instead of allocating it — an allocation cost the logging call
     * that made it 130–225 µs (the direct buffer is zeroed, and each of its pages faults once).
     * A producer that outruns the grower still allocates itself ({@link #growIntoPool}), and
     * producers parked meanwhile are woken for the new cell.
     *
     * @return whether a cell was added
     */
    public boolean growAhead() {
        if (!pool.isEmpty() || closed) {
            return false;
        }
        if (!growIntoPool()) {
            return false;
        }
        parked.wake(cellSize);
        return true;
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
            if (c.abandoned) {
                Cell next = c.laNext();
                if (next == null) {
                    break;
                }
                dropCell(c);
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
        failedCopies += skipped; // writer-only read-modify-write of a volatile: one writer
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
     * Returns the cells of a written batch to the pool (dedicated ones are freed) and clears
     * the batch (consumer only).
     *
     * @param batch the batch whose ranges have been written or given up
     */
    public void release(Batch batch) {
        Cell u = batch.unaccount;
        long freed = 0;
        if (u != null && !u.unaccounted) {
            u.unaccounted = true;
            freeCell(u); // its one record is out and no claim can succeed in it
            freed += u.capacity;
        }
        for (int i = 0; i < batch.doneCount; i++) {
            Cell c = batch.done[i];
            if (c.dedicated) {
                if (!c.unaccounted) {
                    freeCell(c);
                    freed += c.capacity;
                }
            } else {
                pool.offerFirst(c); // then the waiters' queue: Dekker with Waiter.idle's re-check
                freed += c.capacity;
            }
        }
        batch.clear();
        if (freed > 0) {
            parked.wake(freed);
        }
    }

    /**
     * Names the ring after its appender, for diagnostics (JFR's {@code ProducerWait} events).
     *
     * @param name the appender's name
     */
    public void name(String name) {
        this.name = name;
    }

    /**
     * Whether producers are parked at the cap now: a hint, racy by nature (the waiters' queue's
     * {@code isEmpty}, volatile loads of its head). When others wait, a new call will most likely
     * wait too: {@link #virtualCallerWouldPark()} reads it for virtual threads appending from a
     * borrowed scratch buffer ({@code OwnedThreadLocal#acquire()}). A stale answer costs a copy,
     * or a scratch held while parked, never correctness.
     *
     * @return {@code true} if some producer waits for room
     */
    public boolean producersWaiting() {
        return !parked.isEmpty();
    }

    /**
     * Whether the calling thread is a virtual thread whose append will most likely park at the
     * cap ({@link #producersWaiting()}): it should then copy its record out of any borrowed
     * scratch and give the scratch back before appending. Always {@code false} for platform
     * threads, which keep their own scratch.
     *
     * @return {@code true} if a virtual caller should not park holding borrowed scratch
     */
    public boolean virtualCallerWouldPark() {
        return VirtualThreads.current() && !parked.isEmpty();
    }

    /**
     * Whether {@link #collect} would find something (consumer only). Uses volatile loads: it is
     * the writer's check between announcing sleep and parking (see {@link WakeSignal}).
     *
     * @return {@code true} if there are committed unwritten bytes or a cell to move past
     */
    public boolean hasWork() {
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

    // ------------------------------------------------------------------ failure containment

    /**
     * Consumer, on a pass that collected nothing: recovers when a producer failed half-way
     * through the protocol (package documentation, "Failure containment"). Nothing happens until
     * the same stuck state has been seen for {@code stallNanos} and {@link #STALL_MIN_PASSES}
     * passes. Stuck states: the cell being written has a claim that is never committed (or a
     * seal limit never published) — the cell is given up; it is sealed and written but nobody
     * installs a successor while its install flag stays taken — the writer installs one;
     * {@code current} is linked past but was never republished — the writer republishes it.
     *
     * @param nowNanos {@link System#nanoTime()}
     * @return {@code true} if a recovery was made
     */
    public boolean recoverStall(long nowNanos) {
        settleOrphans();
        if (!pool.isEmpty() && !parked.isEmpty()) {
            // Producers parked while cells are free: a wake-up went missing somewhere. One check
            // per idle pass here, rather than every parked producer looking on a timer.
            parked.wake((long) pool.size() * cellSize);
        }
        Cell c = writeCell;
        long cw = c.lvCommitted();
        long done = Cell.committedBytes(cw) + c.abortedBytes;
        long kw = c.lvClaimed();
        Cell next = c.lvNext();
        Cell cur = (Cell) CURRENT.getVolatile(this);
        Cell curNext = cur.lvNext();
        boolean incomplete = !c.abandoned && completeLimit(c, done, Cell.bytes(kw), true) < 0;
        boolean orphaned = !closed && next == null && c.lvInstaller() != null
                && (c.abandoned || (Cell.bytes(kw) > c.capacity && !incomplete && c.flushedBytes == done));
        boolean staleCurrent = curNext != null;
        if (!incomplete && !orphaned && !staleCurrent) {
            stall.clear();
            return false;
        }
        Object holder = orphaned && !incomplete && !staleCurrent ? c.lvInstaller() : null;
        long bound = holder instanceof Thread && ((Thread) holder).isAlive() ? LIVE_HOLDER_STALLS * stallNanos : stallNanos;
        if (!stall.stuck(c, cw, kw, next, cur, curNext, nowNanos, bound)) {
            return false;
        }
        if (staleCurrent) {
            // An installer linked a successor and stopped before publishing it.
            Cell t = curNext;
            for (Cell n; (n = t.lvNext()) != null; ) {
                t = n;
            }
            if (CURRENT.compareAndSet(this, cur, t)) {
                cur.installer = Cell.SHUT; // its holder linked past it: taken for good, by nobody's thread
                t.srInstallerOpen();
                parked.wake(t.capacity);
            }
        } else if (incomplete) {
            abandon(c);
        } else {
            forceInstall(c);
        }
        lastStall = staleCurrent ? "a successor linked but never published"
                : incomplete ? "a claim never committed"
                : "an install flag held by " + (holder instanceof Thread ? "a thread that ended" : "no thread");
        stallRecoveries.incrementAndGet();
        return true;
    }

    /** @return what the last stall recovery found stuck, for its report (consumer only) */
    public String lastStallRecovery() {
        return lastStall;
    }

    /** @return whether {@link #recoverStall} is watching a state that may be stuck (consumer only) */
    public boolean stallPending() {
        return stall.pending();
    }

    /** Gives up the cell being written: seals it if needed, and counts what it cannot write. */
    private void abandon(Cell c) {
        sealFor(c);
        giveUp(c, c.flushedRecords, c.flushedBytes, c.flushedHoleBytes);
        c.abandoned = true;
    }

    /** Seals {@code c} for good with a claim larger than any cell (if not sealed yet). */
    private static void sealFor(Cell c) {
        if (Cell.bytes(c.lvClaimed()) <= c.capacity) {
            long w = c.gaaClaim(CLOSE_CLAIM);
            long start = Cell.bytes(w);
            if (start <= c.capacity) {
                c.casSeal(Cell.gen(w), start);
            }
        }
    }

    /**
     * Sets {@link Cell#DEAD} on {@code c} and counts every record committed before it, beyond the
     * {@code flushedRecords} already collected, as lost. Records committed afterwards count
     * themselves ({@link #fill}).
     */
    private void giveUp(Cell c, long flushedRecords, long flushedBytes, long flushedHoleBytes) {
        long before = c.casDead();
        if (before >= 0) {
            lostRecords.addAndGet(Cell.committedRecords(before) - flushedRecords);
            lostBytes.addAndGet(Cell.committedBytes(before) - (flushedBytes - flushedHoleBytes));
        }
    }

    /** The writer installs a successor for {@code sealed}, whose installer went silent. */
    private void forceInstall(Cell sealed) {
        Cell fresh = pool.pollFirst();
        if (fresh == null && growIntoPool()) {
            fresh = pool.pollFirst();
        }
        if (fresh == null) {
            return; // nothing to install now; the next bound tries again
        }
        fresh.reincarnate(0);
        if (!sealed.casNext(fresh)) {
            giveUp(fresh, 0, 0, 0); // the installer was alive after all and linked its own
            dropCell(fresh);
            return;
        }
        CURRENT.setRelease(this, fresh);
        // The silent holder's flag stays taken for good, by a sentinel: a holder that wakes up
        // sees the link and lets go of nothing (its handlers check next), and the pooled cell
        // does not keep its thread reachable.
        sealed.installer = Cell.SHUT;
        fresh.srInstallerOpen();
        parked.wake(fresh.capacity);
    }

    /**
     * Gives up the cells failed producers left behind ({@code orphans}; consumer only). A cell
     * that was re-opened (its claim word within capacity) may have taken stale producers' claims
     * in an incarnation never published: they are counted lost and its memory is left to the GC.
     * A cell still sealed as it was in the pool (the installer failed inside reincarnate, before
     * the CAS that re-opens it, or it was taken to be freed) is fully written, and its committed
     * word may still count its last incarnation's records, written long ago: counting them lost
     * would count them twice; no claim can land in it, so it is freed. Both are idempotent
     * ({@link Cell#DEAD}, {@link Cell#counted}), should a cell be given up twice.
     */
    private void settleOrphans() {
        if (!orphansPending) {
            return;
        }
        orphansPending = false; // before taking the list: a push after the take sets it again
        Cell o;
        synchronized (allocated) {
            o = orphans;
            orphans = null;
        }
        long freed = 0;
        while (o != null) {
            Cell n = o.nextOrphan;
            o.nextOrphan = null;
            if (Cell.bytes(o.lvClaimed()) <= o.capacity) {
                giveUp(o, 0, 0, 0);
                dropCell(o);
            } else {
                freeCell(o);
            }
            freed += o.capacity;
            o = n;
        }
        if (freed > 0) {
            parked.wake(freed);
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
    public void abandonAll() {
        closed = true;
        // Volatile store, then volatile loads of next in the walk: Dekker with install().
        writerGone = true;
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
        parked.wakeAll();
    }

    /** Stops accepting records: producers get {@link AppendResult#CLOSED} from now on, once sealed. */
    public void close() {
        closed = true;
        parked.wakeAll();
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
        if (!cur.casInstaller(Cell.CLOSER)) {
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
        if (c.abandoned) {
            return true;
        }
        long done = Cell.committedBytes(c.laCommitted()) + c.abortedBytes;
        long limit = completeLimit(c, done, Cell.bytes(c.laClaimed()), false);
        return limit >= 0 && c.flushedBytes == limit;
    }

    // ------------------------------------------------------------------ tests

    /** The current cell (tests that play a producer failing half-way through the protocol). */
    Cell currentCell() {
        return (Cell) CURRENT.getAcquire(this);
    }

    /** @return the pool (tests that make a producer fail inside it) */
    CellPool pool() {
        return pool;
    }

    /** Takes a pooled cell, as an installer does (tests). */
    Cell takePooled() {
        return pool.pollFirst();
    }

    /** Leaves {@code c} as an installer's handler does when it failed before linking it (tests). */
    void leaveOrphan(Cell c) {
        synchronized (allocated) {
            c.nextOrphan = orphans;
            orphans = c;
        }
        orphansPending = true;
    }

    /** @return the protocol state the writer sees, for a failing test's message */
    String describeState() {
        Cell c = writeCell;
        Cell cur = (Cell) CURRENT.getVolatile(this);
        return "writeCell{cap=" + c.capacity + " claimed=" + Long.toHexString(c.lvClaimed()) + " committed=" + Long.toHexString(c.lvCommitted())
                + " seal=" + Long.toHexString(c.seal) + " flag=" + (c.lvInstaller() != null) + " next=" + (c.lvNext() != null)
                + " flushed=" + c.flushedBytes + " writerGen=" + c.writerGen + " abandoned=" + c.abandoned + " dedicated=" + c.dedicated
                + "} current==writeCell:" + (cur == c) + " current{claimed=" + Long.toHexString(cur.lvClaimed()) + " flag="
                + (cur.lvInstaller() != null) + " next=" + (cur.lvNext() != null) + "} pool=" + pool.size() + " allocated=" + allocated.get()
                + " stallPending=" + stall.pending() + " passes=" + stall.passes() + " recoveries=" + stallRecoveries.get()
                + " failedCopies=" + failedCopies + " aborted=" + c.abortedBytes + " holes=" + c.holeCount + " closed=" + closed;
    }

    /** @return producers registered as parked at the cap (tests) */
    int waiting() {
        return parked.size();
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

    /** @return accepted records the ring gave up (a producer that failed mid-record, a writer that stopped) */
    public long lostRecords() {
        return lostRecords.get();
    }

    /** @return bytes of {@link #lostRecords()} */
    public long lostBytes() {
        return lostBytes.get();
    }

    /** @return records whose copy threw, skipped by the writer (never accepted: their callers got the throwable) */
    public long failedCopies() {
        return failedCopies;
    }

    /** @return records refused ({@link AppendResult#CLOSED}) because the ring was closed */
    public long refused() {
        return refused.get();
    }

    /** @return producers that parked at the cap since the ring was made (each wait counted once, when it ends) */
    public long producerWaits() {
        return producerWaits.get();
    }

    /** @return the time those producers waited at the cap in all, in ns */
    public long producerWaitNanos() {
        return producerWaitNanos.get();
    }

    /** @return recoveries from producers that failed half-way through the protocol */
    public long stallRecoveries() {
        return stallRecoveries.get();
    }

    // ------------------------------------------------------------------ end of the writer

    /**
     * The writer has ended (consumer only, its last act): frees now, not at some later GC, the
     * memory of every cell no producer can copy into any more, so that a stopped appender gives
     * its direct memory back deterministically (with {@code -XX:+DisableExplicitGC} a reconfigure
     * loop otherwise ran out of it). Those cells are the pooled ones (sealed and written: a stale
     * claim in them fails, as for {@link #trim}) and, once the ring has drained, the cell it was
     * sealed in for the close: every claim in it is committed and written, and its install flag
     * stays taken, so no installer can re-open it. A ring the writer gave up keeps its chain: a
     * producer may still be copying into a given-up incarnation, which {@link #dropCell} leaves
     * to the GC, and so are cells a producer grows or links after this. Orphans are settled first,
     * as on an idle pass.
     *
     * @return bytes freed
     */
    public long freeAll() {
        // Cells failed producers left since the writer's last idle pass: a writer busy until it
        // stopped never settled them, and they stayed counted against the cap for good.
        settleOrphans();
        long freed = 0;
        for (Cell c; (c = pool.pollLast()) != null; ) {
            freeCell(c);
            freed += c.capacity;
        }
        Cell c = writeCell;
        if (closeSealed == c && isDrained() && !c.abandoned && !c.unaccounted) {
            c.unaccounted = true; // a dedicated cell released already is marked so: never freed twice
            freeCell(c);
            freed += c.capacity;
        }
        return freed;
    }
}
