// SPDX-License-Identifier: Apache-2.0
package io.github.spool;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
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
 * @param <T> the value type
 */
public final class OwnedThreadLocal<T> {

    /** What threads hold: a plain JDK ThreadLocal (no subclass, no lambda) and a weak reference. */
    private final ThreadLocal<WeakReference<T>> refs = new ThreadLocal<>();
    /** Guarded by itself. Weak keys: a thread that ends takes its value with it. */
    private final Map<Thread, T> owned = new WeakHashMap<>();
    private final Supplier<? extends T> initial;

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

    private T create() {
        T value = initial.get();
        synchronized (owned) {
            owned.put(Thread.currentThread(), value);
        }
        refs.set(new WeakReference<>(value));
        return value;
    }
}
