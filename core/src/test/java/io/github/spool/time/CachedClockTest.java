package io.github.spool.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The JVM-wide clock: one thread, a daemon, close behind the system clock; idle and wake-up. */
class CachedClockTest {

    private static List<Thread> clockThreads() {
        List<Thread> found = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(CachedClock.THREAD_NAME) && t.isAlive()) {
                found.add(t);
            }
        }
        return found;
    }

    @Test
    void oneDaemonThreadHoweverOftenAskedFor() throws Exception {
        final int threads = 8;
        final CountDownLatch go = new CountDownLatch(1);
        final CachedClock[] seen = new CachedClock[threads * 100];
        List<Thread> askers = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
            final int base = k * 100;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < 100; i++) {
                    seen[base + i] = CachedClock.get();
                }
            });
            t.start();
            askers.add(t);
        }
        go.countDown();
        for (Thread t : askers) {
            t.join();
        }
        for (CachedClock c : seen) {
            assertSame(CachedClock.get(), c);
        }
        // An earlier test's last appender may have asked the refresher to end: let it end; then
        // a read starts another (as it does after an idle exit).
        CachedClock shared = CachedClock.get();
        if (shared.exitPendingForTest()) {
            shared.refresherForTest().join(5_000);
        }
        shared.currentTimeMillis();
        Thread current = shared.refresherForTest();
        for (Thread t : clockThreads()) {
            if (t != current) {
                t.join(5_000); // an ended refresher between its last step and its death
            }
        }
        List<Thread> clock = clockThreads();
        assertEquals(List.of(current), clock, "threads named " + CachedClock.THREAD_NAME);
        assertTrue(clock.get(0).isDaemon(), "the clock thread must not keep the JVM alive");
    }

    @Test
    void endsItsThreadWhenAskedAndStartsAnotherOnTheNextRead() throws Exception {
        final CachedClock clock = new CachedClock("spool-clock-test-exit", TimeUnit.MILLISECONDS.toNanos(1), 200, 60_000);
        try {
            Thread first = clock.refresherForTest();
            clock.requestExit();
            first.join(5_000);
            assertFalse(first.isAlive(), "refresher still running after requestExit()");
            assertTrue(clock.isSleeping(), "readers must see SLEEPING once the thread ended");
            long before = System.currentTimeMillis();
            long read = clock.currentTimeMillis();
            assertTrue(read >= before && read <= System.currentTimeMillis(), "an ended clock reads the system clock");
            Thread second = clock.refresherForTest();
            assertNotSame(first, second, "the read started a new refresher");
            awaitTrue(() -> !clock.isSleeping(), "new refresher never published a time");
            assertTrue(second.isAlive());
        } finally {
            clock.stopForTest();
        }
    }

    @Test
    void endsItsThreadAfterSleepingLongEnough() throws Exception {
        final CachedClock clock = new CachedClock("spool-clock-test-idle-exit", TimeUnit.MILLISECONDS.toNanos(1), 20, 50);
        try {
            Thread first = clock.refresherForTest();
            first.join(5_000); // nobody reads: idle window, then the exit delay, then it ends
            assertFalse(first.isAlive(), "idle refresher never ended");
            assertTrue(clock.isSleeping());
            clock.currentTimeMillis();
            Thread second = clock.refresherForTest();
            assertNotSame(first, second);
            assertSame(ClassLoader.getSystemClassLoader(), second.getContextClassLoader(),
                    "a refresher started by a reader does not keep the reader's context class loader");
        } finally {
            clock.stopForTest();
        }
    }

    @Test
    void staysWithinAFewMillisecondsOfTheSystemClock() {
        // The bound is on the distribution of the lag over many reads, not on a single read: the
        // refresher runs every millisecond, but on a shared 2-core machine (load average 10 was
        // seen here) the scheduler can leave it off-CPU for tens of milliseconds. A clock that
        // did not refresh, or refreshed every 10 ms, fails every attempt; a starved machine gets
        // three attempts.
        String last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            last = lagReport(CachedClock.get(), 2_000_000);
            if (last == null) {
                return;
            }
        }
        throw new AssertionError(last);
    }

    /** Null when the median lag is at most 1 ms and 90% of reads lag at most 4 ms. */
    private static String lagReport(CachedClock clock, int reads) {
        final long[] histogram = new long[1001]; // lag in ms, last bucket = 1000 and more
        for (int i = 0; i < reads; i++) {
            final long before = System.currentTimeMillis();
            final long cached = clock.currentTimeMillis();
            final long after = System.currentTimeMillis();
            assertTrue(cached <= after, () -> "cached clock ahead of the system clock: " + cached + " > " + after);
            histogram[(int) Math.min(Math.max(before - cached, 0), 1000)]++;
        }
        final long p50 = percentile(histogram, reads, 0.50);
        final long p90 = percentile(histogram, reads, 0.90);
        if (p50 <= 1 && p90 <= 4) {
            return null;
        }
        return "lag over " + reads + " reads: p50 " + p50 + " ms, p90 " + p90 + " ms, p99 "
            + percentile(histogram, reads, 0.99) + " ms, max " + percentile(histogram, reads, 1.0) + " ms";
    }

    private static long percentile(long[] histogram, int total, double q) {
        long seen = 0;
        for (int lag = 0; lag < histogram.length; lag++) {
            seen += histogram[lag];
            if (seen >= (long) Math.ceil(q * total)) {
                return lag;
            }
        }
        return histogram.length - 1;
    }

    @Test
    void sleepsWhenNobodyReadsAndWakesOnTheNextRead() throws Exception {
        final CachedClock clock = new CachedClock("spool-clock-test", TimeUnit.MILLISECONDS.toNanos(1), 20);
        try {
            awaitTrue(clock::isSleeping, "refresher never went idle");
            assertEquals(0, clock.stalenessMillis());
            // While asleep a read is the system clock itself and requests a wake-up.
            final int wakeUps = clock.wakeUps();
            final long before = System.currentTimeMillis();
            final long read = clock.currentTimeMillis();
            final long after = System.currentTimeMillis();
            assertTrue(before <= read && read <= after, before + " <= " + read + " <= " + after);
            awaitTrue(() -> clock.wakeUps() > wakeUps, "refresher not woken by a read");
            // And it goes back to sleep once reads stop again.
            awaitTrue(clock::isSleeping, "refresher never went idle again");
        } finally {
            clock.stopForTest();
        }
    }

    @Test
    void keepsRefreshingWhileRead() throws Exception {
        // A 200 ms window: a reader that runs continuously for a second acknowledges every probe,
        // so the refresher must never go idle (and never need waking).
        final CachedClock clock = new CachedClock("spool-clock-test", TimeUnit.MILLISECONDS.toNanos(1), 200);
        try {
            final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            long reads = 0;
            long last = clock.currentTimeMillis();
            while (System.nanoTime() < end) {
                final long v = clock.currentTimeMillis();
                assertTrue(v >= last - 1000, "clock jumped back from " + last + " to " + v);
                last = v;
                reads++;
            }
            assertEquals(0, clock.wakeUps(), "refresher went idle although read " + reads + " times");
            assertFalse(clock.isSleeping());
        } finally {
            clock.stopForTest();
        }
    }

    @Test
    void manualClockMovesOnlyByHand() {
        ManualClock c = new ManualClock(1000);
        assertEquals(1000, c.currentTimeMillis());
        c.advance(5);
        assertEquals(1005, c.currentTimeMillis());
        c.set(42);
        assertEquals(42, c.currentTimeMillis());
        c.advance(-2);
        assertEquals(40, c.currentTimeMillis());
        MillisClock asInterface = c;
        assertFalse(asInterface instanceof CachedClock);
    }

    /** Polls with a bounded deadline; the state change is driven by the clock's own period. */
    private static void awaitTrue(BooleanSupplier condition, String message) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, message);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
