package io.github.spool.io;

import io.github.spool.ring.ManyToOneCellRing;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Allocates the ring's next cell ahead of need, on a thread of its own, so that no logging call
 * allocates one. Internal to Spool.
 *
 * <p>When a producer installs the last pooled cell below the cap it unparks this thread
 * ({@code ManyToOneCellRing.poolRanDry}); the grower allocates one cell into the pool while that
 * producer fills the one it installed, then wakes the writer. Without it the next producer to find
 * the pool empty allocated the cell itself: 130–225 µs on that call, measured with a reader that
 * takes 16 KiB per 10 ms (docs/benchmarks.md). The writer cannot do it: with a slow reader it spends
 * seconds blocked in one write of up to 16 cells, while the ring grows by a cell every few tens of
 * milliseconds. A producer that outruns the grower still allocates itself, as before.
 *
 * <p>The writer starts the grower when it first collects records, so an appender that never logs
 * has none, and stops it when it ends (join bounded by one second: an
 * allocation can sleep in the JDK's direct-memory slow path).
 */
final class CellGrower implements Runnable {

    private final ManyToOneCellRing ring;
    private volatile boolean stopped;

    CellGrower(ManyToOneCellRing ring) {
        this.ring = ring;
    }

    @Override
    public void run() {
        while (!stopped) {
            // A set interrupt status would make every park return at once (a spinning thread):
            // Spool never interrupts it, and ignores anyone who does, as the writer does.
            Thread.interrupted();
            // Untimed: every wake-up is an installer's unpark (a permit waits if it came first). A
            // spurious return allocates at most one cell the ring may not need until it trims.
            LockSupport.park(this);
            if (stopped) {
                return;
            }
            try {
                ring.growAhead();
            } catch (Throwable t) {
                // Out of memory or the like: producers allocate themselves, and fail there visibly.
            }
            ring.signal().wakeNow();
        }
    }

    /** Stops the grower and waits for it (at most one second). */
    void stop(Thread thread) {
        stopped = true;
        ring.grower(null);
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
