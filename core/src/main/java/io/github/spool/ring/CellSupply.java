package io.github.spool.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The ring's cells and what they cost: the pool of free standard cells, the books that hold the
 * ring to its cap, growth (a producer's or the grower's) and the list of cells failed producers
 * left behind. Producers reach it on their slow path only, once per cell, never per record; the
 * writer when it frees, trims and settles. Internal to Spool.
 *
 * <p><b>The books.</b> {@code allocated} counts the bytes of every live cell (chain, pool, a
 * producer's dedicated cell) plus reservations for cells being allocated. Its monitor is the books'
 * lock: {@code allocated}, {@code cells}, {@code highWater}, each {@link Reservation}'s claim and
 * the orphan list change only inside it. A monitor rather than a CAS, because a producer's
 * exception handler must be able to undo a reservation with bytecodes only (a
 * {@link StackOverflowError} may be what it handles), and because the outcome of a block of field
 * accesses is never ambiguous: a call around a CAS may throw after the CAS happened. The books
 * change once per cell, never per record.
 *
 * <p><b>The backstop.</b> Every counted reservation's {@link Reservation.Claim} is on the books'
 * list, a phantom reference to the {@link Reservation} its owner holds. One that becomes
 * unreachable while still counted is enqueued by the GC, and the writer takes it out of the books
 * on its next idle pass ({@link #reclaimLost}), adding the bytes to {@code reclaimed}. The handlers
 * above are the design; the backstop is there so that a path they miss shrinks the cap until the
 * next GC at most, never for good (docs/reliability.md, item 10d). The writer polls, rather than
 * a cleaner thread of Spool's: before JDK 24 such a thread's access control context names Spool's
 * class loader, and a web application's loader would stay reachable after undeploy.
 */
final class CellSupply {
    private static final VarHandle GROW_WANTED;

    static {
        try {
            GROW_WANTED = MethodHandles.lookup().findVarHandle(CellSupply.class, "growWanted", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int cellSize;
    final long bufferSize;
    final long maxBufferSize;
    /** Free standard cells, most recently used first (warm in cache). Installers and writer. */
    final CellPool pool;
    /** Bytes of live cells and reservations (see the class documentation); its monitor guards the books. */
    final Books allocated = new Books();
    final Books cells = new Books();
    final Books highWater = new Books();
    /** Bytes the backstop took back from reservations lost while counted (see the class documentation). */
    final Books reclaimed = new Books();
    /** Where the GC puts the claims of reservations that became unreachable. */
    private final ReferenceQueue<Reservation> lost = new ReferenceQueue<>();
    /** The claims counted or not yet settled, linked through {@link Reservation.Claim#next}; under the books' monitor. */
    private Reservation.Claim claims;
    /** Woken when an installer takes the last pooled cell at the cap ({@link #poolRanDry}). */
    private final WakeSignal signal;
    /**
     * The thread that allocates cells ahead ({@link ManyToOneCellRing#growAhead}), or {@code null}
     * until the writer starts one: an installer that takes the last pooled cell unparks it rather
     * than allocating the next cell itself later, on a logging call.
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
    /**
     * Cells producers took (from the pool, or allocated for an oversized record) and could not
     * link because they failed: pushed by their exception handlers under the books' monitor
     * (bytecodes only: field accesses on this object, no call), linked through
     * {@link Cell#nextOrphan}; the writer gives them up ({@link RingConsumer#settleOrphans}).
     * A list, not one slot, so that two failing producers leak nothing.
     */
    Cell orphans;
    /** Whether {@link #orphans} may be non-empty: a volatile hint for the writer's pass. */
    volatile boolean orphansPending;

    CellSupply(int cellSize, long bufferSize, long maxBufferSize, long initialCells, WakeSignal signal) {
        this.cellSize = cellSize;
        this.bufferSize = bufferSize;
        this.maxBufferSize = maxBufferSize;
        this.signal = signal;
        this.pool = new CellPool((int) Math.min(initialCells, 1 << 16));
    }

    /** Takes the orphan list (consumer only); {@code null} when empty. */
    Cell takeOrphans() {
        orphansPending = false; // before taking the list: a push after the take sets it again
        synchronized (allocated) {
            Cell o = orphans;
            orphans = null;
            return o;
        }
    }

    /** Frees every pooled cell (the writer's last act); returns the bytes freed. */
    long freePool() {
        long freed = 0;
        for (Cell c; (c = pool.pollLast()) != null; ) {
            freeCell(c);
            freed += c.capacity;
        }
        return freed;
    }

    /** Start-up cells: a failure here is a start-up error, so no pre-check and no fallback. */
    Cell initialCell() {
        Reservation r = new Reservation(cellSize, lost);
        Cell c = new Cell(DirectMemory.allocateAtStart(cellSize), false, r);
        synchronized (allocated) {
            count(r.claim);
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

    /** Inside the books' monitor: {@code c} is counted, and on the list until it is settled. */
    private void count(Reservation.Claim c) {
        c.counted = true;
        c.next = claims;
        if (claims != null) {
            claims.prev = c;
        }
        claims = c;
    }

    /** Inside the books' monitor: takes {@code c} off the list (it is counted no more). */
    private void unlink(Reservation.Claim c) {
        Reservation.Claim p = c.prev;
        Reservation.Claim n = c.next;
        if (p != null) {
            p.next = n;
        } else if (claims == c) {
            claims = n;
        }
        if (n != null) {
            n.prev = p;
        }
        c.prev = null;
        c.next = null;
    }

    /**
     * Takes back the bytes of reservations that became unreachable while counted: a path the
     * producers' handlers missed (writer only, on its idle passes and as it ends).
     *
     * @return bytes taken back
     */
    long reclaimLost() {
        long freed = 0;
        for (Reference<? extends Reservation> ref; (ref = lost.poll()) != null; ) {
            Reservation.Claim c = (Reservation.Claim) ref;
            synchronized (allocated) {
                if (c.counted) {
                    c.counted = false;
                    allocated.value -= c.bytes;
                    cells.value--;
                    reclaimed.value += c.bytes;
                    freed += c.bytes;
                }
                unlink(c);
            }
        }
        return freed;
    }

    /**
     * Reserves {@code need} bytes under the cap, or returns {@code null}. {@code alone}: a record
     * too large to fit beside even one other cell is admitted over the cap once at most one
     * standard cell (the sealed one) still counts, so the peak is then {@code cellSize + need}.
     * A reservation counts as a cell at once, so that nothing is left to count once the cell
     * exists (only the high water mark waits for the memory to be really there:
     * {@link #noteHighWater}); the cell then owns the reservation, and a handler that sees no cell
     * undoes it in the same monitor. The reservation object is made before the books change; in
     * the monitor its claim joins the backstop's list first (a call with field accesses only:
     * one that throws, throws on entry), then the books change with field accesses only. If this
     * throws, nothing is counted.
     */
    Reservation reserve(long need, boolean alone) {
        long seen = allocated.value; // a volatile load, as a hint: at the cap, no object is made
        if (seen + need > maxBufferSize && !(alone && seen <= cellSize)) {
            return null;
        }
        Reservation r = new Reservation(need, lost);
        synchronized (allocated) {
            long a = allocated.value;
            long after = a + need;
            if (after > maxBufferSize && !(alone && a <= cellSize)) {
                return null; // never counted nor listed: garbage, its claim with it
            }
            count(r.claim);
            allocated.value = after;
            cells.value++;
        }
        return r;
    }

    /** Once a reserved cell exists: the high water mark counts memory really there, not a wish. */
    void noteHighWater() {
        synchronized (allocated) {
            long a = allocated.value;
            if (a > highWater.value) {
                highWater.value = a;
            }
        }
    }

    /**
     * A cell of {@code r}'s bytes for a reservation already made, or {@code null} when the JVM has
     * no memory for it (the caller then gives the reservation back). Called inside the growers'
     * try blocks, whose handlers answer for the reservation.
     */
    private static Cell allocateCell(Reservation r, boolean dedicated) {
        DirectMemory.Block b = DirectMemory.tryAllocate((int) r.claim.bytes);
        if (b == null) {
            return null;
        }
        try {
            return new Cell(b, dedicated, r);
        } catch (OutOfMemoryError e) {
            b.free();
            return null;
        }
    }

    /**
     * Adds a new standard cell to the pool; {@code false} at the cap or when the JVM has no direct
     * memory for it. The grower does this ahead of need ({@link ManyToOneCellRing#growAhead}); a producer that
     * outruns it does it itself rather than wait for another thread — on a loaded machine that
     * wait is the other thread's scheduling delay, and DISCARD calls waited up to 0.8 s for it.
     * A producer may be anywhere in its stack here, so the handler gives back what it holds with
     * bytecodes only: the reservation until the cell exists (the leak of issue 31, item 10), then
     * the cell until it is pooled (to the orphan list). The reservation's outcome is never
     * ambiguous ({@link #reserve}), nor is the pooling's: {@code offerFirst} can only throw
     * before its store (its one call, the array's growth, comes first).
     */
    boolean growIntoPool() {
        Reservation r = null;
        Cell c = null;
        try {
            r = reserve(cellSize, false);
            if (r == null) {
                return false;
            }
            c = allocateCell(r, false);
            if (c == null) {
                release(r);
                r = null;
                return false;
            }
            noteHighWater();
            pool.offerFirst(c);
            c = null; // pooled: the pool holds it now
            r = null;
            return true;
        } catch (Throwable t) {
            // Bytecodes only.
            if (c != null) {
                synchronized (allocated) {
                    c.nextOrphan = orphans;
                    orphans = c;
                }
                orphansPending = true;
            } else if (r != null) {
                synchronized (allocated) {
                    if (r.claim.counted) {
                        r.claim.counted = false;
                        allocated.value -= cellSize;
                        cells.value--;
                    }
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
    Cell growDedicated(int need) {
        Cell pooled = null;
        Reservation r = null;
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
            r = reserve(need, need > maxBufferSize - cellSize);
            if (r == null) {
                return null;
            }
            c = allocateCell(r, true);
            if (c == null) {
                release(r);
                r = null;
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
            } else if (r != null) { // the reservation got no cell: undo it
                synchronized (allocated) {
                    if (r.claim.counted) {
                        r.claim.counted = false;
                        allocated.value -= need;
                        cells.value--;
                    }
                }
            }
            throw t;
        }
        return c; // one return after the handler: the caller's putfield takes it, nothing between
    }

    /**
     * Takes {@code c} out of the books unless someone did already; returns whether this call did.
     * Repeating it (a failure handler, then the writer) is harmless. The claim leaves the
     * backstop's list with it.
     */
    boolean uncount(Cell c) {
        return release(c.reservation);
    }

    /**
     * Takes a reservation out of the books unless someone did already; returns whether this call
     * did. Off the backstop's list at once, so a reservation given back without a cell leaves
     * nothing for the GC to settle. (Failure handlers undo a reservation inline instead: they may
     * not call a method.)
     */
    private boolean release(Reservation reservation) {
        Reservation.Claim r = reservation.claim;
        synchronized (allocated) {
            if (!r.counted) {
                return false;
            }
            r.counted = false;
            allocated.value -= r.bytes;
            cells.value--;
            unlink(r);
        }
        r.clear(); // settled: nothing to enqueue
        return true;
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
    void dropCell(Cell c) {
        uncount(c);
    }

    /**
     * An installer took the last free cell. Below the cap, the grower allocates the next one now,
     * while this cell fills, and then wakes the writer; otherwise the writer is woken even from a
     * nap, so that it frees the cells it has written before a producer needs one. One unpark
     * either way, and not at every cell: on a 2 vCPU VM an unpark cost the producer 25–35 µs.
     */
    void poolRanDry() {
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
     * Registers the thread that runs {@link ManyToOneCellRing#growAhead} when unparked (the writer starts it at the
     * first records it collects).
     *
     * @param thread the grower, or {@code null} when it has stopped
     */
    void grower(Thread thread) {
        grower = thread;
    }

    /**
     * The grower says whether it polls for requests (see {@code growerPolls}); it stores
     * {@code false} before it takes the last request and parks.
     *
     * @param polls whether installers may skip the unpark
     */
    void growerPolls(boolean polls) {
        growerPolls = polls;
    }

    /**
     * The grower's check: whether an installer asked for a cell since the last call (and clears
     * the request).
     *
     * @return whether {@link ManyToOneCellRing#growAhead} is wanted
     */
    boolean takeGrowRequest() {
        return (boolean) GROW_WANTED.getAndSet(this, false);
    }

    /**
     * Frees pooled cells until the ring is back at its initial size (consumer only, when idle).
     *
     * @return bytes released
     */
    long trim() {
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
}
