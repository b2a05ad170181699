package io.github.spool.bench.time;

import io.github.spool.time.TimestampFormat;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.core.time.MutableInstant;
import org.apache.logging.log4j.core.util.internal.instant.InstantPatternFormatter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Formatting one timestamp with {@code yyyy-MM-dd HH:mm:ss.SSS} in Europe/Berlin: Spool's
 * {@link TimestampFormat} (into bytes) against {@code DateTimeFormatter.formatTo}, log4j2's
 * {@code FixedDateFormat} (deprecated, still in 2.26) and {@code InstantPatternFormatter} (the
 * 2.25+ default), and logback's {@code CachingDateFormatter}. Every call formats the next
 * millisecond (a new second every 1000 calls, as under steady logging), so caches that only hit on
 * an identical millisecond (logback's) do not flatter themselves.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TimestampBenchmark {

    static final String PATTERN = "yyyy-MM-dd HH:mm:ss.SSS";
    static final ZoneId ZONE = ZoneId.of("Europe/Berlin");

    /** Formatters shared by all threads, as a layout shares them. */
    @State(Scope.Benchmark)
    public static class Formatters {
        TimestampFormat spool;
        DateTimeFormatter dtf;
        @SuppressWarnings("deprecation")
        org.apache.logging.log4j.core.util.datetime.FixedDateFormat fixed;
        InstantPatternFormatter instantPattern;
        ch.qos.logback.core.util.CachingDateFormatter logback;

        /** Builds every formatter for the same pattern and zone. */
        @Setup
        @SuppressWarnings("deprecation")
        public void setUp() {
            spool = TimestampFormat.ofPattern(PATTERN, ZONE);
            dtf = DateTimeFormatter.ofPattern(PATTERN, Locale.US).withZone(ZONE);
            fixed = org.apache.logging.log4j.core.util.datetime.FixedDateFormat.create(
                org.apache.logging.log4j.core.util.datetime.FixedDateFormat.FixedFormat.DEFAULT_PERIOD,
                TimeZone.getTimeZone(ZONE));
            instantPattern = InstantPatternFormatter.newBuilder().setPattern(PATTERN)
                .setTimeZone(TimeZone.getTimeZone(ZONE)).setLocale(Locale.US).build();
            logback = new ch.qos.logback.core.util.CachingDateFormatter(PATTERN, ZONE, Locale.US);
        }
    }

    /** Per-thread clock and output buffers. */
    @State(Scope.Thread)
    public static class PerThread {
        long millis = 1_763_780_000_000L;
        final byte[] bytes = new byte[64];
        final char[] chars = new char[64];
        final StringBuilder sb = new StringBuilder(64);
        final MutableInstant instant = new MutableInstant();

        long next() {
            return ++millis;
        }
    }

    /** Spool: per-second snapshot plus three millisecond digits, into bytes. */
    @Benchmark
    public int spoolTimestampFormat(Formatters f, PerThread t) {
        return f.spool.format(t.next(), t.bytes, 0);
    }

    /** Anchor: {@code DateTimeFormatter.formatTo} into a reused StringBuilder. */
    @Benchmark
    public int dateTimeFormatterFormatTo(Formatters f, PerThread t) {
        t.sb.setLength(0);
        f.dtf.formatTo(Instant.ofEpochMilli(t.next()), t.sb);
        return t.sb.length();
    }

    /** log4j2 {@code FixedDateFormat} into a reused char[] (what PatternLayout used before 2.25). */
    @Benchmark
    @SuppressWarnings("deprecation")
    public int log4j2FixedDateFormat(Formatters f, PerThread t) {
        return f.fixed.format(t.next(), t.chars, 0);
    }

    /** log4j2 {@code InstantPatternFormatter} (2.25+ default) into a reused StringBuilder. */
    @Benchmark
    public int log4j2InstantPatternFormatter(Formatters f, PerThread t) {
        t.sb.setLength(0);
        t.instant.initFromEpochMilli(t.next(), 0);
        f.instantPattern.formatTo(t.sb, t.instant);
        return t.sb.length();
    }

    /** logback {@code CachingDateFormatter} (what {@code %d} uses), returning a String. */
    @Benchmark
    public String logbackCachingDateFormatter(Formatters f, PerThread t) {
        return f.logback.format(t.next());
    }
}
