package io.github.spool.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Differential tests of {@link TimestampFormat} against {@link DateTimeFormatter}. */
class TimestampFormatTest {

    static final List<ZoneId> ZONES = List.of(ZoneOffset.UTC, ZoneId.of("Europe/Berlin"),
        ZoneId.of("America/New_York"), ZoneId.of("Australia/Lord_Howe"), ZoneId.of("Asia/Kolkata"),
        ZoneId.of("America/St_Johns"), ZoneId.of("Asia/Kathmandu"), ZoneId.of("Pacific/Chatham"));

    static final List<String> PATTERNS = List.of(
        "yyyy-MM-dd HH:mm:ss.SSS",
        "yyyy-MM-dd'T'HH:mm:ss.SSS",
        "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
        "HH:mm:ss.SSS",
        "yyyy-MM-dd'T'HH:mm:ss.SSSX",
        "yyyy-MM-dd'T'HH:mm:ss.SSSXX",
        "yyyy-MM-dd'T'HH:mm:ss.SSSxxx",
        "yyyy-MM-dd'T'HH:mm:ss.SSSx xx xxxx xxxxx XXXX XXXXX",
        "EEE, d MMM yyyy HH:mm:ss Z",
        "EEEE MMMM EEEEE MMMMM ZZ ZZZ ZZZZZ",
        "yy-M-d h:m:s a K k",
        "hh 'o''clock' a, ''yy",
        "uuuu-MM-dd HH:mm:ss.S SS SSSS SSSSS SSSSSS SSSSSSS SSSSSSSS SSSSSSSSS",
        "yyyy-MM-dd HH:mm:ss.nnnnnnnnn",
        "'['yyyy'] ü→€ 😀' HH:mm",
        "y yyy yyyyy uu u uuu",
        "ss.SSS");

    static List<String> allPatterns() {
        List<String> all = new ArrayList<>(PATTERNS);
        for (String name : List.of("ABSOLUTE", "ABSOLUTE_MICROS", "ABSOLUTE_NANOS", "ABSOLUTE_PERIOD", "COMPACT",
            "DATE", "DATE_PERIOD", "DEFAULT", "DEFAULT_MICROS", "DEFAULT_NANOS", "DEFAULT_PERIOD", "ISO8601_BASIC",
            "ISO8601_BASIC_PERIOD", "ISO8601", "ISO8601_OFFSET_DATE_TIME_HH", "ISO8601_OFFSET_DATE_TIME_HHMM",
            "ISO8601_OFFSET_DATE_TIME_HHCMM", "ISO8601_PERIOD", "ISO8601_PERIOD_MICROS", "US_MONTH_DAY_YEAR2_TIME",
            "US_MONTH_DAY_YEAR4_TIME")) {
            String p = NamedDatePatterns.log4j2(name);
            assertFalse(p.equals(name), name);
            all.add(p);
        }
        all.add(NamedDatePatterns.logback("ISO8601"));
        all.add(NamedDatePatterns.logback("STRICT"));
        return all;
    }

    /** One format under test with its oracle. */
    static final class Case {
        final TimestampFormat format;
        final DateTimeFormatter oracle;
        final byte[] buf;

        Case(String pattern, ZoneId zone) {
            this.format = TimestampFormat.ofPattern(pattern, zone);
            this.oracle = DateTimeFormatter.ofPattern(pattern.replace('n', 'S'), Locale.US).withZone(zone);
            this.buf = new byte[format.maxLength() + 8];
        }

        void checkMillis(long epochMillis, long seed) {
            int end = format.format(epochMillis, buf, 3);
            String expected = oracle.format(Instant.ofEpochMilli(epochMillis));
            assertEquals(expected, new String(buf, 3, end - 3, StandardCharsets.UTF_8),
                () -> "seed " + seed + " millis " + epochMillis + " " + format);
            assertTrue(end - 3 <= format.maxLength(), () -> "maxLength " + format);
        }

        void checkNanos(long epochSecond, int nano, long seed) {
            int end = format.format(epochSecond, nano, buf, 5);
            String expected = oracle.format(Instant.ofEpochSecond(epochSecond, nano));
            assertEquals(expected, new String(buf, 5, end - 5, StandardCharsets.UTF_8),
                () -> "seed " + seed + " instant " + epochSecond + "s+" + nano + "ns " + format);
        }
    }

    static List<Case> cases(List<ZoneId> zones) {
        List<Case> cases = new ArrayList<>();
        for (ZoneId zone : zones) {
            for (String p : allPatterns()) {
                cases.add(new Case(p, zone));
            }
        }
        return cases;
    }

    private static final long FROM_1900 = -2_208_988_800_000L;
    private static final long TO_2200 = 7_258_118_400_000L;

