package io.github.spool;

import io.github.spool.ring.ManyToOneCellRing;
import io.github.spool.time.TimestampFormat;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Compiles Spool's rare paths before an appender needs them: the ring's cell switch (once per
 * cell of records) and the timestamp's new second (once a second). The JIT compiles what runs
 * often; these run too seldom to be compiled for minutes or hours, and interpreted and cold each
 * took 60–340 µs of the call that met it, tens of times a second in all (docs/benchmarks.md,
 * "the cell switch"). One daemon thread per JVM runs both on private instances, in tens of
 * milliseconds of CPU, while the application starts; {@code -Dspool.warmUp=false} turns it off.
 * Internal to Spool.
 */
public final class WarmUp {

    /** System property: {@code false} turns the warm-up off. */
    public static final String PROPERTY = "spool.warmUp";

    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private WarmUp() {
    }

    /** Starts the warm-up thread the first time an appender starts, unless turned off. */
    static void startOnce() {
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true")) || !STARTED.compareAndSet(false, true)) {
            return;
        }
        SpoolThreads.newThread(WarmUp::run, "spool-warm-up", true).start();
    }

    /**
     * Runs both warm-ups on the calling thread.
     *
     * @return the records the ring warm-up's consumer collected (one per cell switch)
     */
    static long run() {
        long records = ManyToOneCellRing.warmUp();
        TimestampFormat.warmUp();
        return records;
    }
}
