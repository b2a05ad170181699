package io.github.spool.ring;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The producers parked at a ring's cap ({@link Waiter}s, each queued at most once) and the waking
 * of them: in bounded batches, by the room freed, spread over the woken threads. Slow path only:
 * nothing here runs while the ring has room. Internal to Spool.
 */
final class ParkingLot {

    /** Parked producers, longest-waiting first. */
    private final ConcurrentLinkedQueue<Waiter> blocked = new ConcurrentLinkedQueue<>();
    /** Bytes of room not yet matched with a woken waiter ({@link #wake}). */
    private final AtomicLong wakeBudget = new AtomicLong();

    /**
     * Queues a producer about to park; it re-checks the ring's state after this (Dekker with the
     * wakers, {@link Waiter}).
     *
     * @param w the producer
     */
    void enter(Waiter w) {
        blocked.offer(w); // a volatile CAS: before the waiter's re-reads
    }

    /**
     * Takes a producer that leaves out of the queue.
     *
     * @param w the producer
     * @return {@code false} if a waker dequeued it first (a wake-up was its)
     */
    boolean leave(Waiter w) {
        return blocked.remove(w);
    }

    /** @return {@code true} if no producer is parked (volatile loads of the queue's head) */
    boolean isEmpty() {
        return blocked.isEmpty();
    }

    /** @return parked producers (a traversal: for figures and tests) */
    int size() {
        return blocked.size();
    }

    /**
     * Wakes producers parked at the cap for {@code bytes} of new room: as many as those bytes can
     * serve, by their records' lengths, at least one. The caller (the writer, usually) wakes two;
     * each woken producer wakes up to two more while the budget lasts ({@link Waiter#idle}), so the
     * wake-ups spread over the woken threads in a tree instead of landing on the writer — with 64
     * producers on 2 cores, the writer waking them all itself took a fifth of its CPU.
     */
    void wake(long bytes) {
        if (blocked.isEmpty()) {
            return;
        }
        // Racing passWakes may overdraw the budget below zero; new room starts from zero, so
        // that this call always wakes at least one waiter.
        for (;;) {
            long b = wakeBudget.get();
            if (wakeBudget.compareAndSet(b, Math.max(0, b) + bytes)) {
                break;
            }
        }
        passWake();
        passWake();
    }

    /** Wakes the longest-waiting producer if the budget lasts; its {@code need} comes off the budget. */
    void passWake() {
        if (wakeBudget.get() <= 0) {
            return;
        }
        Waiter w = blocked.poll();
        if (w == null) {
            wakeBudget.set(0); // nobody left: room freed later gets its own budget
            return;
        }
        wakeBudget.addAndGet(-w.need);
        w.queued = false; // dequeued: finish() need not search the queue for it
        LockSupport.unpark(w.thread);
    }

    /** Wakes every parked producer (close, the writer gone, the cap reached): each decides again. */
    void wakeAll() {
        Waiter w;
        while ((w = blocked.poll()) != null) {
            w.queued = false;
            LockSupport.unpark(w.thread);
        }
    }

}
