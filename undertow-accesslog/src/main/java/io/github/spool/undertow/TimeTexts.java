package io.github.spool.undertow;

import io.github.spool.time.TimestampFormat;
import java.time.ZoneId;
import java.util.Locale;
import java.util.TimeZone;

/**
 * Chooses how a time attribute renders: through core's timestamp cache when the pattern
 * translates exactly ({@link SimpleDatePatterns}), else through a {@link java.text.SimpleDateFormat}.
 */
final class TimeTexts {

    /**
     * What {@code %t} prints: {@code io.undertow.util.DateUtils.toCommonLogFormat} (undertow-core
     * 2.3.20) formats with {@code new SimpleDateFormat("[dd/MMM/yyyy:HH:mm:ss Z]", Locale.US)} in
     * the default time zone.
     */
    static final String COMMON_LOG_PATTERN = "[dd/MMM/yyyy:HH:mm:ss Z]";

    /** Instants checked once per built attribute; see {@link #agrees}. */
    private static final long[] PROBES = probes();

    private TimeTexts() {
    }

    /**
     * The text of {@code %t} in {@code zone}.
     *
     * @param zone the zone ({@code %t} uses the default one)
     * @return always a cached text: the pattern is English whatever the default locale
     */
    static TimeText commonLog(ZoneId zone) {
        return forPattern(COMMON_LOG_PATTERN, Locale.US, zone);
    }

    /**
     * The text of {@code %{time,PATTERN}} in {@code locale} and {@code zone}.
     *
     * @param pattern a SimpleDateFormat pattern
     * @param locale  the locale ({@code %{time,...}} uses the default FORMAT locale)
     * @param zone    the zone ({@code %{time,...}} uses the default one)
     * @return a cached text if the pattern translates, else a SimpleDateFormat text
     * @throws IllegalArgumentException if SimpleDateFormat rejects the pattern
     */
    static TimeText forPattern(String pattern, Locale locale, ZoneId zone) {
        final SimpleDateFormatText reference = new SimpleDateFormatText(pattern, locale, TimeZone.getTimeZone(zone));
        final SimpleDatePatterns.Translation t = SimpleDatePatterns.translate(pattern, locale);
        if (t == null) {
            return reference;
        }
        final TimeText cached;
        try {
            cached = new CachedTimestampText(TimestampFormat.ofPattern(t.pattern(), zone), t.showsMillis() ? 1 : 1000,
                    t.ascii());
        } catch (IllegalArgumentException e) {
            return reference; // a translation core does not take: keep SimpleDateFormat
        }
        return agrees(cached, reference) ? cached : reference;
    }

    /**
     * Defence in depth for locale data the translation does not enumerate: the two texts must
     * agree on a spread of instants (every month, weekday, AM and PM, one-digit and two-digit
     * fields) before the cached one replaces SimpleDateFormat.
     */
    private static boolean agrees(TimeText cached, TimeText reference) {
        for (long t : PROBES) {
            if (!cached.format(t).equals(reference.format(t))) {
                return false;
            }
        }
        final long now = System.currentTimeMillis();
        return cached.format(now).equals(reference.format(now));
    }

    private static long[] probes() {
        final long[] p = new long[14];
        // 2024-01-01T00:00:00.007Z, then every 29 days 7 hours 7 minutes 7.101 seconds onwards
        long t = 1_704_067_200_007L;
        for (int i = 0; i < p.length; i++) {
            p[i] = t;
            t += ((29L * 24 + 7) * 60 + 7) * 60_000 + 7_101;
        }
        return p;
    }
}
