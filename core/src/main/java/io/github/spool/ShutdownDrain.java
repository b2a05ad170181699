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
 * gets every accepted record out — logback registers no shutdown hook by default.
 *
 * <p>The JVM runs all shutdown hooks at once, in no order, and halts when the last returns. So the
 * hook does not end the appenders: it puts each in its exit mode ({@link Spool#beginExit}) — the
 * ring drains, then every later record is written before its logging call returns, as the
 * frameworks' own appenders write, until the framework stops the appender (or the JVM halts).
 * Lines that other hooks log (graceful-shutdown handlers, Spring's context close) are then out
 * before the halt, in order.
 *
 * <p>One deadline for the whole JVM ({@code spool.shutdownTimeoutMillis}, default 10 s, from when
 * the exit is first noticed, by this hook or by a stop that finds the JVM exiting): every wait
 * during exit — this hook's, and each framework stop, one appender after another — ends by it,
 * so a stalled sink holds the exit at most that long, however many appenders there are.
 *
 * <p>The hook exists only while an appender is open. The JVM keeps a registered hook, and through
 * it this class and its class loader, until exit: in an application server that would keep every
 * undeployed web application that bundles Spool. So the last {@link #unregister} removes the hook
 * (and asks the cached clock's thread to end), and the next {@link #register} adds a new one.
 */
final class ShutdownDrain {
    /** System property: the exit's total wait, in milliseconds. */
    static final String TIMEOUT_PROPERTY = "spool.shutdownTimeoutMillis";
    /** Name of the hook thread. */
    static final String HOOK_NAME = "spool-shutdown";
    private static final long DEFAULT_TIMEOUT_MILLIS = 10_000;

    /** Guards everything below; starts, stops and the exit are rare, so one lock is enough. */
    private static final Object LOCK = new Object();
    private static final Set<Spool> OPEN = new LinkedHashSet<>();
    /** The registered hook, or {@code null} while no appender is open (or the JVM is exiting). */
    private static Thread hook;
    /** Whether the JVM's exit has been noticed; then {@link #exitDeadline} holds. */
    private static boolean exiting;
    private static long exitDeadline;

    private ShutdownDrain() {
    }

    /**
     * Adds {@code spool} to the appenders the hook drains.
     *
     * @param spool a starting appender
     * @return {@code false} if the JVM is exiting already: no hook will drain it, so it must begin
     *         its exit mode itself, by {@link #exitDeadlineNanos()}
     */
    static boolean register(Spool spool) {
        synchronized (LOCK) {
            if (exiting) {
                return false;
            }
            if (hook == null) {
                Thread h = SpoolThreads.newThread(ShutdownDrain::drainAll, HOOK_NAME, false);
                try {
                    Runtime.getRuntime().addShutdownHook(h);
                } catch (IllegalStateException alreadyShuttingDown) {
                    noticeExit();
                    return false;
                }
                hook = h;
            }
            OPEN.add(spool);
            return true;
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

    /**
     * Bounds a stop's wait by the exit deadline when the JVM is exiting (a framework's own hook
     * stopping its appenders one after another).
     *
     * @param nanos the wait asked for
     * @return the wait allowed
     */
    static long boundByExit(long nanos) {
        synchronized (LOCK) {
            if (!exiting && !probeExit()) {
                return nanos;
            }
            return Math.max(0, Math.min(nanos, exitDeadline - System.nanoTime()));
        }
    }

    /** @return the exit deadline ({@link System#nanoTime()}); only meaningful once the exit is noticed */
    static long exitDeadlineNanos() {
        synchronized (LOCK) {
            noticeExit();
            return exitDeadline;
        }
    }

    /** Whether the JVM is running its shutdown hooks: then it takes no new hook. Holds LOCK. */
    private static boolean probeExit() {
        Thread probe = SpoolThreads.newThread(() -> { }, "spool-exit-probe", false);
        try {
            Runtime.getRuntime().addShutdownHook(probe);
        } catch (IllegalStateException shuttingDown) {
            noticeExit();
            return true;
        }
        Runtime.getRuntime().removeShutdownHook(probe);
        return false;
    }

    /** Starts the exit's one deadline, the first time. Holds LOCK. */
    private static void noticeExit() {
        if (!exiting) {
            exiting = true;
            long timeout = Long.getLong(TIMEOUT_PROPERTY, DEFAULT_TIMEOUT_MILLIS);
            exitDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, timeout));
        }
    }

    /** @return whether the JVM's exit has been noticed (without probing) */
    static boolean exitNoticed() {
        synchronized (LOCK) {
            return exiting;
        }
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
        List<Spool> open;
        long deadline;
        synchronized (LOCK) {
            noticeExit();
            deadline = exitDeadline;
            open = new ArrayList<>(OPEN);
        }
        for (Spool s : open) {
            s.beginExit(deadline, true);
        }
        for (Spool s : open) {
            s.awaitExitDrain(deadline);
        }
    }
}