    @Test
    void matchesDateTimeFormatterOnAMillionRandomInstants() {
        final long seed = Long.getLong("spool.test.seed", System.nanoTime());
        final SplittableRandom rnd = new SplittableRandom(seed);
        final List<Case> cases = cases(ZONES);
        long t = 0;
        for (int i = 0; i < 1_000_000; i++) {
            Case c = cases.get(rnd.nextInt(cases.size()));
            // Half fresh instants, half near the previous one (exercises the per-second cache:
            // same second, next second, the other slot).
            t = (i & 1) == 0 ? rnd.nextLong(FROM_1900, TO_2200) : t + rnd.nextInt(-1500, 1500);
            if ((i & 2) == 0) {
                c.checkMillis(t, seed);
            } else {
                c.checkNanos(Math.floorDiv(t, 1000), rnd.nextInt(1_000_000_000), seed);
            }
        }
    }

    @Test
    void matchesAroundEveryTransition2020To2030() {
        final List<Case> cases = cases(ZONES);
        final long start = Instant.parse("2020-01-01T00:00:00Z").getEpochSecond();
        final long end = Instant.parse("2031-01-01T00:00:00Z").getEpochSecond();
        final long[] deltas = {-1001, -1000, -999, -1, 0, 1, 999, 1000, 1001};
        int transitions = 0;
        for (ZoneId zone : ZONES) {
            ZoneRules rules = zone.getRules();
            ZoneOffsetTransition tr = rules.nextTransition(Instant.ofEpochSecond(start));
            while (tr != null && tr.toEpochSecond() < end) {
                transitions++;
                long at = tr.toEpochSecond() * 1000;
                for (Case c : cases) {
                    if (!c.format.zone().equals(zone)) {
                        continue;
                    }
                    for (long d : deltas) {
                        c.checkMillis(at + d, 0);
                        c.checkNanos(Math.floorDiv(at + d, 1000), 999_999_999, 0);
                    }
                }
                tr = rules.nextTransition(tr.getInstant());
            }
        }
        // Berlin, New York and Lord Howe change twice a year for 11 years; Chatham too.
        assertTrue(transitions >= 4 * 22, "transitions seen: " + transitions);
    }

