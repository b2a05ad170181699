package io.github.spool.bench.time;

import io.github.spool.time.CachedClock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Cost of one clock read: Spool's {@link CachedClock} against {@link System#currentTimeMillis()},
 * log4j2's {@code CachedClock} and {@code CoarseCachedClock}, and a hutool-style
 * scheduled-executor clock. Run with {@code -t 1} and {@code -t 2}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ClockBenchmark {

    private CachedClock spool;
    private org.apache.logging.log4j.core.util.CachedClock log4j2Cached;
    private org.apache.logging.log4j.core.util.CoarseCachedClock log4j2Coarse;
    private ScheduledExecutorClock scheduled;

    /** Starts every clock before measuring, so no run pays a thread start. */
    @Setup
    public void setUp() {
        spool = CachedClock.get();
        log4j2Cached = org.apache.logging.log4j.core.util.CachedClock.instance();
        log4j2Coarse = org.apache.logging.log4j.core.util.CoarseCachedClock.instance();
        scheduled = ScheduledExecutorClock.get();
    }

    /** Anchor: the system call (vDSO on Linux). */
    @Benchmark
    public long systemCurrentTimeMillis() {
        return System.currentTimeMillis();
    }

    /** Spool's cached clock. */
    @Benchmark
    public long spoolCachedClock() {
        return spool.currentTimeMillis();
    }

    /** log4j2 {@code org.apache.logging.log4j.core.util.CachedClock}. */
    @Benchmark
    public long log4j2CachedClock() {
        return log4j2Cached.currentTimeMillis();
    }

    /** log4j2 {@code org.apache.logging.log4j.core.util.CoarseCachedClock}. */
    @Benchmark
    public long log4j2CoarseCachedClock() {
        return log4j2Coarse.currentTimeMillis();
    }

    /** hutool-style {@code ScheduledExecutorService} clock. */
    @Benchmark
    public long hutoolStyleScheduledClock() {
        return scheduled.currentTimeMillis();
    }
}
