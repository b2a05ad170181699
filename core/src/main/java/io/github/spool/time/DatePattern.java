package io.github.spool.time;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A compiled date pattern: parses the {@link java.time.format.DateTimeFormatter} pattern
 * language (the subset {@link TimestampFormat} documents) into fields, and renders one whole second
 * into bytes, leaving room for the sub-second fields, whose positions it reports. Semantics follow
 * {@code DateTimeFormatterBuilder.appendPattern} and its {@code OffsetIdPrinterParser}, with
 * English text (month and day names, AM/PM). Internal; immutable.
 */
final class DatePattern {

    // Field kinds.
    private static final int LITERAL = 0;
    private static final int YEAR_OF_ERA = 1; // y
    private static final int YEAR = 2; // u (proleptic, signed)
    private static final int MONTH = 3; // M
    private static final int DAY = 4; // d
    private static final int HOUR_OF_DAY = 5; // H 0-23
    private static final int CLOCK_HOUR_OF_AMPM = 6; // h 1-12
    private static final int HOUR_OF_AMPM = 7; // K 0-11
    private static final int CLOCK_HOUR_OF_DAY = 8; // k 1-24
    private static final int MINUTE = 9; // m
    private static final int SECOND = 10; // s
    private static final int AMPM = 11; // a
    private static final int DAY_OF_WEEK = 12; // E
    private static final int FRACTION = 13; // S..., n... (digits of the fraction of second)
    private static final int OFFSET = 14; // X, x, Z

    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July",
        "August", "September", "October", "November", "December"};
    private static final String[] DAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
        "Sunday"};

    private final String pattern;
    private final int[] kinds;
    private final int[] counts;
    /** Per field: literal bytes for LITERAL, the no-offset text for OFFSET, else null. */
    private final byte[][] texts;
    /** Per field: OffsetIdPrinterParser type (0..10) for OFFSET. */
    private final int[] offsetTypes;
    private final int[] fractionWidths;
    private final int maxLength;

    private DatePattern(String pattern, List<int[]> fields, List<byte[]> texts) {
        this.pattern = pattern;
        int n = fields.size();
        this.kinds = new int[n];
        this.counts = new int[n];
        this.offsetTypes = new int[n];
        this.texts = texts.toArray(new byte[0][]);
        int fractions = 0;
        int max = 0;
        for (int i = 0; i < n; i++) {
            kinds[i] = fields.get(i)[0];
            counts[i] = fields.get(i)[1];
            offsetTypes[i] = fields.get(i)[2];
            if (kinds[i] == FRACTION) {
                fractions++;
            }
            max += maxLength(kinds[i], counts[i], this.texts[i]);
        }
        this.fractionWidths = new int[fractions];
        for (int i = 0, f = 0; i < n; i++) {
            if (kinds[i] == FRACTION) {
                fractionWidths[f++] = counts[i];
            }
        }
        this.maxLength = max;
    }

    String pattern() {
        return pattern;
    }

    int maxLength() {
        return maxLength;
    }

    /** Widths (digits) of the fraction fields, in pattern order. */
    int[] fractionWidths() {
        return fractionWidths.clone();
    }

    /**
     * Parses {@code pattern}.
     *
     * @throws IllegalArgumentException naming the first unsupported letter, count or character
     */
    static DatePattern parse(String pattern) {
        if (pattern == null || pattern.isEmpty()) {
            throw new IllegalArgumentException("empty date pattern");
        }
        List<int[]> fields = new ArrayList<>();
        List<byte[]> texts = new ArrayList<>();
        ByteArrayOutputStream literal = new ByteArrayOutputStream();
        int i = 0;
        final int len = pattern.length();
        while (i < len) {
            char c = pattern.charAt(i);
            if (c == '\'') {
                int end = i + 1;
                if (end < len && pattern.charAt(end) == '\'') { // '' is one quote
                    literal.write('\'');
                    i = end + 1;
                    continue;
                }
                StringBuilder quoted = new StringBuilder();
                while (true) {
                    if (end >= len) {
                        throw new IllegalArgumentException("unterminated quote in date pattern: " + pattern);
                    }
                    char q = pattern.charAt(end);
                    if (q == '\'') {
                        if (end + 1 < len && pattern.charAt(end + 1) == '\'') {
                            quoted.append('\'');
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    quoted.append(q);
                    end++;
                }
                literal.writeBytes(quoted.toString().getBytes(StandardCharsets.UTF_8));
                i = end + 1;
            } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
                int end = i;
                while (end < len && pattern.charAt(end) == c) {
                    end++;
                }
                int count = end - i;
                if (literal.size() > 0) {
                    fields.add(new int[] {LITERAL, 0, 0});
                    texts.add(literal.toByteArray());
                    literal.reset();
                }
                fields.add(field(pattern, c, count));
                texts.add(c == 'X' || c == 'x' || c == 'Z' ? noOffsetText(c, count) : null);
                i = end;
            } else if (c == '[' || c == ']' || c == '{' || c == '}' || c == '#') {
                throw new IllegalArgumentException("unsupported character '" + c + "' in date pattern: " + pattern);
            } else {
                literal.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                i++;
            }
        }
        if (literal.size() > 0) {
            fields.add(new int[] {LITERAL, 0, 0});
            texts.add(literal.toByteArray());
        }
        return new DatePattern(pattern, fields, texts);
    }

    private static int[] field(String pattern, char c, int count) {
        switch (c) {
            case 'y': return new int[] {YEAR_OF_ERA, count, 0};
            case 'u': return new int[] {YEAR, count, 0};
            case 'M': return new int[] {MONTH, check(pattern, c, count, 5), 0};
            case 'd': return new int[] {DAY, check(pattern, c, count, 2), 0};
            case 'H': return new int[] {HOUR_OF_DAY, check(pattern, c, count, 2), 0};
            case 'h': return new int[] {CLOCK_HOUR_OF_AMPM, check(pattern, c, count, 2), 0};
            case 'K': return new int[] {HOUR_OF_AMPM, check(pattern, c, count, 2), 0};
            case 'k': return new int[] {CLOCK_HOUR_OF_DAY, check(pattern, c, count, 2), 0};
            case 'm': return new int[] {MINUTE, check(pattern, c, count, 2), 0};
            case 's': return new int[] {SECOND, check(pattern, c, count, 2), 0};
            case 'a': return new int[] {AMPM, check(pattern, c, count, 1), 0};
            case 'E': return new int[] {DAY_OF_WEEK, check(pattern, c, count, 5), 0};
            // S: DateTimeFormatter's fraction of second, truncated. n: log4j2's legacy
            // FixedDateFormat spelling of the same digits (nnnnnn = micros); with nine letters it
            // equals DateTimeFormatter's nano-of-second.
            case 'S': return new int[] {FRACTION, check(pattern, c, count, 9), 0};
            case 'n': return new int[] {FRACTION, check(pattern, c, count, 9), 0};
            // OffsetIdPrinterParser types: 1 +HHmm, 3 +HHMM, 4 +HH:MM, 5 +HHMMss, 6 +HH:MM:ss
            case 'X':
            case 'x': return new int[] {OFFSET, count, new int[] {0, 1, 3, 4, 5, 6}[check(pattern, c, count, 5)]};
            case 'Z':
                if (count == 4) {
                    throw unsupported(pattern, c, count);
                }
                return new int[] {OFFSET, count, count == 5 ? 6 : 3};
            default:
                throw unsupported(pattern, c, count);
        }
    }

    private static byte[] noOffsetText(char c, int count) {
        String text;
        if (c == 'X' || (c == 'Z' && count == 5)) {
            text = "Z";
        } else if (c == 'Z') {
            text = "+0000";
        } else {
            text = new String[] {null, "+00", "+0000", "+00:00", "+0000", "+00:00"}[count];
        }
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static int check(String pattern, char c, int count, int max) {
        if (count > max) {
            throw unsupported(pattern, c, count);
        }
        return count;
    }

    private static IllegalArgumentException unsupported(String pattern, char c, int count) {
        return new IllegalArgumentException("unsupported date pattern letter '" + c + "' (x" + count + ") in: "
            + pattern + "; supported: y u M d H h K k m s S n a E X x Z and 'quoted' literals");
    }

    private static int maxLength(int kind, int count, byte[] text) {
        switch (kind) {
            case LITERAL: return text.length;
            case YEAR_OF_ERA:
            case YEAR: return count == 2 ? 2 : Math.max(count, 10) + 1; // 999,999,999 and a sign
            case MONTH: return count == 4 ? 9 : Math.max(count, 2); // "September"
            case DAY_OF_WEEK: return count == 4 ? 9 : 3; // "Wednesday"
            case AMPM: return 2;
            case FRACTION: return count;
            case OFFSET: return 9; // +HH:MM:ss
            default: return 2;
        }
    }

    /**
     * Renders the instant {@code epochSecond + nanoOfSecond} at {@code offsetSeconds} into
     * {@code dst} from {@code start}, without allocating. When {@code fractionPositions} is not
     * null, the start of each fraction field (relative to {@code start}) is written into it, so a
     * caller can render a second once with nanos 0 and overwrite the digits later.
     *
     * @return the offset after the last byte written
     */
    int render(long epochSecond, int offsetSeconds, int nanoOfSecond, byte[] dst, int start,
               int[] fractionPositions) {
        // Civil date from days since 1970-01-01, proleptic Gregorian as java.time counts it
        // (H. Hinnant's days_from_civil inverse); no LocalDateTime, so no allocation.
        final long localSeconds = epochSecond + offsetSeconds;
        final long epochDay = Math.floorDiv(localSeconds, 86_400L);
        final int secondOfDay = (int) Math.floorMod(localSeconds, 86_400L);
        final int hour = secondOfDay / 3600;
        final int minute = (secondOfDay / 60) % 60;
        final int second = secondOfDay % 60;
        final int dayOfWeek = (int) Math.floorMod(epochDay + 3, 7L); // 0 = Monday; day 0 was a Thursday
        final long z = epochDay + 719_468L;
        final long era = Math.floorDiv(z, 146_097L);
        final long doe = z - era * 146_097L; // [0, 146096]
        final long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
        final long doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365], from March 1st
        final long mp = (5 * doy + 2) / 153; // [0, 11], March = 0
        final int day = (int) (doy - (153 * mp + 2) / 5 + 1);
        final int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        final int year = (int) (yoe + era * 400 + (month <= 2 ? 1 : 0));

        int p = start;
        int f = 0;
        for (int i = 0; i < kinds.length; i++) {
            final int count = counts[i];
            switch (kinds[i]) {
                case LITERAL:
                    System.arraycopy(texts[i], 0, dst, p, texts[i].length);
                    p += texts[i].length;
                    break;
                case YEAR_OF_ERA:
                    p = year(year >= 1 ? year : 1 - year, count, dst, p);
                    break;
                case YEAR:
                    p = year(year, count, dst, p);
                    break;
                case MONTH:
                    p = count <= 2 ? number(month, count, dst, p) : text(MONTHS[month - 1], count, dst, p);
                    break;
                case DAY:
                    p = number(day, count, dst, p);
                    break;
                case HOUR_OF_DAY:
                    p = number(hour, count, dst, p);
                    break;
                case CLOCK_HOUR_OF_AMPM:
                    p = number(hour % 12 == 0 ? 12 : hour % 12, count, dst, p);
                    break;
                case HOUR_OF_AMPM:
                    p = number(hour % 12, count, dst, p);
                    break;
                case CLOCK_HOUR_OF_DAY:
                    p = number(hour == 0 ? 24 : hour, count, dst, p);
                    break;
                case MINUTE:
                    p = number(minute, count, dst, p);
                    break;
                case SECOND:
                    p = number(second, count, dst, p);
                    break;
                case AMPM:
                    dst[p++] = (byte) (hour < 12 ? 'A' : 'P');
                    dst[p++] = 'M';
                    break;
                case DAY_OF_WEEK:
                    p = text(DAYS[dayOfWeek], count <= 3 ? 3 : count, dst, p);
                    break;
                case FRACTION:
                    if (fractionPositions != null) {
                        fractionPositions[f++] = p - start;
                    }
                    p = fraction(nanoOfSecond, count, dst, p);
                    break;
                case OFFSET:
                    p = offset(offsetSeconds, offsetTypes[i], texts[i], dst, p);
                    break;
                default:
                    throw new AssertionError(kinds[i]);
            }
        }
        return p;
    }

    /** The first {@code width} digits of the nine-digit {@code nanoOfSecond} (truncated). */
    static int fraction(int nanoOfSecond, int width, byte[] dst, int p) {
        int v = nanoOfSecond;
        for (int k = 9; k > width; k--) {
            v /= 10;
        }
        for (int k = p + width - 1; k >= p; k--) {
            dst[k] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return p + width;
    }

    /** {@code count} 3 = short (3 letters), 4 = full, 5 = narrow (first letter). */
    private static int text(String name, int count, byte[] dst, int p) {
        int n = count == 4 ? name.length() : count == 5 ? 1 : 3;
        for (int k = 0; k < n; k++) {
            dst[p++] = (byte) name.charAt(k);
        }
        return p;
    }

    /** Unsigned value, at least {@code width} digits (zero-padded). */
    private static int number(long value, int width, byte[] dst, int p) {
        int digits = digits(value);
        for (int k = digits; k < width; k++) {
            dst[p++] = '0';
        }
        long v = value;
        for (int k = digits - 1; k >= 0; k--) {
            dst[p + k] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return p + digits;
    }

    private static int digits(long value) {
        int d = 1;
        for (long v = value; v >= 10; v /= 10) {
            d++;
        }
        return d;
    }

    /**
     * As {@code appendPattern}: two letters print the last two digits; otherwise at least
     * {@code count} digits, a '-' when negative, and from four letters (SignStyle.EXCEEDS_PAD) a
     * '+' when the value needs more digits than letters.
     */
    private static int year(int year, int count, byte[] dst, int p) {
        if (count == 2) {
            return number(Math.abs(year % 100), 2, dst, p);
        }
        long abs = Math.abs((long) year);
        if (year < 0) {
            dst[p++] = '-';
        } else if (count >= 4 && digits(abs) > count) {
            dst[p++] = '+';
        }
        return number(abs, count, dst, p);
    }

    /** {@code DateTimeFormatterBuilder.OffsetIdPrinterParser.format}, for the types we accept. */
    private static int offset(int totalSecs, int type, byte[] noOffsetText, byte[] dst, int p) {
        if (totalSecs == 0) {
            System.arraycopy(noOffsetText, 0, dst, p, noOffsetText.length);
            return p + noOffsetText.length;
        }
        final boolean colon = type == 2 || type == 4 || type == 6 || type == 8 || type == 10;
        int absHours = Math.abs((totalSecs / 3600) % 100);
        int absMinutes = Math.abs((totalSecs / 60) % 60);
        int absSeconds = Math.abs(totalSecs % 60);
        final int start = p;
        int output = absHours;
        dst[p++] = (byte) (totalSecs < 0 ? '-' : '+');
        p = number(absHours, 2, dst, p);
        if ((type >= 3 && type <= 8) || (type >= 9 && absSeconds > 0) || (type >= 1 && absMinutes > 0)) {
            if (colon) {
                dst[p++] = ':';
            }
            p = number(absMinutes, 2, dst, p);
            output += absMinutes;
            if (type == 7 || type == 8 || (type >= 5 && absSeconds > 0)) {
                if (colon) {
                    dst[p++] = ':';
                }
                p = number(absSeconds, 2, dst, p);
                output += absSeconds;
            }
        }
        if (output == 0) {
            p = start;
            System.arraycopy(noOffsetText, 0, dst, p, noOffsetText.length);
            p += noOffsetText.length;
        }
        return p;
    }
}
