package io.github.spool.bench.time;

import io.github.spool.time.TimestampFormat;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.core.time.MutableInstant;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The timestamp formatters of {@link TimestampBenchmark} (same pattern, zone and formatter
 * instances), but every thread reads its second from one shared clock, as in real logging where
 * the instants of all threads fall within the same second or two.
 *
 * <p>Why a second benchmark: in {@link TimestampBenchmark} each thread walks its own clock one
 * millisecond per call, so with two threads the clocks drift apart (one thread makes more calls)
 * and the threads format different seconds — hours apart after a few iterations. That measures
 * formatters shared by threads that live in different seconds, not logging.
 *
 * <p>The shared clock: thread 0 (the leader) moves its millisecond by one per call and, every
 * 1,000 calls, publishes the next second (one release store per 1,000 calls, so the clock's cache
 * line is not a bottleneck); the other threads read that second (acquire load) and add their own
 * millisecond counter, also moving one per call. So, as in {@link TimestampBenchmark}, a new
 * second comes every 1,000 calls of the leader (the per-second render is included, amortised),
 * and every thread's millisecond changes on every call. With one thread this is exactly
 * {@link TimestampBenchmark}'s sequence.
 *
 * <p>{@code skewMillis} shifts thread {@code i}'s instants by {@code i * skewMillis}: 0 is real
 * logging; 1000 puts the two threads in adjacent seconds; 2000 puts them in different seconds of
 * the same parity — for a cache with one slot per even/odd second, the worst case, where the two
 * threads compete for one slot on every call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TimestampSharedClockBenchmark {

    /** Start of the clock: 2025-11-22 04:13:20 in Berlin, far from midnight and from DST changes. */
    static final long START_MILLIS = 1_763_781_200_000L;

    /** The second all threads read; advanced by thread 0. */
    @State(Scope.Benchmark)
    public static class SharedClock {
        private static final VarHandle SECOND;

        static {
            try {
                SECOND = MethodHandles.lookup().findVarHandle(SharedClock.class, "secondMillis", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** Thread {@code i} formats instants shifted by {@code i * skewMillis}. */
        @Param({"0", "2000"})
        public long skewMillis;

        @SuppressWarnings("unused") // accessed through SECOND
        private long secondMillis = START_MILLIS;

        long second() {
            return (long) SECOND.getAcquire(this);
        }

        void advance(long current) {
            SECOND.setRelease(this, current + 1000);
        }
    }

    /** A thread's millisecond counter and output buffers. */
    @State(Scope.Thread)
    public static class PerThread {
        final byte[] bytes = new byte[64];
        final char[] chars = new char[64];
        final StringBuilder sb = new StringBuilder(64);
        final MutableInstant instant = new MutableInstant();
        boolean leader;
        long skew;
        int millis;

        /** Thread 0 leads the clock; the others are shifted by their index times the skew. */
        @Setup
        public void setUp(ThreadParams params, SharedClock clock) {
            leader = params.getThreadIndex() == 0;
            skew = params.getThreadIndex() * clock.skewMillis;
        }

        long next(SharedClock clock) {
            final long second = clock.second();
            int ms = millis + 1;
            if (ms == 1000) {
                ms = 0;
                if (leader) {
                    clock.advance(second);
                }
            }
            millis = ms;
            return second + skew + ms;
        }
    }

    /** Spool: per-second snapshot plus three millisecond digits, into bytes. */
    @Benchmark
    public int spoolTimestampFormat(TimestampBenchmark.Formatters f, SharedClock c, PerThread t) {
        return f.spool.format(t.next(c), t.bytes, 0);
    }

    /** Anchor: {@code DateTimeFormatter.formatTo} into a reused StringBuilder. */
    @Benchmark
    public int dateTimeFormatterFormatTo(TimestampBenchmark.Formatters f, SharedClock c, PerThread t) {
        t.sb.setLength(0);
        f.dtf.formatTo(Instant.ofEpochMilli(t.next(c)), t.sb);
        return t.sb.length();
    }

    /** log4j2 {@code FixedDateFormat} into a reused char[]; see {@code FixedDateFormatRace} for sharing. */
    @Benchmark
    @SuppressWarnings("deprecation")
    public int log4j2FixedDateFormat(TimestampBenchmark.Formatters f, SharedClock c, PerThread t) {
        return f.fixed.format(t.next(c), t.chars, 0);
    }

    /** log4j2 {@code InstantPatternFormatter} (2.25+ default) into a reused StringBuilder. */
    @Benchmark
    public int log4j2InstantPatternFormatter(TimestampBenchmark.Formatters f, SharedClock c, PerThread t) {
        t.sb.setLength(0);
        t.instant.initFromEpochMilli(t.next(c), 0);
        f.instantPattern.formatTo(t.sb, t.instant);
        return t.sb.length();
    }

    /** logback {@code CachingDateFormatter} (what {@code %d} uses), returning a String. */
    @Benchmark
    public String logbackCachingDateFormatter(TimestampBenchmark.Formatters f, SharedClock c, PerThread t) {
        return f.logback.format(t.next(c));
    }
}
