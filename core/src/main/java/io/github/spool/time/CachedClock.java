package io.github.spool.time;

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
 * <p>Thread-safe. The refresher is a daemon: it never keeps the JVM alive.
 */
public final class CachedClock extends CachedClockL2Pad implements MillisClock {

    /** Name of the refresher thread of the JVM-wide instance. */
    public static final String THREAD_NAME = "spool-clock";

    /** Refresh period in nanoseconds while awake: one millisecond, the clock's resolution. */
    static final long DEFAULT_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** A whole window without a read puts the refresher to sleep. */
    static final long DEFAULT_IDLE_WINDOW_MILLIS = 1000;

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
        static final CachedClock INSTANCE = new CachedClock(THREAD_NAME, DEFAULT_PERIOD_NANOS, DEFAULT_IDLE_WINDOW_MILLIS);
    }

    // Cold fields, after the padding: they never share a cache line with the word.
    private final Thread refresher;
    private final long periodNanos;
    private final long idleWindowMillis;
    /** 0 while the refresher sleeps and nobody asked it to wake; 1 otherwise. CAS 0 -> 1 unparks. */
    private int wakeRequested = 1;
    private volatile boolean stopped;
    /** Times the refresher woke from idle; single writer (the refresher), for tests. */
    private volatile int wakeUps;

    /**
     * Creates a clock with its own refresher thread. Package-private: production code shares
     * {@link #get()}; tests use short windows.
     */
    CachedClock(String threadName, long periodNanos, long idleWindowMillis) {
        this.periodNanos = periodNanos;
        this.idleWindowMillis = idleWindowMillis;
        soWord(System.currentTimeMillis() << 1);
        this.refresher = new Thread(this::refreshLoop, threadName);
        refresher.setDaemon(true);
        refresher.start(); // Thread.start happens-before the thread's first action
    }

    /**
     * Creates a clock without a refresher thread, showing {@code millis}, for the jcstress tests
     * (module {@code stress-tests}), which play the refresher's steps ({@link #store},
     * {@link #trySleep}) from their own actor threads. Internal.
     */
    private CachedClock(long millis) {
        this.periodNanos = 0;
        this.idleWindowMillis = 0;
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
        if ((int) WAKE_REQUESTED.getAcquire(this) == 0 && WAKE_REQUESTED.compareAndSet(this, 0, 1)) {
            LockSupport.unpark(refresher);
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
        LockSupport.unpark(refresher);
        refresher.join();
    }

    private void refreshLoop() {
        long windowStart = System.currentTimeMillis();
        store(windowStart, true);
        while (!stopped) {
            LockSupport.parkNanos(this, periodNanos);
            Thread.interrupted(); // nobody should interrupt us; if someone does, do not spin
            final long now = System.currentTimeMillis();
            if (now - windowStart < idleWindowMillis && now >= windowStart) {
                store(now, false);
                continue;
            }
            // Window over (or the wall clock stepped back): was the probe acknowledged?
            final long w = lvWord();
            if ((w & PROBE) != 0 && trySleep(w)) {
                sleepUntilWoken();
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
        return (int) WAKE_REQUESTED.getAcquire(this) != 0;
    }

    private void sleepUntilWoken() {
        while ((int) WAKE_REQUESTED.getAcquire(this) == 0 && !stopped) {
            LockSupport.park(this);
            Thread.interrupted();
        }
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
