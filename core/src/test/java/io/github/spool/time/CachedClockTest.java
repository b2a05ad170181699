package io.github.spool.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        List<Thread> clock = clockThreads();
        assertEquals(1, clock.size(), "threads named " + CachedClock.THREAD_NAME + ": " + clock);
        assertTrue(clock.get(0).isDaemon(), "the clock thread must not keep the JVM alive");
    }

    @Test
    void staysWithinAFewMillisecondsOfTheSystemClock() {
        final CachedClock clock = CachedClock.get();
        final int reads = 2_000_000;
        int late = 0;
        long worst = 0;
        for (int i = 0; i < reads; i++) {
            final long before = System.currentTimeMillis();
            final long cached = clock.currentTimeMillis();
            final long after = System.currentTimeMillis();
            assertTrue(cached <= after, () -> "cached clock ahead of the system clock: " + cached + " > " + after);
            final long lag = before - cached;
            worst = Math.max(worst, lag);
            if (lag > 4) {
                late++;
            }
        }
        // The refresher runs every millisecond; on a shared 2-core machine it can be descheduled
        // now and then, so the bound is on the share of late reads, not on the worst one.
        assertTrue(late < reads / 100, "reads more than 4 ms behind: " + late + " of " + reads + ", worst " + worst);
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
