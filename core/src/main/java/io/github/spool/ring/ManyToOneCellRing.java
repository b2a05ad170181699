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
     * The writer must also have looked this many times without seeing progress: each look counts
     * the time since the last one only up to the bound divided by this ({@link StallWatch}), so one
     * long pause of the whole JVM (a GC) that stops the producer and the writer alike is no
     * evidence.
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
    static final long CLOSE_CLAIM = 1L << 40;
    /**
     * How long a producer parked at the cap sleeps before it looks again on its own. Every event
     * that can let it on (a cell freed or grown, a recovery, close) wakes it, and the writer wakes
     * waiters whenever it finds cells pooled while producers wait ({@link #recoverStall}); this
     * only bounds a wake-up this code failed to foresee. Long, because each look costs: at one
     * second, 400 parked producers used 2–3% of a core just waking up to look.
     */
    static final long PARK_SAFETY_NANOS = TimeUnit.SECONDS.toNanos(10);

    static final VarHandle CURRENT;

    static {
        try {
            CURRENT = MethodHandles.lookup().findVarHandle(RingCurrentField.class, "current", Cell.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int cellSize;
    private final boolean discardAllowed;
    private final int discardThreshold;
    final long stallNanos;
    final WakeSignal signal = new WakeSignal();

    /** A producer's slow path: installing, growing, waiting (see {@link CellInstaller}). */
    private final CellInstaller installer = new CellInstaller(this);
    /** The writer's side: collecting, releasing, recovering, closing (see {@link RingConsumer}). */
    final RingConsumer consumer;
    /** The pool, the books, growth and the orphan list: see {@link CellSupply}. */
    final CellSupply supply;
    /** {@code supply}'s pool and books, read here on every slow path: one load less. */
    final CellPool pool;
    final CellSupply.Books allocated;
    private final AtomicLongArray discarded = new AtomicLongArray(Severity.COUNT);
    /** Accepted records (and bytes) the ring gave up: see {@link Cell#DEAD}. */
    final AtomicLong lostRecords = new AtomicLong();
    final AtomicLong lostBytes = new AtomicLong();
    /** Records whose copy threw, skipped by the writer (their callers got the throwable). */
    volatile long failedCopies;
    /** Records refused because the ring was closed (stopping, or its writer gone). Slow path only. */
    private final AtomicLong refused = new AtomicLong();
    /** Producers that parked at the cap, and the time they waited there in all (ns). Slow path only. */
    final AtomicLong producerWaits = new AtomicLong();
    final AtomicLong producerWaitNanos = new AtomicLong();
    /** Times the writer recovered from a producer that failed mid-protocol. */
    final AtomicLong stallRecoveries = new AtomicLong();
    /** Producers parked at the cap, and the waking of them. Slow path only. */
    final ParkingLot parked = new ParkingLot();
    /** The appender's name, for the JFR events of its producers' waits ({@link #name(String)}). */
    volatile String name = "";
    /** The writer collects nothing more (stop deadline passed, or it failed): see {@link #abandonAll}. */
    volatile boolean writerGone;
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
        this.discardAllowed = policy == OverflowPolicy.DISCARD;
        this.discardThreshold = Severity.check(discardThreshold);
        this.stallNanos = stallNanos;
        long initial = Math.max(2, bufferSize / cellSize);
        this.supply = new CellSupply(cellSize, bufferSize, maxBufferSize, initial, signal);
        this.pool = supply.pool;
        this.allocated = supply.allocated;
        Cell first = supply.initialCell();
        for (long i = 1; i < initial; i++) {
            pool.offerLast(supply.initialCell());
        }
        first.installer = null; // the one current, open cell; the ring reaches other threads through
        this.current = first;   // Thread.start or a volatile field, which publishes these stores
        this.consumer = new RingConsumer(this, first);
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
            return installer.appendSlow(cur, gen, holder, array, buffer, offset, len, severity);
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
    AppendResult refuse() {
        refused.incrementAndGet();
        return AppendResult.CLOSED;
    }

    /** An oversized record never fits: it claims more than the cell, to seal it for a dedicated successor. */
    long claimLength(Cell cur, int len) {
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
    long attempt(Cell cur, long claimLen, byte[] array, ByteBuffer buffer, int offset, int len) {
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

    void lostLate(int len) {
        lostRecords.incrementAndGet();
        lostBytes.addAndGet(len);
    }

    /**
     * Registers the thread that runs {@link #growAhead} when unparked (the writer starts it at the
     * first records it collects).
     *
     * @param thread the grower, or {@code null} when it has stopped
     */
    public void grower(Thread thread) {
        supply.grower(thread);
    }

    /**
     * The grower says whether it polls for requests; it stores {@code false} before it takes the
     * last request and parks (see {@link CellSupply}).
     *
     * @param polls whether installers may skip the unpark
     */
    public void growerPolls(boolean polls) {
        supply.growerPolls(polls);
    }

    /**
     * The grower's check: whether an installer asked for a cell since the last call (and clears
     * the request).
     *
     * @return whether {@link #growAhead} is wanted
     */
    public boolean takeGrowRequest() {
        return supply.takeGrowRequest();
    }

    /**
     * The grower's work: allocates one standard cell under the cap when none is pooled, so that
     * the next installer takes it instead of allocating it — an allocation cost the logging call
     * that made it 130–225 µs (the direct buffer is zeroed, and each of its pages faults once).
     * A producer that outruns the grower still allocates itself ({@link CellSupply#growIntoPool}), and
     * producers parked meanwhile are woken for the new cell.
     *
     * @return whether a cell was added
     */
    public boolean growAhead() {
        if (!pool.isEmpty() || closed) {
            return false;
        }
        if (!supply.growIntoPool()) {
            return false;
        }
        parked.wake(cellSize);
        return true;
    }


    /**
     * Frees pooled cells until the ring is back at its initial size (consumer only, when idle).
     *
     * @return bytes released
     */
    public long trim() {
        return supply.trim();
    }

    static void copy(Cell cell, long start, byte[] array, ByteBuffer buffer, int offset, int len) {
        // Plain writes into our exclusive range; published by the commit that follows.
        if (array != null) {
            cell.buffer.put((int) start, array, offset, len);
        } else {
            cell.buffer.put((int) start, buffer, offset, len);
        }
    }

    boolean discardable(int severity) {
        return discardAllowed && severity <= discardThreshold;
    }

    AppendResult discard(int severity) {
        discarded.incrementAndGet(severity);
        return AppendResult.DISCARDED;
    }

    // ------------------------------------------------------------------ consumer

    /** @return the signal the consumer sleeps on */
    public WakeSignal signal() {
        return signal;
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
            c.nextOrphan = supply.orphans;
            supply.orphans = c;
        }
        supply.orphansPending = true;
    }

    /** @return the protocol state the writer sees, for a failing test's message */
    String describeState() {
        Cell c = consumer.writeCell;
        StallWatch stall = consumer.stall;
        Cell cur = (Cell) CURRENT.getVolatile(this);
        return "writeCell{cap=" + c.capacity + " claimed=" + Long.toHexString(c.lvClaimed()) + " committed=" + Long.toHexString(c.lvCommitted())
                + " seal=" + Long.toHexString(c.seal) + " flag=" + (c.lvInstaller() != null) + " next=" + (c.lvNext() != null)
                + " flushed=" + c.flushedBytes + " writerGen=" + c.writerGen + " abandoned=" + c.abandoned + " dedicated=" + c.dedicated
                + "} current==writeCell:" + (cur == c) + " current{claimed=" + Long.toHexString(cur.lvClaimed()) + " flag="
                + (cur.lvInstaller() != null) + " next=" + (cur.lvNext() != null) + "} pool=" + pool.size() + " allocated=" + allocated.get()
                + " stallPending=" + stall.pending() + " passes=" + stall.passes() + " recoveries=" + stallRecoveries.get()
                + " failedCopies=" + failedCopies + " reclaimed=" + supply.reclaimed.get() + " aborted=" + c.abortedBytes + " holes=" + c.holeCount + " closed=" + closed;
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
        return supply.highWater.get();
    }

    /** @return number of live cells */
    public long cellCount() {
        return supply.cells.get();
    }

    /** @return the standard cell size */
    public int cellSize() {
        return cellSize;
    }

    /** @return the hard cap */
    public long maxBufferSize() {
        return supply.maxBufferSize;
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

    // ------------------------------------------------------------------ the writer's side (RingConsumer)

    /**
     * Collects committed, unwritten bytes in write order into {@code batch} (consumer only).
     *
     * @param batch an empty batch
     * @return the number of ranges collected
     */
    public int collect(Batch batch) {
        return consumer.collect(batch);
    }

    /**
     * Marks the batch's bytes written and frees or pools cells left behind (consumer only).
     *
     * @param batch the batch last collected, once written
     */
    public void release(Batch batch) {
        consumer.release(batch);
    }

    /**
     * Whether {@link #collect} would find something (consumer only). Uses volatile loads: it is
     * the writer's check between announcing sleep and parking (see {@link WakeSignal}).
     *
     * @return {@code true} if there are committed unwritten bytes or a cell to move past
     */
    public boolean hasWork() {
        return consumer.hasWork();
    }

    /**
     * Consumer, on a pass that collected nothing: recovers when a producer failed half-way
     * through the protocol (package documentation, "Failure containment").
     *
     * @param nowNanos {@link System#nanoTime()}
     * @return {@code true} if a recovery was made
     */
    public boolean recoverStall(long nowNanos) {
        return consumer.recoverStall(nowNanos);
    }

    /** @return what the last stall recovery found stuck, for the writer's report (consumer only) */
    public String lastStallRecovery() {
        return consumer.lastStallRecovery();
    }

    /** @return whether a stuck state is being watched and not yet recovered (consumer only) */
    public boolean stallPending() {
        return consumer.stallPending();
    }

    /**
     * The writer will collect nothing more (consumer only; its stop deadline passed, or it is
     * failing): closes the ring and gives up every cell, counting unwritten records as lost once.
     */
    public void abandonAll() {
        consumer.abandonAll();
    }

    /** Refuses new records from now on (producers see it before their claim). */
    public void close() {
        consumer.close();
    }

    /** @return whether the ring refuses new records */
    public boolean isClosed() {
        return consumer.isClosed();
    }

    /**
     * Seals the current cell for the close so that the writer can tell when it has drained
     * (consumer only, after {@link #close}).
     *
     * @return whether the cell was sealed now
     */
    public boolean sealForClose() {
        return consumer.sealForClose();
    }

    /** @return whether every record accepted before the close is written (consumer only) */
    public boolean isDrained() {
        return consumer.isDrained();
    }

    /**
     * The writer has ended (consumer only, its last act): frees now the memory of every cell no
     * producer can copy into any more.
     *
     * @return bytes freed
     */
    public long freeAll() {
        return consumer.freeAll();
    }
}
