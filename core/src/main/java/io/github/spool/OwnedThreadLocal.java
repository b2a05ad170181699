// SPDX-License-Identifier: Apache-2.0
package io.github.spool;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A per-thread value that lives as long as the object holding this (an appender, an encoder, a
 * timestamp format), not as long as the thread. A plain {@link ThreadLocal} keeps its value in the
 * thread: a container's pool thread that once logged through an undeployed web application would
 * keep that value, its class and so the application's class loader, until the thread ends. Here
 * the thread keeps only a {@link WeakReference} (a JDK class, which is also what Tomcat's leak
 * check looks at); the values are held strongly by this object, per thread, so they stay as long
 * as this object and the thread both live, and go with this object. Thread-safe; {@link #get()}
 * costs a {@code ThreadLocal.get()} and a reference load. Internal to Spool.
 *
 * <p>Virtual threads get no per-thread value through {@link #acquire()}: they borrow one from a
 * small pool shared by the virtual threads of this object and hand it back with
 * {@link #release(Object)} ({@link SharedScratch}). A virtual thread is typically made for one
 * task (a request) and then ends, so a per-thread value would be allocated, registered under
 * this object's lock and abandoned per task, never warm; and a hundred thousand of them parked
 * would pin a hundred thousand values. Platform threads keep theirs: no atomic operation on
 * their path.
 *
 * @param <T> the value type
 */
public final class OwnedThreadLocal<T> {

    /** What threads hold: a plain JDK ThreadLocal (no subclass, no lambda) and a weak reference. */
    private final ThreadLocal<WeakReference<T>> refs = new ThreadLocal<>();
    /** Guarded by itself. Weak keys: a thread that ends takes its value with it. */
    private final Map<Thread, T> owned = new WeakHashMap<>();
    private final Supplier<? extends T> initial;
    /** Values made so far; only {@link #created()} reads it (slow path only). */
    private final AtomicLong made = new AtomicLong();
    /** What virtual threads borrow from: a few values per processor circulate. */
    private final SharedScratch<T> shared = new SharedScratch<>(2 * Runtime.getRuntime().availableProcessors());

    private OwnedThreadLocal(Supplier<? extends T> initial) {
        this.initial = Objects.requireNonNull(initial, "initial");
    }

    /**
     * @param initial creates a thread's value on its first {@link #get()}
     * @param <T>     the value type
     * @return a new instance
     */
    public static <T> OwnedThreadLocal<T> withInitial(Supplier<? extends T> initial) {
        return new OwnedThreadLocal<>(initial);
    }

    /** @return the calling thread's value, created on first use */
    public T get() {
        WeakReference<T> ref = refs.get();
        if (ref != null) {
            T value = ref.get();
            if (value != null) {
                return value;
            }
        }
        return create();
    }

    /**
     * A value for the calling thread to use until it calls {@link #release(Object)} with it, in a
     * {@code finally}: a platform thread's own value (as {@link #get()}; a re-entrant call gets
     * the same one, as before), or for a virtual thread one no other thread holds, borrowed from
     * the shared pool or created.
     *
     * @return the value
     */
    public T acquire() {
        if (!VirtualThreads.current()) {
            return get();
        }
        T value = shared.take();
        return value != null ? value : make();
    }

    /**
     * Ends the use {@link #acquire()} began: a virtual thread's value goes back to the pool (or
     * to the collector if the pool is full); a platform thread keeps its own.
     *
     * @param value what {@link #acquire()} returned on this thread
     */
    public void release(T value) {
        if (VirtualThreads.current()) {
            shared.give(value);
        }
    }

    /**
     * How many values this has made: one per platform thread that used it, and for virtual
     * threads about as many as were inside a call at once.
     *
     * @return values made since construction
     */
    public long created() {
        return made.get();
    }

    private T make() {
        made.incrementAndGet();
        return initial.get();
    }

    private T create() {
        T value = make();
        synchronized (owned) {
            owned.put(Thread.currentThread(), value);
        }
        refs.set(new WeakReference<>(value));
        return value;
    }
}
