package io.github.spool.io;

import io.github.spool.ring.ManyToOneCellRing;
import io.github.spool.time.TimestampFormat;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Does on a thread of its own ({@code spool-ahead-<name>}) the two once-in-a-while jobs that would
 * otherwise land on a logging call, ahead of the call that would need them: allocating the ring's
 * next cell, and rendering the next second of the timestamp formats in use. Internal to Spool.
 *
 * <p><b>The next cell.</b> When a producer installs the last pooled cell below the cap it asks for
 * one ({@code ManyToOneCellRing.poolRanDry}); this thread allocates it into the pool while that
 * producer fills the one it installed, then wakes the writer. Without it the next producer to find
 * the pool empty allocated the cell itself: 130–225 µs on that call, measured with a reader that
 * takes 16 KiB per 10 ms (docs/benchmarks.md). A producer that outruns this thread still allocates
 * itself, as before. The first request of a while comes with an unpark; after it, while the ring
 * keeps growing (a request within the last 250 ms), this thread polls the flag every 2 ms and
 * installers skip the unpark, which cost their call tens of µs.
 *
 * <p><b>The next second.</b> From the middle of each second it renders the coming second of every
 * format used in the current one ({@link TimestampFormat#prepareNextSecond}), so that the first
 * call of a second finds it rendered: run once a second, that render never gets compiled, and cost
 * the call that did it 70–400 µs in the interpreter. The writer does the same on each pass, but with
 * a slow reader it spends seconds blocked in one write, and the render was then left to a call.
 *
 * <p>Neither job can be the writer's for that reason: it may be blocked in a write of up to 16
 * cells. While the writer sleeps without a timeout (nothing logged for a while) this thread parks
 * without one too, so an idle appender costs no wake-ups; the writer unparks it when records come
 * again. The writer starts it at its first records, so an appender that never logs has none, and
 * stops it when it ends (join bounded by one second: an allocation can sleep in the JDK's
 * direct-memory slow path).
 */
final class AheadWorker implements Runnable {

    /** The render of the next second starts here in each second ({@code SecondsAhead}), plus 1 ms. */
    private static final long TICK_AT_MILLIS = 501;
    /** While the ring grows: how often requests are polled, and for how long after the last one. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long POLL_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final ManyToOneCellRing ring;
    private volatile boolean stopped;

    AheadWorker(ManyToOneCellRing ring) {
        this.ring = ring;
    }

    @Override
    public void run() {
        boolean polling = false;
        long pollUntil = 0;
        while (!stopped) {
            // A set interrupt status would make every park return at once (a spinning thread):
            // Spool never interrupts it, and ignores anyone who does, as the writer does.
            Thread.interrupted();
            if (polling) {
                if (System.nanoTime() - pollUntil < 0) {
                    LockSupport.parkNanos(this, POLL_NANOS);
                } else {
                    // No request for a while: installers unpark us again. Stored before the
                    // request is taken below, without a park in between (the ring's Dekker).
                    polling = false;
                    ring.growerPolls(false);
                }
            } else if (ring.signal().isSleeping()) {
                // Idle: an installer's request or the writer's wake-up unparks us (a permit waits
                // if it came first).
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, nanosToNextTick(System.currentTimeMillis()));
            }
            if (stopped) {
                return;
            }
            TimestampFormat.prepareNextSecond(System.currentTimeMillis());
            if (ring.takeGrowRequest()) {
                try {
                    ring.growAhead();
                } catch (Throwable t) {
                    // Out of memory or the like: producers allocate themselves, and fail there visibly.
                }
                ring.signal().wakeNow();
                // The ring grows: poll for the next request rather than be unparked by the call
                // that makes it (an unpark cost that call tens of µs).
                pollUntil = System.nanoTime() + POLL_WINDOW_NANOS;
                if (!polling) {
                    polling = true;
                    ring.growerPolls(true);
                }
            }
        }
    }

    /** @return nanoseconds from {@code nowMillis} to the next {@link #TICK_AT_MILLIS} of a second */
    static long nanosToNextTick(long nowMillis) {
        long tick = Math.floorDiv(nowMillis, 1000L) * 1000L + TICK_AT_MILLIS;
        if (tick <= nowMillis) {
            tick += 1000L;
        }
        return TimeUnit.MILLISECONDS.toNanos(tick - nowMillis);
    }

    /** Stops the thread and waits for it (at most one second). */
    void stop(Thread thread) {
        stopped = true;
        ring.grower(null);
        ring.growerPolls(false);
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
