package io.github.spool.bench.undertow;

import io.github.spool.bench.time.ScheduledExecutorClock;
import io.github.spool.time.ManualClock;
import io.github.spool.undertow.SpoolTimeAttribute;
import io.undertow.attribute.DateTimeAttribute;
import io.undertow.attribute.ExchangeAttribute;
import io.undertow.util.DateUtils;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One access-log time attribute read, as {@code AccessLogHandler} reads it when an exchange
 * completes: Spool's {@code %{spoolTime}} and {@code %{spoolTime,yyyy-MM-dd HH:mm:ss.SSS}} against
 * Undertow's own {@code %t} and {@code %{time,yyyy-MM-dd HH:mm:ss.SSS}} (undertow-core 2.3.20's
 * {@code DateTimeAttribute}: {@code new Date()} and a per-thread {@code SimpleDateFormat}) and
 * against the seed's {@code %{customTime,...}} (the same formatting fed from a hutool-style
 * scheduled clock). All read the real clock, as a server does, so the attributes that cache text
 * per display unit hit their cache for every read within the same millisecond (or second for
 * {@code %t}): that is what a busy server sees. The {@code ...EveryMillis} variants read a clock
 * that each thread advances by one millisecond per call, so Spool's attributes miss that cache
 * every time (its worst case: one server request per millisecond, or threads racing on the
 * shared text); Undertow's attributes format on every call anyway. Run with {@code -t 1} and
 * {@code -t 2} and {@code -prof gc} for B/op.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TimeAttributeBenchmark {

    static final String PATTERN = "yyyy-MM-dd HH:mm:ss.SSS";
    static final AtomicInteger THREADS = new AtomicInteger();

    /** The attributes, shared by all threads as one access-log handler shares them. */
    @State(Scope.Benchmark)
    public static class Attributes {
        ExchangeAttribute spoolCommonLog;
        ExchangeAttribute spoolPattern;
        ExchangeAttribute undertowCommonLog;
        ExchangeAttribute undertowPattern;
        ExchangeAttribute seedCommonLog;
        ExchangeAttribute seedPattern;

        /** Builds each attribute the way Undertow's parser would. */
        @Setup
        public void setUp() {
            spoolCommonLog = new SpoolTimeAttribute.Builder().build(SpoolTimeAttribute.SPOOL_TIME);
            spoolPattern = new SpoolTimeAttribute.Builder().build("%{spoolTime," + PATTERN + "}");
            if (!((SpoolTimeAttribute) spoolPattern).usesTimestampCache()) {
                throw new IllegalStateException("the pattern should run on the timestamp cache in this locale");
            }
            undertowCommonLog = new DateTimeAttribute.Builder().build(DateTimeAttribute.DATE_TIME_SHORT);
            undertowPattern = new DateTimeAttribute.Builder().build(DateTimeAttribute.CUSTOM_TIME + PATTERN + "}");
            seedCommonLog = new SeedCustomTimeAttribute(null);
            seedPattern = new SeedCustomTimeAttribute(PATTERN);
        }
    }

    /** Per-thread attributes over a clock that moves one millisecond per read; they share the text cache. */
    @State(Scope.Thread)
    public static class EveryMillis {
        /** Threads an hour apart: they never share a millisecond or a second (the worst case). */
        final ManualClock clock = new ManualClock(1_763_780_000_000L + THREADS.getAndIncrement() * 3_600_000L);
        SpoolTimeAttribute spoolCommonLog;
        SpoolTimeAttribute spoolPattern;

        /** The shared attributes, read from this thread's clock. */
        @Setup
        public void setUp(Attributes a) {
            spoolCommonLog = ((SpoolTimeAttribute) a.spoolCommonLog).withClock(clock);
            spoolPattern = ((SpoolTimeAttribute) a.spoolPattern).withClock(clock);
        }
    }

    /** Spool's {@code %{spoolTime}}: cached clock, text shared per second. */
    @Benchmark
    public String spoolTimeCommonLog(Attributes a) {
        return a.spoolCommonLog.readAttribute(null);
    }

    /** Undertow's {@code %t}: {@code new Date()} and a per-thread SimpleDateFormat. */
    @Benchmark
    public String undertowCommonLog(Attributes a) {
        return a.undertowCommonLog.readAttribute(null);
    }

    /** The seed's {@code %{customTime}} without a pattern: hutool-style clock, then {@code %t}'s formatting. */
    @Benchmark
    public String seedCommonLog(Attributes a) {
        return a.seedCommonLog.readAttribute(null);
    }

    /** Spool's {@code %{spoolTime,yyyy-MM-dd HH:mm:ss.SSS}}: cached clock, text shared per millisecond. */
    @Benchmark
    public String spoolTimePattern(Attributes a) {
        return a.spoolPattern.readAttribute(null);
    }

    /** {@code %{spoolTime}} with a new millisecond per call (a new second every 1000 calls). */
    @Benchmark
    public String spoolTimeCommonLogEveryMillis(EveryMillis e) {
        e.clock.advance(1);
        return e.spoolCommonLog.readAttribute(null);
    }

    /** {@code %{spoolTime,yyyy-MM-dd HH:mm:ss.SSS}} with a new millisecond per call: a new String each time. */
    @Benchmark
    public String spoolTimePatternEveryMillis(EveryMillis e) {
        e.clock.advance(1);
        return e.spoolPattern.readAttribute(null);
    }

    /** Undertow's {@code %{time,yyyy-MM-dd HH:mm:ss.SSS}}. */
    @Benchmark
    public String undertowTimePattern(Attributes a) {
        return a.undertowPattern.readAttribute(null);
    }

    /** The seed's {@code %{customTime,yyyy-MM-dd HH:mm:ss.SSS}}: hutool-style clock plus SimpleDateFormat. */
    @Benchmark
    public String seedCustomTimePattern(Attributes a) {
        return a.seedPattern.readAttribute(null);
    }

    /**
     * The seed document's {@code CustomDateTimeAttribute}, as written there: Undertow's
     * {@code DateTimeAttribute} with {@code new Date()} replaced by the scheduled clock's value.
     */
    static final class SeedCustomTimeAttribute implements ExchangeAttribute {
        private final String dateFormat;
        private final ThreadLocal<SimpleDateFormat> cachedFormat;

        SeedCustomTimeAttribute(String dateFormat) {
            this.dateFormat = dateFormat;
            this.cachedFormat = dateFormat == null ? null : ThreadLocal.withInitial(() -> new SimpleDateFormat(dateFormat));
        }

        @Override
        public String readAttribute(io.undertow.server.HttpServerExchange exchange) {
            final long now = ScheduledExecutorClock.get().currentTimeMillis();
            if (dateFormat == null) {
                return DateUtils.toCommonLogFormat(new Date(now));
            }
            return cachedFormat.get().format(new Date(now));
        }

        @Override
        public void writeAttribute(io.undertow.server.HttpServerExchange exchange, String newValue) {
            throw new UnsupportedOperationException("read-only");
        }
    }
}
