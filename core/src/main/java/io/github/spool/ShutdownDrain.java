package io.github.spool;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One JVM shutdown hook for every open {@link Spool}: a program that returns from {@code main}
 * (or calls {@code System.exit}, or gets SIGTERM) without stopping its logging framework still
 * gets every accepted record out — logback registers no shutdown hook by default. The hook asks
 * all appenders to stop at once, then waits for them within one bounded total, so a stalled sink
 * cannot hold the JVM's exit longer than {@code spool.shutdownTimeoutMillis} (default 10 s).
 * A framework's own hook stopping the same appender concurrently is harmless: stop is
 * idempotent and both wait for the same drain.
 */
final class ShutdownDrain {
    /** System property: the hook's total wait, in milliseconds. */
    static final String TIMEOUT_PROPERTY = "spool.shutdownTimeoutMillis";
    private static final long DEFAULT_TIMEOUT_MILLIS = 10_000;

    private static final Set<Spool> OPEN = ConcurrentHashMap.newKeySet();
    private static volatile boolean hookInstalled;

    private ShutdownDrain() {
    }

    static void register(Spool spool) {
        OPEN.add(spool);
        if (!hookInstalled) {
            installHook();
        }
    }

    static void unregister(Spool spool) {
        OPEN.remove(spool);
    }

    private static synchronized void installHook() {
        if (hookInstalled) {
            return;
        }
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(ShutdownDrain::drainAll, "spool-shutdown"));
            hookInstalled = true;
        } catch (IllegalStateException alreadyShuttingDown) {
            // The JVM is exiting already; the appender is stopped by whoever stops it, if anyone.
        }
    }

    private static void drainAll() {
        long timeout = Long.getLong(TIMEOUT_PROPERTY, DEFAULT_TIMEOUT_MILLIS);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        List<Spool> open = new ArrayList<>(OPEN);
        for (Spool s : open) {
            s.beginStop(deadline);
        }
        for (Spool s : open) {
            s.stop(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }
}
