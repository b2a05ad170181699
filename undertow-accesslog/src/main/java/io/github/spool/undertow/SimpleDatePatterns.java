package io.github.spool.undertow;

import java.text.DateFormatSymbols;
import java.text.DecimalFormatSymbols;
import java.util.Arrays;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.Locale;

/**
 * Translates a {@link java.text.SimpleDateFormat} pattern — the language of Undertow's
 * {@code %{time,PATTERN}}, which {@code io.undertow.attribute.DateTimeAttribute} (undertow-core
 * 2.3.20) hands to {@code new SimpleDateFormat(PATTERN)} — into the DateTimeFormatter-style pattern
 * of core's {@link io.github.spool.time.TimestampFormat}, but only where both print the same bytes
 * for every instant of the years 1000 to 9999. Anything else translates to {@code null} and the
 * caller keeps a {@code SimpleDateFormat}.
 *
 * <p>Where the two languages differ for the same letters (so a letter-for-letter copy would be
 * wrong): {@code S} is milliseconds as a number in SimpleDateFormat but a fraction of a second in
 * java.time (only {@code SSS} agrees); {@code u} is the day of the week there and the year here;
 * {@code X} (one letter) drops the minutes of a +05:30 offset there and prints them here;
 * {@code MMMMM}/{@code EEEEE} are full names there and narrow ones here; {@code a} may repeat
 * there; {@code dd}-style numbers may be padded to any width there, to two digits at most here.
 * Text (month and day names, AM/PM) and digits come from the default locale there and are always
 * English and ASCII in core, so a pattern with text translates only when the locale's symbols are
 * Locale.US's, and any pattern only when the locale's calendar is plain Gregorian (not the Thai
 * Buddhist or Japanese imperial one) with ASCII digits.
 */
final class SimpleDatePatterns {

    private SimpleDatePatterns() {
    }

    /**
     * A translated pattern.
     *
     * @param pattern     the TimestampFormat pattern
     * @param showsMillis whether it prints milliseconds (else it changes once a second at most)
     * @param ascii       whether everything it prints is ASCII
     */
    record Translation(String pattern, boolean showsMillis, boolean ascii) {
    }

    /**
     * Translates {@code pattern}.
     *
     * @param pattern a SimpleDateFormat pattern
     * @param locale  the locale SimpleDateFormat would format in
     * @return the equivalent TimestampFormat pattern, or {@code null} if there is none
     */
    static Translation translate(String pattern, Locale locale) {
        if (Calendar.getInstance(locale).getClass() != GregorianCalendar.class
                || DecimalFormatSymbols.getInstance(locale).getZeroDigit() != '0') {
            return null;
        }
        final StringBuilder out = new StringBuilder(pattern.length() + 8);
        final StringBuilder literal = new StringBuilder();
        boolean text = false;
        boolean millis = false;
        boolean ascii = true;
        boolean inQuote = false;
        final int len = pattern.length();
        int i = 0;
        while (i < len) {
            final char c = pattern.charAt(i);
            if (c == '\'') {
                // SimpleDateFormat.compile: '' is a quote inside or outside quoted text; a lone
                // quote opens or closes quoted text.
                if (i + 1 < len && pattern.charAt(i + 1) == '\'') {
                    literal.append('\'');
                    i += 2;
                } else {
                    inQuote = !inQuote;
                    i++;
                }
                continue;
            }
            if (inQuote || !isLetter(c)) {
                ascii &= c < 0x80;
                literal.append(c);
                i++;
                continue;
            }
            int end = i;
            while (end < len && pattern.charAt(end) == c) {
                end++;
            }
            final String field = field(c, end - i);
            if (field == null) {
                return null;
            }
            text |= c == 'M' && end - i >= 3 || c == 'E' || c == 'a';
            millis |= c == 'S';
            flushLiteral(literal, out);
            out.append(field);
            i = end;
        }
        if (inQuote) {
            return null; // SimpleDateFormat rejects an unterminated quote; let it say so
        }
        flushLiteral(literal, out);
        if (out.length() == 0 || text && !englishSymbols(locale)) {
            return null;
        }
        return new Translation(out.toString(), millis, ascii);
    }

    /** The TimestampFormat spelling of {@code count} letters {@code c}, or null if none prints the same. */
    private static String field(char c, int count) {
        switch (c) {
            case 'y':
                // count 2: the year modulo 100 in both; otherwise the year zero-padded to count
                // digits in both (years 1000-9999: no sign, no truncation).
                return count <= 4 ? "y".repeat(count) : null;
            case 'M':
                return count <= 3 ? "M".repeat(count) : "MMMM";
            case 'd':
            case 'H':
            case 'h':
            case 'K':
            case 'k':
            case 'm':
            case 's':
                return count <= 2 ? String.valueOf(c).repeat(count) : null;
            case 'S':
                return count == 3 ? "SSS" : null; // milliseconds padded to 3 = a 3-digit fraction
            case 'E':
                return count <= 3 ? "EEE" : "EEEE";
            case 'a':
                return "a";
            case 'Z':
                return "Z"; // RFC 822 "+0000" in both, whatever the count in SimpleDateFormat
            case 'X':
                return count == 2 ? "XX" : count == 3 ? "XXX" : null;
            default:
                return null; // G Y L w W D F u z and unknown letters
        }
    }

    private static boolean isLetter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    /**
     * Appends the pending literal text in quotes, so that no character can be read as a pattern
     * letter or as one of core's reserved characters such as {@code [}. Inside quotes a quote is
     * {@code ''}; leading quotes go outside as {@code ''} each, because core (as
     * DateTimeFormatter) reads {@code ''''} as two quotes, not as one quoted quote.
     */
    private static void flushLiteral(StringBuilder literal, StringBuilder out) {
        int i = 0;
        while (i < literal.length() && literal.charAt(i) == '\'') {
            out.append("''");
            i++;
        }
        if (i < literal.length()) {
            out.append('\'');
            for (; i < literal.length(); i++) {
                final char c = literal.charAt(i);
                out.append(c == '\'' ? "''" : String.valueOf(c));
            }
            out.append('\'');
        }
        literal.setLength(0);
    }

    /** Whether SimpleDateFormat's text in {@code locale} is the English text core prints. */
    private static boolean englishSymbols(Locale locale) {
        final DateFormatSymbols s = DateFormatSymbols.getInstance(locale);
        final DateFormatSymbols us = DateFormatSymbols.getInstance(Locale.US);
        return Arrays.equals(s.getMonths(), us.getMonths()) && Arrays.equals(s.getShortMonths(), us.getShortMonths())
                && Arrays.equals(s.getWeekdays(), us.getWeekdays())
                && Arrays.equals(s.getShortWeekdays(), us.getShortWeekdays())
                && Arrays.equals(s.getAmPmStrings(), us.getAmPmStrings());
    }
}