    @Test
    void matchesOnExtremeYearsAndLocalMeanTimeOffsets() {
        final long seed = Long.getLong("spool.test.seed", System.nanoTime());
        final SplittableRandom rnd = new SplittableRandom(seed);
        // Years -9999 .. 99999, and Berlin/Kolkata before 1900 (offsets with seconds).
        final long min = Instant.parse("-9999-01-01T00:00:00Z").toEpochMilli();
        final long max = Instant.parse("+99999-12-31T00:00:00Z").toEpochMilli();
        List<Case> cases = new ArrayList<>();
        for (ZoneId zone : List.of(ZoneOffset.UTC, ZoneId.of("Europe/Berlin"), ZoneId.of("Asia/Kolkata"),
            ZoneOffset.ofHoursMinutesSeconds(-3, -30, -15), ZoneOffset.ofTotalSeconds(-30))) {
            for (String p : List.of("yyyy-MM-dd HH:mm:ss.SSS", "uuuu-MM-dd yy uu y u yyyyy uuuuu",
                "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "X XX XXX XXXX XXXXX x xx xxx xxxx xxxxx Z ZZZZZ")) {
                cases.add(new Case(p, zone));
            }
        }
        for (int i = 0; i < 100_000; i++) {
            cases.get(rnd.nextInt(cases.size())).checkMillis(rnd.nextLong(min, max), seed);
        }
    }

    @Test
    void isConsistentUnderConcurrentUseAcrossSecondBoundaries() throws Exception {
        final long seed = System.nanoTime();
        final TimestampFormat f = TimestampFormat.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", ZoneId.of("Asia/Kolkata"));
        final DateTimeFormatter oracle = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")
            .withZone(f.zone());
        final TimestampFormat micros = TimestampFormat.ofPattern("HH:mm:ss.SSSSSS", f.zone());
        final DateTimeFormatter microsOracle = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS").withZone(f.zone());
        final int threads = 4;
        final CountDownLatch start = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
            final long threadSeed = seed + k;
            Thread w = new Thread(() -> {
                SplittableRandom rnd = new SplittableRandom(threadSeed);
                byte[] buf = new byte[Math.max(f.maxLength(), micros.maxLength())];
                try {
                    start.await();
                    long base = 1_700_000_000_000L;
                    for (int i = 0; i < 200_000; i++) {
                        // Instants straddling a handful of second boundaries, so threads keep
                        // replacing each other's snapshots.
                        long t = base + rnd.nextInt(0, 4000);
                        int n = f.format(t, buf, 0);
                        String got = new String(buf, 0, n, StandardCharsets.US_ASCII);
                        String want = oracle.format(Instant.ofEpochMilli(t));
                        if (!got.equals(want)) {
                            throw new AssertionError("seed " + threadSeed + ": " + got + " != " + want);
                        }
                        long sec = base / 1000 + rnd.nextInt(0, 4);
                        int nano = rnd.nextInt(1_000_000_000);
                        n = micros.format(sec, nano, buf, 0);
                        got = new String(buf, 0, n, StandardCharsets.US_ASCII);
                        want = microsOracle.format(Instant.ofEpochSecond(sec, nano));
                        if (!got.equals(want)) {
                            throw new AssertionError("seed " + threadSeed + ": " + got + " != " + want);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            w.start();
            workers.add(w);
        }
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    @Test
    void threadsInDifferentSecondsOfOneParityDoNotRewriteTheSharedSlotPerCall() throws Exception {
        // Two threads strictly alternate calls for seconds S and S + 2 (same shared slot). Each
        // thread's second changes once, so the shared slot may be published at most twice
        // (version 0 -> 2 -> 4), whatever the order; evicting on every miss would publish on
        // every call (version ~2 per call).
        final TimestampFormat f = TimestampFormat.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", ZoneId.of("Europe/Berlin"));
        final DateTimeFormatter oracle = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(f.zone());
        final long s = 1_763_781_200L;
        final int rounds = 200;
        final java.util.concurrent.Semaphore[] turn = {new java.util.concurrent.Semaphore(1),
            new java.util.concurrent.Semaphore(0)};
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            final int me = k;
            Thread w = new Thread(() -> {
                byte[] buf = new byte[f.maxLength()];
                try {
                    for (int i = 0; i < rounds; i++) {
                        turn[me].acquire();
                        try {
                            long t = (s + 2L * me) * 1000 + i;
                            int n = f.format(t, buf, 0);
                            assertEquals(oracle.format(Instant.ofEpochMilli(t)),
                                new String(buf, 0, n, StandardCharsets.US_ASCII));
                        } finally {
                            turn[1 - me].release();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(4, f.sharedSlot(s).lvVersion(), "publishes of the shared slot x 2");
        assertEquals(s + 2, f.sharedSlot(s).epochSecond, "the last second published");
    }

    @Test
    void writersRenderTheNextSecondOfFormatsInUseBeforeItBegins() {
        String pattern = "yyyy-MM-dd HH:mm:ss.SSS";
        for (ZoneId zone : ZONES) {
            // The second a zone's offset changes, where a render with a stale offset would show.
            ZoneOffsetTransition t = zone.getRules().nextTransition(Instant.parse("2031-01-01T00:00:00Z"));
            long next = t == null ? 1_924_992_000L : t.toEpochSecond();
            long s = next - 1;
            TimestampFormat used = TimestampFormat.ofPattern(pattern, zone);
            TimestampFormat idle = TimestampFormat.ofPattern(pattern, zone);
            byte[] out = new byte[used.maxLength()];
            used.format(s * 1000 + 123, out, 0); // a caller renders s (its own slot, then shared)

            TimestampFormat.prepareNextSecond(s * 1000 + 499);
            assertFalse(used.sharedSlot(next).epochSecond == next, "not before the middle of the second");
            TimestampFormat.prepareNextSecond(s * 1000 + 700);
            assertEquals(next, used.sharedSlot(next).epochSecond, zone::toString);
            assertFalse(idle.sharedSlot(next).epochSecond == next, "a format unused in s is skipped");

            int n = used.format(next * 1000 + 7, out, 0);
            DateTimeFormatter reference = DateTimeFormatter.ofPattern(pattern, Locale.US).withZone(zone);
            assertEquals(reference.format(Instant.ofEpochMilli(next * 1000 + 7)),
                new String(out, 0, n, StandardCharsets.US_ASCII), zone::toString);
            assertEquals(s, used.ownSlot().epochSecond, "the caller of the new second rendered nothing");
        }
    }

    @Test
    void reportsSubMillisPrecision() {
        assertFalse(TimestampFormat.ofPattern("HH:mm:ss.SSS", ZoneOffset.UTC).needsSubMillis());
        assertFalse(TimestampFormat.ofPattern("HH:mm:ss", ZoneOffset.UTC).needsSubMillis());
        assertTrue(TimestampFormat.ofPattern("HH:mm:ss.SSSS", ZoneOffset.UTC).needsSubMillis());
        assertTrue(TimestampFormat.ofPattern(NamedDatePatterns.log4j2("DEFAULT_NANOS"), ZoneOffset.UTC)
            .needsSubMillis());
    }

    @Test
    void rejectsUnsupportedLettersNamingThem() {
        for (String p : List.of("G yyyy", "yyyy-MM-dd z", "VV", "HHH", "aa", "[HH]", "ZZZZ", "SSSSSSSSSS",
            "yyyy 'open", "DDD", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TimestampFormat.ofPattern(p, ZoneOffset.UTC), p);
            assertTrue(p.isEmpty() || e.getMessage().contains(p), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> TimestampFormat.ofPattern("yyyy G", ZoneOffset.UTC));
        assertTrue(e.getMessage().contains("'G'"), e.getMessage());
    }

    @Test
    void keepsPatternAndZone() {
        TimestampFormat f = TimestampFormat.ofPattern("HH:mm", ZoneId.of("Asia/Kolkata"));
        assertEquals("HH:mm", f.pattern());
        assertEquals(ZoneId.of("Asia/Kolkata"), f.zone());
    }
}
