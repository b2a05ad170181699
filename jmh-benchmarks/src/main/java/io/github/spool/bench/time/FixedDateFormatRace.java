package io.github.spool.bench.time;

import io.github.spool.time.TimestampFormat;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Why log4j2's {@code FixedDateFormat} threw in the 2-thread {@link TimestampBenchmark}: one
 * instance shared by two threads whose instants fall on different days. Runs three scenarios with
 * two threads sharing one {@code FixedDateFormat} (and, as a control, one Spool
 * {@link TimestampFormat}) for {@code yyyy-MM-dd HH:mm:ss.SSS} in Europe/Berlin, checks every
 * result against {@link DateTimeFormatter}, and prints the exceptions (by type) and wrong
 * renderings seen:
 * <ol>
 * <li>{@code same-second}: both threads format instants of one second (real logging, no day change);</li>
 * <li>{@code midnight}: one thread formats the last second of a day, the other the first second
 *     of the next (threads straddling midnight, as real logging does once a day);</li>
 * <li>{@code days-apart}: noon of one day against noon of the next (what the benchmark's drifting
 *     per-thread clocks produced).</li>
 * </ol>
 * Each thread makes {@code calls} calls (default 1,000,000) per scenario.
 *
 * <p>Cause, from the log4j2 2.26.1 source ({@code FixedDateFormat.millisSinceMidnight}): the
 * cache is one day, {@code [midnightToday, midnightTomorrow)} in two volatile fields plus the
 * rendered date in a plain {@code char[]}. A thread checks its instant against the two bounds,
 * then computes {@code instant - midnightToday} with a second read of {@code midnightToday}; if
 * another thread moved the day in between (under {@code synchronized}, which readers do not
 * take), the result is negative or over a day. {@code writeTime} indexes
 * {@code dstOffsets[hourOfDay]} (25 entries): a negative hour throws
 * {@link ArrayIndexOutOfBoundsException}; within an hour of midnight the hour is 0 and the digits
 * come out as {@code '0' + negative} characters, or the date part of one day is printed with the
 * time of the other.
 *
 * <p>Run: {@code java -cp jmh-benchmarks/target/benchmarks.jar io.github.spool.bench.time.FixedDateFormatRace [calls]}
 */
public final class FixedDateFormatRace {

    private static final String PATTERN = TimestampBenchmark.PATTERN;
    private static final ZoneId ZONE = TimestampBenchmark.ZONE;

    private FixedDateFormatRace() {
    }

    /** A formatter under test: returns the rendering, or throws what the formatter throws. */
    private interface Subject {
        String format(long epochMillis, char[] chars, byte[] bytes);
    }

    /**
     * Runs every scenario and prints one line per scenario and formatter.
     *
     * @param args optional number of calls per thread and scenario
     * @throws Exception if interrupted
     */
    @SuppressWarnings("deprecation")
    public static void main(String[] args) throws Exception {
        final int calls = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        final long midnight = LocalDateTime.of(2025, 11, 23, 0, 0).atZone(ZONE).toInstant().toEpochMilli();
        final long[][] scenarios = {
            {midnight - 12 * 3_600_000L, midnight - 12 * 3_600_000L},
            {midnight - 1000, midnight},
            {midnight - 12 * 3_600_000L, midnight + 12 * 3_600_000L},
        };
        final String[] names = {"same-second", "midnight", "days-apart"};
        System.out.println("JDK " + System.getProperty("java.version") + ", " + calls + " calls per thread per scenario");
        for (int s = 0; s < scenarios.length; s++) {
            final var fixed = org.apache.logging.log4j.core.util.datetime.FixedDateFormat.create(
                org.apache.logging.log4j.core.util.datetime.FixedDateFormat.FixedFormat.DEFAULT_PERIOD,
                TimeZone.getTimeZone(ZONE));
            run(names[s], "log4j2 FixedDateFormat", scenarios[s], calls,
                (t, chars, bytes) -> new String(chars, 0, fixed.format(t, chars, 0)));
            final TimestampFormat spool = TimestampFormat.ofPattern(PATTERN, ZONE);
            run(names[s], "Spool TimestampFormat", scenarios[s], calls,
                (t, chars, bytes) -> new String(bytes, 0, spool.format(t, bytes, 0), StandardCharsets.US_ASCII));
        }
    }

    private static void run(String scenario, String name, long[] starts, int calls, Subject subject)
            throws InterruptedException {
        final DateTimeFormatter oracle = DateTimeFormatter.ofPattern(PATTERN, Locale.US).withZone(ZONE);
        final Map<String, AtomicLong> exceptions = new TreeMap<>();
        final AtomicLong wrong = new AtomicLong();
        final String[] example = new String[1];
        final CountDownLatch go = new CountDownLatch(1);
        final Thread[] threads = new Thread[starts.length];
        for (int k = 0; k < starts.length; k++) {
            final long start = starts[k];
            threads[k] = new Thread(() -> {
                final char[] chars = new char[64];
                final byte[] bytes = new byte[64];
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < calls; i++) {
                    final long t = start + (i % 1000); // the thread's one second, a new millisecond per call
                    try {
                        final String got = subject.format(t, chars, bytes);
                        final String want = oracle.format(Instant.ofEpochMilli(t));
                        if (!got.equals(want)) {
                            wrong.incrementAndGet();
                            synchronized (example) {
                                if (example[0] == null) {
                                    example[0] = "got '" + got + "' for " + want;
                                }
                            }
                        }
                    } catch (RuntimeException e) {
                        synchronized (exceptions) {
                            exceptions.computeIfAbsent(e.getClass().getSimpleName() + ": " + e.getMessage(),
                                key -> new AtomicLong()).incrementAndGet();
                        }
                    }
                }
            });
            threads[k].start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        System.out.printf("%-12s %-24s wrong: %,d%s; exceptions: %s%n", scenario, name, wrong.get(),
            example[0] == null ? "" : " (e.g. " + example[0] + ")", exceptions.isEmpty() ? "none" : exceptions);
    }
}
