package io.github.spool.ring;

import io.github.spool.jfr.ProducerWaitEvent;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Per-call waiting state of a producer on the ring's slow path: spin, yield, then park until woken.
 *
 * <p>Waiting costs nothing (issue 31, item 8): a producer that finds no cell to claim in
 * registers in the ring's {@link ParkingLot} once, re-checks, and parks without a timeout
 * that matters ({@link ManyToOneCellRing#PARK_SAFETY_NANOS}). Whoever makes room wakes waiters in a bounded
 * batch: the writer when it frees cells ({@link ManyToOneCellRing#release}: as many waiters as the freed bytes
 * can serve, by their records' lengths), the grower when it pools a cell, the writer's
 * recoveries, and close (all). A woken producer that leaves without using its wake-up (its
 * record dropped or refused) hands it on to the next waiter. No lost wake-up (Dekker): the
 * waiter's queue insertion (a volatile CAS) comes before its volatile re-reads of
 * {@code closed}, {@code current} and the pool's size; a waker's change (a volatile store of
 * those) comes before its volatile read of the queue; so either the waiter sees the change or
 * the waker sees the waiter. No monitor is held while parked (virtual threads stay unpinned),
 * and a parked producer holds one small object and one queue node. Internal to Spool.
 */
final class Waiter {
    private static final int SPINS = 64;
    private static final int YIELDS = 32;

    final Thread thread;
    /** The record's length: what a waker counts this waiter as taking of the freed bytes. */
    final int need;
    /** In the ring's {@link ParkingLot}; cleared by whoever dequeues us to wake us. */
    volatile boolean queued;
    private int rounds;
    private boolean interrupted;
    /** Put itself in the ring's {@link ParkingLot} at least once. */
    private boolean registered;
    /** A dedicated cell this producer allocated for its oversized record, not yet installed. */
    Cell dedicated;
    /**
     * The ring's allocated bytes read before this producer last failed to grow it: less now
     * means room was freed (a dedicated cell written) since, so it tries again.
     */
    long allocatedSeen = Long.MIN_VALUE;
    /** Begun when this producer first parks at the cap; committed by {@link #finish} if over its threshold. */
    private ProducerWaitEvent waitEvent;
    /** When this producer first parked ({@link System#nanoTime()}), with {@link #waitEvent}. */
    private long parkedSince;

    Waiter(Thread thread, int need) {
        this.thread = thread;
        this.need = need;
    }

    /**
     * Waits once for the state seen at {@code sealed} to change. {@code foundNothing}: this
     * producer held the flag and found nothing to install and nothing to grow (it sleeps
     * until woken); otherwise another producer holds the flag (it backs off briefly).
     *
     * @return {@code false} if this thread must not wait: it is the writer itself
     */
    boolean idle(ManyToOneCellRing ring, Cell sealed, boolean foundNothing) {
        int r = foundNothing ? Math.max(rounds, SPINS + YIELDS) : rounds++;
        // Spin, then yield, only while another producer holds the flag: its install is
        // imminent. At the cap nothing comes for the writer's next batch, and 400 producers
        // yielding 32 times each on every arrival there slowed the drain after a stall.
        if (r < SPINS) {
            Thread.onSpinWait();
            return true;
        }
        if (r < SPINS + YIELDS) {
            Thread.yield();
            return true;
        }
        if (thread == ring.signal.consumerThread()) {
            return false;
        }
        // park returns at once while the interrupt flag is set: clear it while we wait
        // and restore it when the record is accounted for (finish).
        if (Thread.interrupted()) {
            interrupted = true;
        }
        if (foundNothing) {
            // We held the flag and found no cell to install, and none to grow: sleep until
            // whoever makes room wakes us. Register, then look again (Dekker with the wakers).
            if (!queued) {
                queued = true;
                registered = true;
                ring.parked.enter(this);
            }
            if (ring.closed || ring.current != sealed || !ring.pool.isEmpty() || ring.allocated.value < allocatedSeen) {
                return true; // changed while we registered: look again
            }
            if (waitEvent == null) {
                waitEvent = new ProducerWaitEvent(); // the slow path: about to park
                waitEvent.begin();
                parkedSince = System.nanoTime();
            }
            // The timeout only bounds a wake-up nobody foresaw: on it we look (volatile loads,
            // no CAS, no monitor) at what a waker would have changed, and sleep again if
            // nothing did.
            do {
                LockSupport.parkNanos(this, ManyToOneCellRing.PARK_SAFETY_NANOS);
                if (Thread.interrupted()) {
                    interrupted = true; // else every park would return at once
                }
            } while (queued && !ring.closed && ring.current == sealed && ring.pool.isEmpty()
                    && ring.allocated.value >= allocatedSeen);
            // Woken (dequeued), we pass the wake-up on to two more while the budget lasts
            // (wakeWaiters).
            if (!queued) {
                ring.parked.passWake();
                ring.parked.passWake();
            }
        } else if (!ring.closed && ring.current == sealed) {
            // Another producer holds the flag: it is installing a cell, or finding the cap as
            // we would, within microseconds unless it is descheduled (or failed: the writer
            // recovers after its stall bound). Nobody wakes us for that: back off briefly.
            LockSupport.parkNanos(this, Math.min(TimeUnit.MILLISECONDS.toNanos(1), 1000L << Math.min(10, r - SPINS - YIELDS)));
        }
        return true;
    }

    /**
     * Leaves the slow path. Most important first, since a throw may cut it short (appendSlow):
     * the interrupt, then the dedicated cell (cleared only once freed, so a cut leaves it to
     * appendSlow's handler), then the queue.
     *
     * @param tookSpace whether the record went in (a wake-up it got was used)
     */
    void finish(ManyToOneCellRing ring, boolean tookSpace) {
        if (interrupted || Thread.interrupted()) {
            thread.interrupt();
        }
        Cell d = dedicated;
        if (d != null) {
            ring.supply.freeCell(d); // allocated for a record that did not go in (closed, discarded)
            dedicated = null;
        }
        // Still queued: take ourselves out, so the queue never holds a producer that is gone.
        // A failed remove means a waker dequeued us just now; not queued but registered means
        // a waker dequeued us earlier. Either way a wake-up was ours: unused, it goes on.
        boolean woken = queued ? !ring.parked.leave(this) : registered;
        if (woken && !tookSpace) {
            ring.parked.wake(need);
        }
        ProducerWaitEvent e = waitEvent;
        if (e != null) {
            waitEvent = null;
            // Counted for the metrics (Micrometer's spool.producer.waits): two adds per wait, slow path.
            ring.producerWaits.incrementAndGet();
            ring.producerWaitNanos.addAndGet(System.nanoTime() - parkedSince);
            e.end();
            if (e.shouldCommit()) { // recording, and over the threshold (10 ms by default)
                e.appender = ring.name;
                e.bytes = need;
                e.commit();
            }
        }
    }
}
