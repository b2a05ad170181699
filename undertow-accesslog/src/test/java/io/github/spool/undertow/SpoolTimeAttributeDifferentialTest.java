package io.github.spool.undertow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.undertow.attribute.DateTimeAttribute;
import io.undertow.util.DateUtils;
import java.text.SimpleDateFormat;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * {@code %{spoolTime}} and {@code %{spoolTime,PATTERN}} against Undertow's own {@code %t} and
 * {@code %{time,PATTERN}} for the same instant, over 100,000 seeded random instants per zone in
 * three zones (negative offset with DST; zero offset in winter, where {@code XXX} prints "Z";
 * a half-hour offset with a half-hour DST shift), a third of them within two hours of a DST
 * transition.
 *
 * <p>The reference for an arbitrary instant is what Undertow formats with:
 * {@code DateUtils.toCommonLogFormat(Date)} itself for {@code %t}, and for {@code %{time,P}}
 * {@code new SimpleDateFormat(P)} in the default locale and zone, which is exactly what
 * {@code DateTimeAttribute}'s per-thread format is (undertow-core 2.3.20; it cannot be handed an
 * instant, it reads {@code new Date()}). {@link #liveAgainstDateTimeAttribute} compares with
 * {@code DateTimeAttribute.readAttribute} itself on the current time.
 */
class SpoolTimeAttributeDifferentialTest {

    private static final long SEED = 0x5b001_14L;
    private static final int INSTANTS_PER_ZONE = 100_000;
    private static final String[] ZONES = {"America/New_York", "Europe/London", "Australia/Lord_Howe"};
    /** 2000-01-01T00:00Z to 2040-01-01T00:00Z. */
    private static final long FROM = 946_684_800_000L;
    private static final long UNTIL = 2_208_988_800_000L;

    /** Patterns that must run on core's timestamp cache (English locale). */
    private static final String[] CACHED = {
        "yyyy-MM-dd HH:mm:ss.SSS", // the seed's pattern
        "dd/MMM/yyyy:HH:mm:ss Z",
        "EEE, d MMM yy h:mm:ss a XXX",
        "EEEE MMMM dd k:K XX",
        "yyyy-MM-dd'T'HH:mm:ss.SSSZ",
        "'at' HH 'o''clock' '' [y] {M} #",
        "H:m:s y yyy M d",
    };
    /** Patterns that must keep SimpleDateFormat: letters whose meaning differs, or core lacks. */
    private static final String[] FALLBACK = {
        "yyyy-MM-dd HH:mm:ss,S z", // S is milliseconds in SimpleDateFormat, a fraction in java.time
        "D w u G", // day of year, week, day-of-week number, era
        "HH:mm X", // one X drops the minutes of +10:30
        "ddd.SSSS", // padded wider than java.time allows
    };

    private TimeZone savedZone;
    private Locale savedLocale;

    @BeforeEach
    void saveDefaults() {
        savedZone = TimeZone.getDefault();
        savedLocale = Locale.getDefault(Locale.Category.FORMAT);
    }

    @AfterEach
    void restoreDefaults() {
        TimeZone.setDefault(savedZone);
        Locale.setDefault(Locale.Category.FORMAT, savedLocale);
    }

    @Test
    void randomInstantsAcrossZonesAndTransitions() throws Exception {
        Locale.setDefault(Locale.Category.FORMAT, Locale.US);
        final Random random = new Random(SEED);
        for (String zone : ZONES) {
            final long[] instants = instants(random, ZoneId.of(zone));
            TimeZone.setDefault(TimeZone.getTimeZone(zone));
            // A new thread per zone: DateUtils' per-thread format takes the default zone when a
            // thread first uses it, as DateTimeAttribute's does.
            inNewThread(() -> compareAll(instants, zone));
        }
    }

    private static void compareAll(long[] instants, String zone) {
        final ZoneId z = ZoneId.systemDefault();
        final Locale locale = Locale.getDefault(Locale.Category.FORMAT);
        final TimeText commonLog = TimeTexts.commonLog(z);
        assertTrue(commonLog.cached(), "%{spoolTime} runs on the timestamp cache");
        final List<TimeText> ours = new ArrayList<>();
        final List<SimpleDateFormat> theirs = new ArrayList<>();
        final List<String> patterns = new ArrayList<>(List.of(CACHED));
        patterns.addAll(List.of(FALLBACK));
        for (String p : patterns) {
            final TimeText t = TimeTexts.forPattern(p, locale, z);
            assertEquals(List.of(CACHED).contains(p), t.cached(), () -> "fast path for " + p + ": " + t);
            ours.add(t);
            theirs.add(new SimpleDateFormat(p)); // DateTimeAttribute(p).cachedFormat's initialValue
        }
        for (long t : instants) {
            final Date date = new Date(t);
            final String expected = DateUtils.toCommonLogFormat(date);
            final String actual = commonLog.format(t);
            if (!expected.equals(actual)) {
                assertEquals(expected, actual, () -> "%t at " + Instant.ofEpochMilli(t) + " in " + zone);
            }
            for (int i = 0; i < ours.size(); i++) {
                final String e = theirs.get(i).format(date);
                final String a = ours.get(i).format(t);
                if (!e.equals(a)) {
                    final String p = patterns.get(i);
                    assertEquals(e, a, () -> "%{time," + p + "} at " + Instant.ofEpochMilli(t) + " in " + zone);
                }
            }
        }
    }

    /** Two thirds uniform over 2000-2040, one third within two hours of one of the zone's transitions. */
    private static long[] instants(Random random, ZoneId zone) {
        final List<Long> transitions = new ArrayList<>();
        final ZoneRules rules = zone.getRules();
        ZoneOffsetTransition tr = rules.nextTransition(Instant.ofEpochMilli(FROM));
        while (tr != null && tr.toEpochSecond() * 1000 < UNTIL) {
            transitions.add(tr.toEpochSecond() * 1000);
            tr = rules.nextTransition(tr.getInstant());
        }
        assertFalse(transitions.isEmpty(), zone + " has DST transitions in 2000-2040");
        final long[] out = new long[INSTANTS_PER_ZONE];
        for (int i = 0; i < out.length; i++) {
            if (i % 3 == 2) {
                final long at = transitions.get(random.nextInt(transitions.size()));
                out[i] = at + (long) ((random.nextDouble() * 2 - 1) * 7_200_000);
            } else {
                out[i] = FROM + (long) (random.nextDouble() * (UNTIL - FROM));
            }
        }
        return out;
    }

    /** Patterns with text in a locale whose names are not English keep SimpleDateFormat, and still match. */
    @ParameterizedTest
    @ValueSource(strings = {"de-DE", "fr-FR", "th-TH", "ja-JP-u-ca-japanese", "ar-SA-u-nu-arab", "en-GB"})
    void otherLocalesMatchToo(String tag) throws Exception {
        final Locale locale = Locale.forLanguageTag(tag);
        Locale.setDefault(Locale.Category.FORMAT, locale);
        TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"));
        final Random random = new Random(SEED ^ tag.hashCode());
        inNewThread(() -> {
            for (String p : new String[] {"EEE, d MMM yyyy HH:mm:ss a", "yyyy-MM-dd HH:mm:ss.SSS"}) {
                final TimeText ours = TimeTexts.forPattern(p, locale, ZoneId.systemDefault());
                final SimpleDateFormat theirs = new SimpleDateFormat(p);
                for (int i = 0; i < 2_000; i++) {
                    final long t = FROM + (long) (random.nextDouble() * (UNTIL - FROM));
                    assertEquals(theirs.format(new Date(t)), ours.format(t), () -> p + " in " + tag);
                }
            }
            final String expected = DateUtils.toCommonLogFormat(new Date(FROM));
            assertEquals(expected, TimeTexts.commonLog(ZoneId.systemDefault()).format(FROM), "%t is English anywhere");
        });
    }

    /**
     * Undertow's attribute itself on the current time: a reading of {@code DateTimeAttribute}
     * bracketed by two system-clock reads in the same millisecond is the text of that millisecond.
     */
    @ParameterizedTest
    @ValueSource(strings = {"yyyy-MM-dd HH:mm:ss.SSS", "dd/MMM/yyyy:HH:mm:ss Z", "yyyy-MM-dd HH:mm:ss,S z"})
    void liveAgainstDateTimeAttribute(String pattern) {
        final TimeText ours = TimeTexts.forPattern(pattern, Locale.getDefault(Locale.Category.FORMAT), ZoneId.systemDefault());
        final DateTimeAttribute theirs = new DateTimeAttribute(pattern);
        final DateTimeAttribute commonLog = (DateTimeAttribute) DateTimeAttribute.INSTANCE;
        final TimeText ourCommonLog = TimeTexts.commonLog(ZoneId.systemDefault());
        int compared = 0;
        for (int i = 0; i < 2_000 && compared < 200; i++) {
            final long before = System.currentTimeMillis();
            final String u = theirs.readAttribute(null); // DateTimeAttribute ignores the exchange
            final String c = commonLog.readAttribute(null);
            if (System.currentTimeMillis() == before) {
                assertEquals(u, ours.format(before));
                assertEquals(c, ourCommonLog.format(before));
                compared++;
            }
        }
        assertTrue(compared >= 100, "compared only " + compared + " readings within one millisecond");
    }

    private static void inNewThread(Runnable body) throws Exception {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread t = new Thread(body, "differential");
        t.setUncaughtExceptionHandler((th, e) -> failure.set(e));
        t.start();
        t.join();
        if (failure.get() instanceof AssertionError) {
            throw (AssertionError) failure.get();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }
}
