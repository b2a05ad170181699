package io.github.spool.logback;

import io.github.spool.text.ByteLineBuilder;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The value of logstash-logback-encoder's timestamp field for one {@code timestampPattern} and
 * zone, as its {@code AbstractFormattedTimestampJsonProvider} writes it: {@code [UNIX_TIMESTAMP_AS_NUMBER]}
 * (epoch milliseconds, a number), {@code [UNIX_TIMESTAMP_AS_STRING]} (the same, quoted), a
 * {@code [NAME]} of a {@code DateTimeFormatter} constant, or a {@code DateTimeFormatter} pattern, in
 * the zone. The text of a second comes from the formatter itself, once per second; per event only
 * the fraction of the second is written, in the one style ({@link Fraction}) that reproduces the
 * formatter for every nanosecond value sampled at construction. A formatter none of them
 * reproduces (say a pattern with {@code n} or {@code A}) is not {@link #nativeStyle() native}:
 * then each value is the formatter's own {@code String}, allocated per event.
 *
 * <p>Thread-safe without locks; used by the logging threads and the writer. Internal.
 */
final class LogstashTimestamp {

    /** {@code AbstractFormattedTimestampJsonProvider}'s default pattern. */
    static final String DEFAULT_PATTERN = "[ISO_OFFSET_DATE_TIME]";

    private static final int[] POWERS = {100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};
    /** Nanosecond values a style must reproduce: every digit position, trailing zeros, groups of three. */
    private static final int[] SAMPLE_NANOS = {0, 1, 10, 999, 1_000, 5_000, 120_000, 1_000_000, 7_000_000,
        100_000_000, 120_000_000, 123_000_000, 123_456_000, 123_456_789, 999_999_999, 500_000_001};

    /** How the fraction of the second is written between the second's two cached halves. */
    private enum Fraction {
        /** The text does not depend on the nanoseconds. */
        NONE,
        /** {@code .} and up to nine digits without trailing zeros, none for zero ({@code ISO_*_DATE_TIME}). */
        TRIMMED,
        /** {@code .} and three, six or nine digits, none for zero ({@code ISO_INSTANT}). */
        GROUPS_OF_THREE,
        /** A fixed number of digits, the first of the nine ({@code SSS}). */
        FIXED
    }

    private final boolean number;
    private final boolean millisString;
    private final DateTimeFormatter formatter;
    private final Fraction fraction;
    private final int fixedDigits;

    /**
     * The last second rendered. Volatile: its final fields are read only after the acquire that
     * found it, and a thread that renders a new second publishes it with a release store; two
     * threads may render the same second at once, both results are equal, either may stay.
     */
    private volatile Second last;

    /**
     * @param pattern {@code timestampPattern}, as logstash-logback-encoder takes it
     * @param zone    the zone
     * @throws IllegalArgumentException if the pattern is not one logstash-logback-encoder accepts
     */
    LogstashTimestamp(String pattern, ZoneId zone) {
        this.number = "[UNIX_TIMESTAMP_AS_NUMBER]".equals(pattern);
        this.millisString = "[UNIX_TIMESTAMP_AS_STRING]".equals(pattern);
        if (number || millisString) {
            this.formatter = null;
            this.fraction = Fraction.NONE;
            this.fixedDigits = 0;
            return;
        }
        this.formatter = formatter(pattern).withZone(zone);
        // The fixed-digit style needs the number of digits: where a second's text with nanoseconds 0
        // and 999999999 differ.
        long probe = 1_700_000_000L;
        String zero = formatter.format(Instant.ofEpochSecond(probe, 0));
        String nines = formatter.format(Instant.ofEpochSecond(probe, 999_999_999));
        int digits = 0;
        if (zero.length() == nines.length()) {
            int first = 0;
            while (first < zero.length() && zero.charAt(first) == nines.charAt(first)) {
                first++;
            }
            int end = zero.length();
            while (end > first && zero.charAt(end - 1) == nines.charAt(end - 1)) {
                end--;
            }
            digits = end - first;
        }
        Fraction found = null;
        for (Fraction f : Fraction.values()) {
            if ((f != Fraction.FIXED || (digits > 0 && digits <= 9)) && reproduces(f, digits)) {
                found = f;
                break;
            }
        }
        this.fraction = found;
        this.fixedDigits = digits;
    }

    private static DateTimeFormatter formatter(String pattern) {
        if (pattern.startsWith("[") && pattern.endsWith("]")) { // a constant of DateTimeFormatter, by name
            String name = pattern.substring(1, pattern.length() - 1);
            try {
                java.lang.reflect.Field f = DateTimeFormatter.class.getField(name);
                if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) && f.getType() == DateTimeFormatter.class) {
                    return (DateTimeFormatter) f.get(null);
                }
            } catch (ReflectiveOperationException e) {
                // reported below, as logstash-logback-encoder reports it
            }
            throw new IllegalArgumentException("No constant named " + name + " found in " + DateTimeFormatter.class);
        }
        return DateTimeFormatter.ofPattern(pattern);
    }

    /** Whether style {@code f} gives the formatter's text for every sampled instant, around the year. */
    private boolean reproduces(Fraction f, int digits) {
        long[] seconds = {1_700_000_000L, 1_710_054_000L, 0L, -2_500_000_000L};
        ByteLineBuilder mine = new ByteLineBuilder(64);
        ByteLineBuilder theirs = new ByteLineBuilder(64);
        try {
            for (long s : seconds) {
                Second sec = split(s, f, digits);
                if (sec == null) {
                    return false;
                }
                for (int n : SAMPLE_NANOS) {
                    mine.reset();
                    theirs.reset();
                    write(mine, sec, n, f, digits);
                    JsonEscape.append(theirs, formatter.format(Instant.ofEpochSecond(s, n)), 0,
                            formatter.format(Instant.ofEpochSecond(s, n)).length());
                    if (!java.util.Arrays.equals(mine.array(), 0, mine.length(), theirs.array(), 0, theirs.length())) {
                        return false;
                    }
                }
            }
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }

    /** @return whether values are written from per-second caches (else: the formatter's String per event) */
    boolean nativeStyle() {
        return fraction != null;
    }

    /** @return whether the value is a JSON number (no quotes) */
    boolean isNumber() {
        return number;
    }

    /** Appends the value, quoted unless {@link #isNumber()}. */
    void append(ByteLineBuilder out, long epochSecond, int nanos) {
        if (number || millisString) {
            long millis = epochSecond * 1000L + nanos / 1_000_000;
            if (millisString) {
                out.append((byte) '"').appendDecimal(millis).append((byte) '"');
            } else {
                out.appendDecimal(millis);
            }
            return;
        }
        out.append((byte) '"');
        Fraction f = fraction;
        if (f == null) {
            String text = formatter.format(Instant.ofEpochSecond(epochSecond, nanos)); // not native: the formatter's own
            JsonEscape.append(out, text, 0, text.length());
        } else {
            Second s = last;
            if (s == null || s.epochSecond != epochSecond) {
                s = split(epochSecond, f, fixedDigits);
                last = s;
            }
            write(out, s, nanos, f, fixedDigits);
        }
        out.append((byte) '"');
    }

    /** The second's text around where its fraction goes, escaped; {@code null} if {@code f} cannot split it. */
    private Second split(long epochSecond, Fraction f, int digits) {
        String zero = formatter.format(Instant.ofEpochSecond(epochSecond, 0));
        int at;
        int skip = 0;
        if (f == Fraction.NONE) {
            at = zero.length();
        } else if (f == Fraction.FIXED) {
            String nines = formatter.format(Instant.ofEpochSecond(epochSecond, 999_999_999));
            at = 0;
            while (at < zero.length() && at < nines.length() && zero.charAt(at) == nines.charAt(at)) {
                at++;
            }
            skip = digits;
            if (at + skip > zero.length()) {
                return null;
            }
        } else { // the fraction goes where a text with one tenth of a second first differs
            String tenth = formatter.format(Instant.ofEpochSecond(epochSecond, 100_000_000));
            at = 0;
            while (at < zero.length() && at < tenth.length() && zero.charAt(at) == tenth.charAt(at)) {
                at++;
            }
        }
        ByteLineBuilder b = new ByteLineBuilder(zero.length() + 8);
        JsonEscape.append(b, zero, 0, at);
        byte[] before = java.util.Arrays.copyOf(b.array(), b.length());
        b.reset();
        JsonEscape.append(b, zero, at + skip, zero.length());
        return new Second(epochSecond, before, java.util.Arrays.copyOf(b.array(), b.length()));
    }

    private static void write(ByteLineBuilder out, Second s, int nanos, Fraction f, int digits) {
        out.append(s.before, 0, s.before.length);
        if (f == Fraction.FIXED) {
            for (int k = 0; k < digits; k++) {
                out.append((byte) ('0' + nanos / POWERS[k] % 10));
            }
        } else if (nanos > 0 && (f == Fraction.TRIMMED || f == Fraction.GROUPS_OF_THREE)) {
            out.append((byte) '.');
            int last = 8;
            while (nanos / POWERS[last] % 10 == 0) {
                last--;
            }
            if (f == Fraction.GROUPS_OF_THREE) {
                last = last / 3 * 3 + 2;
            }
            for (int k = 0; k <= last; k++) {
                out.append((byte) ('0' + nanos / POWERS[k] % 10));
            }
        }
        out.append(s.after, 0, s.after.length);
    }

    @Override
    public String toString() {
        return formatter == null ? (number ? "epoch millis" : "epoch millis string")
                : formatter.toString().toLowerCase(Locale.ROOT);
    }

    /** One second's escaped text, split around where the fraction goes. */
    private static final class Second {
        final long epochSecond;
        final byte[] before;
        final byte[] after;

        Second(long epochSecond, byte[] before, byte[] after) {
            this.epochSecond = epochSecond;
            this.before = before;
            this.after = after;
        }
    }
}
