package io.github.spool.time;

import io.github.spool.SpoolThreads;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A wall clock read in about a nanosecond: one daemon thread per JVM ({@code "spool-clock"})
 * stores {@link System#currentTimeMillis()} into a padded field about every millisecond, and
 * readers load that field.
 *
 * <h2>Idle strategy</h2>
 * Refreshing costs a wake-up per millisecond whether anybody logs or not. So the refresher stops
 * when nobody read the clock during a whole idle window ({@value #DEFAULT_IDLE_WINDOW_MILLIS} ms):
 * it publishes {@code SLEEPING} and parks. A reader that sees {@code SLEEPING} returns
 * {@link System#currentTimeMillis()} itself (so a read is never stale) and unparks the refresher
 * once. Detecting reads costs readers almost nothing: the word carries a <em>probe</em> bit
 * ({@code word = millis << 1 | probe}); the refresher sets it at the start of each window, and the
 * first reader that sees it clears it with one CAS. The fast path is one acquire load, a bit test
 * and a shift; the CAS happens once per window, not per read.
 *
 * <h2>Ordering</h2>
 * The word is self-contained (no other data is published with it), so the acquire load / release
 * store pair ({@code lvWord}/{@code soWord}, and the volatile CASes) is needed only for two
 * things: a reader that sees a value sees the values stored before it (per-location coherence
 * already gives that, acquire makes it explicit and keeps the load from being hoisted out of a
 * reader's loop), and a reader that sees {@code SLEEPING} also sees the {@code wakeRequested = 0}
 * the refresher stored before it (release/acquire), so exactly one reader's CAS on
 * {@code wakeRequested} wins and unparks the refresher.
 *
 * <h2>Thread lifecycle</h2>
 * The refresher must not outlive its users: in an application server, a thread running this
 * class keeps the class loader of a web application that bundles Spool reachable after undeploy.
 * So a refresher that has slept {@value #DEFAULT_EXIT_AFTER_MILLIS} ms without a reader ends,
 * and {@link #requestExit()} (called when the last Spool appender of this class loader stops) ends
 * it at once. Either way it first publishes {@code SLEEPING}, then moves {@code wakeRequested}
 * from 0 to {@code EXITED} by CAS; a reader that meets {@code SLEEPING} and {@code EXITED} moves
 * it back to 1 by CAS and starts a new refresher (only the CAS winner does). If a reader's wake
 * request wins instead, the refresher keeps running. Refresher threads are created by
 * {@code SpoolThreads}: no inherited thread-locals, access control context or context class
 * loader of whichever thread happened to read first.
 *
 * <p>Thread-safe. The refresher is a daemon: it never keeps the JVM alive.
 */
public final class CachedClock extends CachedClockL2Pad implements MillisClock {

    /** Name of the refresher thread of the JVM-wide instance. */
    public static final String THREAD_NAME = "spool-clock";

    /** Refresh period in nanoseconds while awake: one millisecond, the clock's resolution. */
    static final long DEFAULT_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** A whole window without a read puts the refresher to sleep. */
    static final long DEFAULT_IDLE_WINDOW_MILLIS = 1000;

    /**
     * A refresher asleep this long ends its thread. Long enough that a program logging now and
     * then pays a thread start at most once per pause of this length (instead of an unpark), short
     * enough that an undeployed application's class loader is not kept for long.
     */
    static final long DEFAULT_EXIT_AFTER_MILLIS = 10_000;

    /** {@code wakeRequested} value: the refresher's thread has ended; the next reader starts one. */
    private static final int EXITED = 2;

    /** Low bit of the word: set by the refresher, cleared by the first reader that sees it. */
    private static final long PROBE = 1L;

    /** Word value while the refresher sleeps; odd, so readers reach it through the probe test. */
    private static final long SLEEPING = -1L;

    private static final VarHandle WAKE_REQUESTED;

    static {
        try {
            WAKE_REQUESTED = MethodHandles.lookup().findVarHandle(CachedClock.class, "wakeRequested", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Lazy holder: the thread starts on the first {@link #get()}, and only once (JLS 12.4.2). */
    private static final class Holder {
        static final CachedClock INSTANCE = new CachedClock(THREAD_NAME, DEFAULT_PERIOD_NANOS, DEFAULT_IDLE_WINDOW_MILLIS,
                DEFAULT_EXIT_AFTER_MILLIS);

        static {
            shared = INSTANCE;
        }
    }

    /** {@link Holder#INSTANCE} once created; lets {@link #requestSharedExit()} avoid creating it. */
    private static volatile CachedClock shared;

    // Cold fields, after the padding: they never share a cache line with the word.
    /** The current refresher thread; replaced when a reader restarts an ended one. */
    private volatile Thread refresher;
    private final String threadName;
    private final long periodNanos;
    private final long idleWindowMillis;
    private final long exitAfterNanos;
    /**
     * 0 while the refresher sleeps and nobody asked it to wake; 1 otherwise; {@code EXITED} once
     * its thread ended. CAS 0 -> 1 unparks it, CAS EXITED -> 1 starts a new one.
     */
    private int wakeRequested = 1;
    private volatile boolean stopped;
    /**
     * Set by {@link #requestExit()}. A refresher that ends leaves it set (so that "set" means "ended
     * or about to"); one that keeps running clears it, and so does the start of a new one.
     */
    private volatile boolean exitRequested;
    /** Times the refresher woke from idle; single writer (the refresher), for tests. */
    private volatile int wakeUps;

    /**
     * Creates a clock with its own refresher thread. Package-private: production code shares
     * {@link #get()}; tests use short windows.
     */
    CachedClock(String threadName, long periodNanos, long idleWindowMillis) {
        this(threadName, periodNanos, idleWindowMillis, DEFAULT_EXIT_AFTER_MILLIS);
    }

    /** As above, with the time a sleeping refresher waits before its thread ends. */
    CachedClock(String threadName, long periodNanos, long idleWindowMillis, long exitAfterMillis) {
        this.threadName = threadName;
        this.periodNanos = periodNanos;
        this.idleWindowMillis = idleWindowMillis;
        this.exitAfterNanos = TimeUnit.MILLISECONDS.toNanos(exitAfterMillis);
        soWord(System.currentTimeMillis() << 1);
        startRefresher();
    }

    /**
     * Creates a clock without a refresher thread, showing {@code millis}, for the jcstress tests
     * (module {@code stress-tests}), which play the refresher's steps ({@link #store},
     * {@link #trySleep}) from their own actor threads. Internal.
     */
    private CachedClock(long millis) {
        this.threadName = null; // never starts a thread: only a refresher ever sets EXITED
        this.periodNanos = 0;
        this.idleWindowMillis = 0;
        this.exitAfterNanos = 0;
        this.refresher = null; // LockSupport.unpark(null) does nothing
        soWord(millis << 1);
    }

    /** A clock with no refresher thread; see {@link #CachedClock(long)}. Internal, for jcstress. */
    static CachedClock withoutRefresherForStress(long millis) {
        return new CachedClock(millis);
    }

    /**
     * Returns the one JVM-wide instance, starting its refresher thread on first use.
     *
     * @return the shared clock
     */
    public static CachedClock get() {
        return Holder.INSTANCE;
    }

    /**
     * Returns the cached time: at most about one refresh period behind
     * {@link System#currentTimeMillis()} while the refresher is scheduled, exact while it sleeps.
     *
     * @return milliseconds since the epoch
     */
    @Override
    public long currentTimeMillis() {
        final long w = lvWord();
        if ((w & PROBE) == 0) {
            return w >> 1;
        }
        return slowRead(w);
    }

    private long slowRead(long w) {
        if (w == SLEEPING) {
            requestWake();
            return System.currentTimeMillis();
        }
        // Acknowledge the probe: "somebody reads". Losing the CAS is fine: either another reader
        // acknowledged, or the refresher stored a newer value that still carries the probe, and
        // a later read acknowledges that one.
        casWord(w, w & ~PROBE);
        return w >> 1;
    }

    private void requestWake() {
        while (true) {
            final int state = (int) WAKE_REQUESTED.getAcquire(this);
            if (state == 0) {
                if (WAKE_REQUESTED.compareAndSet(this, 0, 1)) {
                    LockSupport.unpark(refresher);
                    return;
                }
                // Lost to another reader (then it is woken) or to the refresher ending: look again.
            } else {
                if (state == EXITED && WAKE_REQUESTED.compareAndSet(this, EXITED, 1)) {
                    startRefresher();
                }
                return;
            }
        }
    }

    private void startRefresher() {
        // The ended refresher left its exit request set (see refreshLoop); it is fulfilled. An
        // exit requested just now is lost: the idle exit still ends this thread.
        exitRequested = false;
        Thread t = SpoolThreads.newThread(this::refreshLoop, threadName, true);
        refresher = t; // before start: an unpark must reach the new thread
        t.start(); // Thread.start happens-before the thread's first action
    }

    /**
     * Ends the refresher's thread now unless a reader is waiting for it; the next read starts a
     * new one. Spool calls this when its last appender stops, so that an idle clock keeps no
     * thread (and no class loader) alive.
     */
    public void requestExit() {
        exitRequested = true;
        LockSupport.unpark(refresher);
    }

    /** {@link #requestExit()} on the JVM-wide instance if it exists; never creates it. */
    public static void requestSharedExit() {
        CachedClock c = shared;
        if (c != null) {
            c.requestExit();
        }
    }

    /**
     * How far the cached value lags the system clock now; 0 while the refresher sleeps (readers
     * then read the system clock). For JMX.
     *
     * @return {@code System.currentTimeMillis() - cached}, in milliseconds
     */
    public long stalenessMillis() {
        final long w = lvWord();
        return w == SLEEPING ? 0 : System.currentTimeMillis() - (w >> 1);
    }

    /** Whether the refresher is parked for lack of readers; for tests and diagnostics. */
    boolean isSleeping() {
        return lvWord() == SLEEPING;
    }

    /** Times the refresher came back from idle; for tests and diagnostics. */
    int wakeUps() {
        return wakeUps;
    }

    /** Ends a test instance's thread and waits for it. Never called on {@link #get()}'s instance. */
    void stopForTest() throws InterruptedException {
        stopped = true;
        Thread t = refresher;
        LockSupport.unpark(t);
        t.join();
    }

    /** Whether an exit was requested and the refresher has ended or is about to; for tests. */
    boolean exitPendingForTest() {
        return exitRequested;
    }

    /** The current refresher thread, alive or ended; for tests. */
    Thread refresherForTest() {
        return refresher;
    }

    private void refreshLoop() {
        long windowStart = System.currentTimeMillis();
        store(windowStart, true);
        while (!stopped) {
            LockSupport.parkNanos(this, periodNanos);
            Thread.interrupted(); // nobody should interrupt us; if someone does, do not spin
            if (exitRequested) {
                if (exitNow()) {
                    return;
                }
                exitRequested = false;
                // A reader met SLEEPING and asked for us: keep refreshing.
                windowStart = System.currentTimeMillis();
                store(windowStart, true);
                continue;
            }
            final long now = System.currentTimeMillis();
            if (now - windowStart < idleWindowMillis && now >= windowStart) {
                store(now, false);
                continue;
            }
            // Window over (or the wall clock stepped back): was the probe acknowledged?
            final long w = lvWord();
            if ((w & PROBE) != 0 && trySleep(w)) {
                if (!sleepUntilWoken()) {
                    if (WAKE_REQUESTED.compareAndSet(this, 0, EXITED)) {
                        return; // the next reader starts a new refresher
                    }
                    exitRequested = false; // a reader's wake request came first: carry on as woken
                }
                if (stopped) {
                    return;
                }
                wakeUps = wakeUps + 1; // single writer
            }
            // else: a reader acknowledged the probe (before our load or before the CAS): keep refreshing.
            windowStart = System.currentTimeMillis();
            store(windowStart, true);
        }
    }

    /**
     * The refresher's step into idle: publishes {@code SLEEPING} in place of {@code w} (a word
     * whose probe nobody acknowledged), unless a reader acknowledged it meanwhile. Package-private
     * for the jcstress tests; only the refresher calls it.
     *
     * @param w the word as the refresher last loaded it, probe set
     * @return true if {@code SLEEPING} is published and the refresher must park until woken
     */
    boolean trySleep(long w) {
        // Reset the wake flag before publishing SLEEPING (release), so a reader that acquires
        // SLEEPING sees 0 and can CAS it.
        WAKE_REQUESTED.setRelease(this, 0);
        return casWord(w, SLEEPING);
    }

    /** Whether some reader asked the refresher to wake since it last published SLEEPING; for jcstress. */
    boolean wakeRequested() {
        return (int) WAKE_REQUESTED.getAcquire(this) == 1;
    }

    /**
     * Parks until a reader asks for a wake-up (or the clock is stopped).
     *
     * @return false if instead the exit delay passed or an exit was requested: the caller ends
     *         the thread unless a reader's request beats it
     */
    private boolean sleepUntilWoken() {
        final long deadline = System.nanoTime() + exitAfterNanos;
        while ((int) WAKE_REQUESTED.getAcquire(this) == 0 && !stopped) {
            final long left = deadline - System.nanoTime();
            if (left <= 0 || exitRequested) {
                return false;
            }
            LockSupport.parkNanos(this, left);
            Thread.interrupted();
        }
        return true;
    }

    /**
     * An awake refresher's exit: publishes {@code SLEEPING} whatever the probe says (readers then
     * read the system clock), then tries to move {@code wakeRequested} 0 -> {@code EXITED}.
     *
     * @return true if the thread must end; false if a reader already asked it to stay
     */
    private boolean exitNow() {
        // As in trySleep: reset the flag before SLEEPING is visible (release), so the reader that
        // acquires SLEEPING sees 0 and can ask for a wake-up that this CAS then loses to.
        WAKE_REQUESTED.setRelease(this, 0);
        long w;
        do {
            w = lvWord(); // readers only clear the probe; they never store SLEEPING or a time
        } while (!casWord(w, SLEEPING));
        return WAKE_REQUESTED.compareAndSet(this, 0, EXITED);
    }

    /**
     * Publishes {@code millis}; with {@code arm} sets the probe, otherwise keeps whatever probe
     * state readers left (only called while awake, so the word is never {@code SLEEPING} here).
     * Readers only ever clear the probe, and only while it is set; so when it is clear the
     * refresher is the only writer and a release store is enough. While it is set a reader may
     * clear it concurrently, so that store is a CAS, retried at most once per acknowledgement.
     * Package-private for the jcstress tests; only the refresher calls it.
     */
    void store(long millis, boolean arm) {
        final long value = millis << 1;
        while (true) {
            final long w = lvWord();
            if ((w & PROBE) == 0 && !arm) {
                soWord(value); // common case: single writer, release store
                return;
            }
            final long next = arm ? value | PROBE : value | (w & PROBE);
            if (casWord(w, next)) {
                return;
            }
        }
    }
}
