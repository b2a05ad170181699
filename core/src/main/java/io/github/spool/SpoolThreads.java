// SPDX-License-Identifier: Apache-2.0
package io.github.spool;

import java.security.AccessController;
import java.security.PrivilegedAction;

/**
 * Creates Spool's own threads (writers, the clock refresher, the shutdown hook) so that they pin
 * nothing of whichever application thread happened to create them. A thread created the plain way
 * inherits its creator's context class loader, inheritable thread-locals and (before JDK 24)
 * access control context, whose protection domains name class loaders: in an application server
 * a writer started from a request thread of web application A would keep A's class loader
 * reachable for as long as it runs. Spool's threads therefore get the system class loader as
 * context class loader, no inherited thread-locals, and an access control context taken inside
 * {@code doPrivileged} (Spool's own protection domain only). Public for core's sub-packages;
 * internal to Spool.
 */
public final class SpoolThreads {

    private SpoolThreads() {
    }

    /**
     * Creates, but does not start, a thread of Spool's.
     *
     * @param task   what it runs
     * @param name   its name
     * @param daemon whether it is a daemon
     * @return the new thread
     */
    public static Thread newThread(Runnable task, String name, boolean daemon) {
        return newThread(() -> new Thread(null, task, name, 0, false), daemon);
    }

    /**
     * Creates, but does not start, a thread of Spool's of a given class (the writer's
     * {@code WriterThread}); {@code factory} must not inherit thread-locals (use the five-argument
     * {@link Thread} constructor with {@code inheritThreadLocals = false}).
     *
     * @param factory creates the thread; run inside {@code doPrivileged}
     * @param daemon  whether it is a daemon
     * @param <T>     the thread's class
     * @return the new thread
     */
    @SuppressWarnings("removal") // AccessController: what keeps the creator's context out, until JDK 24
    public static <T extends Thread> T newThread(java.util.function.Supplier<T> factory, boolean daemon) {
        T t = AccessController.doPrivileged((PrivilegedAction<T>) factory::get);
        t.setContextClassLoader(ClassLoader.getSystemClassLoader());
        t.setDaemon(daemon);
        return t;
    }
}
