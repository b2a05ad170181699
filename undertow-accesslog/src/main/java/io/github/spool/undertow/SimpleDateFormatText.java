package io.github.spool.undertow;

import io.github.spool.OwnedThreadLocal;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;

/**
 * The fallback {@link TimeText} for patterns core's timestamp cache cannot print identically: a
 * {@link SimpleDateFormat} per thread, exactly what {@code io.undertow.attribute.DateTimeAttribute}
 * (undertow-core 2.3.20) formats with, but fed from the cached clock.
 */
final class SimpleDateFormatText implements TimeText {

    private final String pattern;
    /** Held by this object, not by the threads: an undeployed application's classes can go. */
    private final OwnedThreadLocal<SimpleDateFormat> formats;

    /**
     * @param pattern a SimpleDateFormat pattern
     * @param locale  the locale to format in (Undertow uses the default FORMAT locale)
     * @param zone    the zone to format in (Undertow uses the default time zone)
     * @throws IllegalArgumentException if SimpleDateFormat rejects the pattern
     */
    SimpleDateFormatText(String pattern, Locale locale, TimeZone zone) {
        this.pattern = pattern;
        new SimpleDateFormat(pattern, locale); // fail now, not on the first request
        final TimeZone z = (TimeZone) zone.clone();
        this.formats = OwnedThreadLocal.withInitial(() -> {
            final SimpleDateFormat f = new SimpleDateFormat(pattern, locale);
            f.setTimeZone(z);
            return f;
        });
    }

    @Override
    public String format(long epochMillis) {
        return formats.get().format(new Date(epochMillis));
    }

    @Override
    public boolean cached() {
        return false;
    }

    @Override
    public String toString() {
        return "SimpleDateFormat[" + pattern + "]";
    }
}
