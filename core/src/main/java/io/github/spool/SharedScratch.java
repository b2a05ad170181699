// SPDX-License-Identifier: Apache-2.0
package io.github.spool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A small lock-free pool of scratch objects that threads borrow for the length of one call and
 * hand back. What {@link OwnedThreadLocal} gives virtual threads instead of a per-thread value:
 * a server that runs each request on a new virtual thread would otherwise allocate and abandon a
 * value per request (and never find it warm), and 100,000 parked virtual threads would each pin
 * one. Here the values in circulation are about as many as threads inside a call at once.
 *
 * <p>The slots are a fixed array; {@link #take()} empties the first full slot it finds from a
 * per-thread starting point, {@link #give(Object)} fills the first empty one, and a value that
 * finds no empty slot is dropped (left to the collector). Both scan at most {@link #PROBES} slots,
 * so a call costs a bounded number of loads and one compare-and-set.
 *
 * <p>Ordering: a value's contents written by the thread that gives it back must be visible to
 * the thread that takes it next. {@code give}'s compare-and-set is a volatile write (a release)
 * and {@code take}'s compare-and-exchange a volatile read of the same slot (an acquire), so
 * everything the giver did before {@code give} happens-before everything the taker does after
 * {@code take}. The plain {@code getAcquire} probe only filters slots; the exchange decides.
 *
 * @param <T> the value type
 */
final class SharedScratch<T> {

    /** Slots scanned per call: enough to find a value when a few carriers borrow at once. */
    static final int PROBES = 8;

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Object[].class);

    /**
     * Log2 of the array elements per slot: a slot every 16 references (64 bytes with compressed
     * references, 128 without) keeps each slot on a cache line of its own, so carriers taking
     * and giving at once do not bounce one line between cores (false sharing).
     */
    private static final int SPREAD = 4;

    private final Object[] slots;
    private final int mask;

    /** @param size slots, rounded up to a power of two, at least {@link #PROBES} */
    SharedScratch(int size) {
        int n = Integer.highestOneBit(Math.max(PROBES, size) - 1) << 1;
        this.slots = new Object[n << SPREAD];
        this.mask = n - 1;
    }

    /** @return a value given back earlier, or {@code null} if none was found */
    @SuppressWarnings("unchecked")
    T take() {
        int start = start();
        for (int i = 0; i < PROBES; i++) {
            int at = ((start + i) & mask) << SPREAD;
            Object v = SLOTS.getAcquire(slots, at);
            if (v != null && SLOTS.compareAndExchange(slots, at, v, null) == v) {
                return (T) v;
            }
        }
        return null;
    }

    /** @param value a value no thread uses any more; kept if a slot is free, else dropped */
    void give(T value) {
        int start = start();
        for (int i = 0; i < PROBES; i++) {
            int at = ((start + i) & mask) << SPREAD;
            if (SLOTS.getAcquire(slots, at) == null && SLOTS.compareAndSet(slots, at, null, value)) {
                return;
            }
        }
    }

    /**
     * Where the calling thread starts scanning: spread over the slots by thread, so carriers
     * running at once mostly touch different slots (and cache lines) first.
     */
    private int start() {
        int h = System.identityHashCode(Thread.currentThread());
        return (h ^ (h >>> 16)) & mask;
    }
}
