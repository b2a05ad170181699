package io.github.spool.ring;

import io.github.spool.AppendResult;

import java.nio.ByteBuffer;

/**
 * A producer's slow path in a {@link ManyToOneCellRing}, taken once per cell: after a claim
 * that did not fit, install the successor cell (from the pool, grown, or dedicated to an oversized
 * record), wait at the cap, or discard, and claim again. Stateless: each call works on the ring's
 * fields and the caller's {@link Waiter}. What each volatile access orders, and why the handlers
 * use bytecodes only, is said beside it (package documentation, "Failure containment").
 * Internal to Spool.
 */
final class CellInstaller {
    private final ManyToOneCellRing ring;

    CellInstaller(ManyToOneCellRing ring) {
        this.ring = ring;
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
    AppendResult appendSlow(Cell sealed, int gen, Thread holder, byte[] array, ByteBuffer buffer,
                                    int offset, int len, int severity) {
        boolean claimAgain = false;
        Cell fresh = null;
        Waiter waiter = null;
        AppendResult result = null;
        try {
            if (holder != null) {
                fresh = ring.closed ? null : ring.pool.pollFirst();
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
                Cell cur = ring.current; // volatile load (stronger than append0's acquire; bytecode, not a call)
                long claimLen = ring.claimLength(cur, len);
                long word = ring.attempt(cur, claimLen, array, buffer, offset, len);
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
                synchronized (ring.allocated) {
                    fresh.nextOrphan = ring.supply.orphans;
                    ring.supply.orphans = fresh;
                }
                ring.supply.orphansPending = true;
            }
            if (waiter != null) {
                Cell d = waiter.dedicated;
                if (d != null) {
                    waiter.dedicated = null;
                    synchronized (ring.allocated) {
                        d.nextOrphan = ring.supply.orphans;
                        ring.supply.orphans = d;
                    }
                    ring.supply.orphansPending = true;
                }
            }
            throw t;
        } finally {
            if (waiter != null) {
                try {
                    waiter.finish(ring, result == AppendResult.ACCEPTED);
                } catch (Throwable t) {
                    // The outcome is decided — returned, or thrown from above — and a throw here
                    // (an overflow in finish's calls) must not turn an accepted record into an
                    // exception. Bytecodes only: a dedicated cell finish could not free goes to
                    // the writer; the rest finish does is bookkeeping a waker tolerates missing.
                    Cell d = waiter.dedicated;
                    if (d != null) {
                        waiter.dedicated = null;
                        synchronized (ring.allocated) {
                            d.nextOrphan = ring.supply.orphans;
                            ring.supply.orphans = d;
                        }
                        ring.supply.orphansPending = true;
                    }
                }
            }
        }
    }

    /**
     * Slow path after a failed claim on {@code sealed} (incarnation {@code gen}): install its
     * successor, wait, or discard. Returns {@code null} when the producer should claim again.
     */
    private AppendResult advance(Cell sealed, int gen, byte[] array, ByteBuffer buffer, int offset, int len,
                                 int severity, Waiter waiter) {
        boolean oversized = len > ring.cellSize;
        Thread me = waiter.thread;
        for (;;) {
            if (ring.closed) {
                return ring.refuse();
            }
            // Both reads are volatile field loads, stronger than the acquire they need, and
            // bytecodes rather than VarHandle calls: this loop is where waiters spin while another
            // producer installs, and with many producers on few cores it runs in the interpreter,
            // where a VarHandle operation costs microseconds. The flag is read before the CAS
            // (test-and-test-and-set): while the installer holds it, a CAS could only fail, and
            // each failed CAS would still take the installer's cache line away from it.
            if (ring.current != sealed) {
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
                            fresh = ring.pool.pollFirst();
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
                        synchronized (ring.allocated) {
                            fresh.nextOrphan = ring.supply.orphans;
                            ring.supply.orphans = fresh;
                        }
                        ring.supply.orphansPending = true;
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
                        long seen = ring.allocated.value; // before trying: a free after it wakes us (Waiter.idle)
                        if (ring.supply.growIntoPool()) {
                            // Producers that parked while we grew wait for a cell too: this one
                            // (installed next, by us or by them) may have room for them.
                            ring.parked.wake(ring.cellSize);
                            continue; // take the flag again and install it (or whatever the pool has)
                        }
                        if (ring.discardable(severity)) {
                            return ring.discard(severity); // at the cap (or no memory to grow): drop
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
            if (!waiter.idle(ring, sealed, nothingToInstall)) {
                // The writer thread itself, appending (a status message routed back to its own
                // appender): it would wait for itself. Drop the record, counted.
                return ring.discard(severity);
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
                ring.consumer.giveUp(fresh, 0, 0, 0);
                ring.supply.dropCell(fresh);
                return null;
            }
            linked = true;
            // Volatile stores (stronger than the release they need; bytecodes, not calls, for the
            // interpreter: appendSlow): current publishes the reset incarnation, then the flag
            // opens it to the next installer. The sealed cell's flag stays taken for good, by a
            // sentinel rather than our thread, which a pooled cell must not keep reachable.
            ring.current = fresh;
            fresh.installer = null;
            sealed.installer = Cell.SHUT;
            // Volatile load after the volatile link (Dekker with abandonAll's store of writerGone
            // and its volatile loads of next): either the writer's final walk saw this link, or we
            // see that it is gone and give the cell up ourselves.
            if (ring.writerGone) {
                ring.consumer.giveUp(fresh, 0, 0, 0);
                RingConsumer.sealFor(fresh);
            }
            ManyToOneCellRing.copy(fresh, 0, array, buffer, offset, len);
        } catch (Throwable t) {
            if (linked || sealed.next == fresh) { // a volatile read: did the CAS happen before the throw?
                // Linked. Publish it if that did not happen yet — only from sealed, never moving
                // current back past a successor installed since — open its flag while it is
                // current (a second installer that this lets in loses the link CAS), and leave our
                // pre-claimed range as a hole. Volatile field stores, no method calls.
                if (ring.current == sealed) {
                    ring.current = fresh;
                }
                if (ring.current == fresh && fresh.installer == Cell.SHUT) { // not opened yet (never someone else's)
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
            ring.lostLate(len);
        }
        try {
            if (ring.pool.isEmpty()) {
                ring.supply.poolRanDry();
            } else {
                ring.signal.signal();
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
        waiter.allocatedSeen = ring.allocated.value; // before trying: a free after it wakes us (Waiter.idle)
        waiter.dedicated = ring.supply.growDedicated(len); // one putfield after the call: nothing can throw between
        if (waiter.dedicated != null) {
            return null;
        }
        if (ring.discardable(severity)) {
            return ring.discard(severity);
        }
        if (ring.allocated.value <= ring.cellSize) {
            // Nothing in the ring left to wait for. The cap may have refused the grow only
            // because another producer's dedicated cell still counted, freed since: grow
            // again. Refused with nothing else allocated, the JVM has no direct memory for
            // this record and waiting would never end: drop it, counted. (Before the second
            // try, a BLOCK producer lost records here in ContentionTest's 8 KiB ring.)
            waiter.dedicated = ring.supply.growDedicated(len);
            if (waiter.dedicated == null && ring.allocated.value <= ring.cellSize) {
                return ring.discard(severity);
            }
        }
        return null;
    }
}
