package io.github.spool.bench.time;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The hutool {@code SystemClock} design, an anchor for the clock benchmarks: a single-thread
 * {@link ScheduledExecutorService} stores {@link System#currentTimeMillis()} into a volatile field
 * every millisecond. Written here so the suite needs no hutool dependency.
 */
public final class ScheduledExecutorClock {

    /** Name of the scheduler thread, for the idle-CPU program. */
    public static final String THREAD_NAME = "hutool-style-clock";

    private static final class Holder {
        static final ScheduledExecutorClock INSTANCE = new ScheduledExecutorClock(1);
    }

    private volatile long now = System.currentTimeMillis();

    private ScheduledExecutorClock(long periodMillis) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, THREAD_NAME);
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleAtFixedRate(() -> now = System.currentTimeMillis(), periodMillis, periodMillis,
            TimeUnit.MILLISECONDS);
    }

    /**
     * The shared instance, started on first use.
     *
     * @return the clock
     */
    public static ScheduledExecutorClock get() {
        return Holder.INSTANCE;
    }

    /**
     * The cached time.
     *
     * @return milliseconds since the epoch, refreshed every millisecond
     */
    public long currentTimeMillis() {
        return now;
    }
}
