package io.github.spool;

import io.github.spool.time.CachedClock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One JVM shutdown hook for every open {@link Spool}: a program that returns from {@code main}
 * (or calls {@code System.exit}, or gets SIGTERM) without stopping its logging framework still
 * gets every accepted record out — logback registers no shutdown hook by default. The hook asks
 * all appenders to stop at once, then waits for them within one bounded total, so a stalled sink
 * cannot hold the JVM's exit longer than {@code spool.shutdownTimeoutMillis} (default 10 s).
 * A framework's own hook stopping the same appender concurrently is harmless: stop is
 * idempotent and both wait for the same drain.
 *
 * <p>The hook exists only while an appender is open. The JVM keeps a registered hook, and through
 * it this class and its class loader, until exit: in an application server that would keep every
 * undeployed web application that bundles Spool. So the last {@link #unregister} removes the hook
 * (and asks the cached clock's thread to end), and the next {@link #register} adds a new one.
 */
final class ShutdownDrain {
    /** System property: the hook's total wait, in milliseconds. */
    static final String TIMEOUT_PROPERTY = "spool.shutdownTimeoutMillis";
    /** Name of the hook thread. */
    static final String HOOK_NAME = "spool-shutdown";
    private static final long DEFAULT_TIMEOUT_MILLIS = 10_000;

    /** Guards {@link #OPEN} and {@link #hook}; starts and stops are rare, so one lock is enough. */
    private static final Object LOCK = new Object();
    private static final Set<Spool> OPEN = new LinkedHashSet<>();
    /** The registered hook, or {@code null} while no appender is open (or the JVM is exiting). */
    private static Thread hook;

    private ShutdownDrain() {
    }

    static void register(Spool spool) {
        synchronized (LOCK) {
            OPEN.add(spool);
            if (hook == null) {
                Thread h = SpoolThreads.newThread(ShutdownDrain::drainAll, HOOK_NAME, false);
                try {
                    Runtime.getRuntime().addShutdownHook(h);
                    hook = h;
                } catch (IllegalStateException alreadyShuttingDown) {
                    // The JVM is exiting already; the appender is stopped by whoever stops it, if anyone.
                }
            }
        }
    }

    static void unregister(Spool spool) {
        synchronized (LOCK) {
            if (!OPEN.remove(spool) || !OPEN.isEmpty()) {
                return;
            }
            if (hook != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // Called from the hook itself (or during exit): the JVM drops its hooks anyway.
                }
                hook = null;
            }
        }
        CachedClock.requestSharedExit();
    }

    /** @return the registered hook, or {@code null}; for tests */
    static Thread hookForTest() {
        synchronized (LOCK) {
            return hook;
        }
    }

    /** @return names of the appenders still open; for tests */
    static List<String> openForTest() {
        synchronized (LOCK) {
            List<String> names = new ArrayList<>();
            for (Spool s : OPEN) {
                names.add(s.name());
            }
            return names;
        }
    }

    private static void drainAll() {
        long timeout = Long.getLong(TIMEOUT_PROPERTY, DEFAULT_TIMEOUT_MILLIS);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        List<Spool> open;
        synchronized (LOCK) {
            open = new ArrayList<>(OPEN);
        }
        for (Spool s : open) {
            s.beginStop(deadline);
        }
        for (Spool s : open) {
            s.stop(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }
}
