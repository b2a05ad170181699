// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rolled file's name pattern as both frameworks write it: literal text, date tokens
 * {@code %d} / {@code %d{yyyy-MM-dd}} and an index token {@code %i}.
 *
 * <p>Date token options, both dialects: logback's {@code %d{pattern, zone}} (an unknown zone is an
 * error, as there) and
 * {@code %d{pattern, aux}} (an auxiliary token names the file but does not set the rollover
 * period; logback's "multiple %d" rule), log4j2's {@code %d{pattern}{zone}}. A bare {@code %d} is
 * {@code yyyy-MM-dd} in both. The first date token that is not {@code aux} is the primary one: its
 * finest unit is the rollover period ({@link #period()}) and its zone the zone of the boundaries.
 * Date patterns use {@link DateTimeFormatter} letters, which agree with {@code SimpleDateFormat}'s
 * for the patterns file names use (logback 1.3+ formats file names with {@code DateTimeFormatter}).
 *
 * <p>{@link #format} names a file; {@link #parse} reads the index and the primary date text back
 * from a file name, so that archives already on disk can be found (restart, retention).
 */
public final class FilePattern {

    private static final Pattern ZONE_OPTION = Pattern.compile("\\{([^}]*)\\}");

    private final String pattern;
    private final List<Object> parts = new ArrayList<>(); // String literal, DateToken, or INDEX
    private final DateToken primary;
    private final boolean hasIndex;
    private final Pattern regex;
    private final int regexIndexGroup;
    private final int regexPrimaryGroup;
    /** Every date token, in the order of its regex group. */
    private final List<DateToken> dateTokens = new ArrayList<>();
    private final List<Integer> dateGroups = new ArrayList<>();

    private static final Object INDEX = new Object() {
        @Override
        public String toString() {
            return "%i";
        }
    };

    /** A {@code %d} token: its formatter, zone and whether it is auxiliary. */
    static final class DateToken {
        final String datePattern;
        final ZoneId zone;
        final boolean aux;
        final DateTimeFormatter formatter;

        DateToken(String datePattern, ZoneId zone, boolean aux, Locale locale) {
            this.datePattern = datePattern;
            this.zone = zone;
            this.aux = aux;
            this.formatter = new DateTimeFormatterBuilder().appendPattern(datePattern).toFormatter(locale).withZone(zone);
        }
    }

    private FilePattern(String pattern, ZoneId defaultZone, Locale locale) {
        this.pattern = pattern;
        StringBuilder literal = new StringBuilder();
        DateToken first = null;
        boolean index = false;
        int i = 0;
        while (i < pattern.length()) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length() && pattern.charAt(i + 1) == '%') {
                literal.append('%');
                i += 2;
                continue;
            }
            if (c != '%' || i + 1 >= pattern.length()) {
                literal.append(c);
                i++;
                continue;
            }
            char k = pattern.charAt(i + 1);
            if (k == 'i') {
                flush(literal);
                parts.add(INDEX);
                index = true;
                i += 2;
            } else if (k == 'd') {
                flush(literal);
                i += 2;
                String options = null;
                String secondOption = null;
                Matcher m = ZONE_OPTION.matcher(pattern);
                if (m.find(i) && m.start() == i) {
                    options = m.group(1);
                    i = m.end();
                    if (m.find(i) && m.start() == i) { // log4j2: %d{pattern}{zone}
                        secondOption = m.group(1).trim();
                        i = m.end();
                    }
                }
                DateToken token = dateToken(options, secondOption, defaultZone, locale);
                parts.add(token);
                if (first == null && !token.aux) {
                    first = token;
                }
            } else {
                throw new IllegalArgumentException("file pattern '" + pattern + "': unknown conversion %" + k
                        + " (a file pattern takes %d{...} and %i)");
            }
        }
        flush(literal);
        this.primary = first;
        this.hasIndex = index;
        StringBuilder re = new StringBuilder();
        int group = 0;
        int indexGroup = -1;
        int primaryGroup = -1;
        for (Object p : parts) {
            if (p == INDEX) {
                group++;
                if (indexGroup < 0) {
                    indexGroup = group;
                }
                re.append("(\\d{1,9})");
            } else if (p instanceof DateToken) {
                group++;
                dateTokens.add((DateToken) p);
                dateGroups.add(group);
                if (p == primary) {
                    primaryGroup = group;
                }
                re.append("(.+?)");
            } else {
                re.append(Pattern.quote((String) p));
            }
        }
        this.regex = Pattern.compile(re.toString());
        this.regexIndexGroup = indexGroup;
        this.regexPrimaryGroup = primaryGroup;
    }

    private static DateToken dateToken(String options, String secondOption, ZoneId defaultZone, Locale locale) {
        String datePattern = "yyyy-MM-dd";
        ZoneId zone = defaultZone;
        boolean aux = false;
        if (options != null) {
            String[] split = options.split(",");
            if (!split[0].trim().isEmpty()) {
                datePattern = split[0].trim();
            }
            for (int j = 1; j < split.length; j++) {
                String opt = split[j].trim();
                if (opt.equalsIgnoreCase("aux")) {
                    aux = true;
                } else if (!opt.isEmpty()) {
                    zone = logbackZone(opt);
                }
            }
        }
        if (secondOption != null && !secondOption.isEmpty()) {
            zone = zone(secondOption);
        }
        try {
            return new DateToken(datePattern, zone, aux, locale);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("date pattern '" + datePattern + "' in a file pattern: " + e.getMessage(), e);
        }
    }

    /**
     * logback's {@code DateTokenConverter} reads a zone option with {@code ZoneId.of}, which fails on
     * an id it does not know, and the policy does not start; it never becomes GMT.
     */
    private static ZoneId logbackZone(String id) {
        try {
            return ZoneId.of(id);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone '" + id + "' (" + e.getMessage() + ")", e);
        }
    }

    /** log4j2's {@code %d{pattern}{zone}}: {@code TimeZone.getTimeZone}, as its DatePatternConverter reads it. */
    private static ZoneId zone(String id) {
        try {
            return ZoneId.of(id);
        } catch (DateTimeException e) {
            // java.util.TimeZone ids the frameworks accept ("GMT+0", "EST") that ZoneId spells differently
            return java.util.TimeZone.getTimeZone(id).toZoneId();
        }
    }

    private void flush(StringBuilder literal) {
        if (literal.length() > 0) {
            parts.add(literal.toString());
            literal.setLength(0);
        }
    }

    /**
     * @param pattern     the pattern as configured
     * @param defaultZone the zone of date tokens that name none
     * @param locale      the locale of date text (month names in a pattern, the first day of a week)
     * @return the parsed pattern
     * @throws IllegalArgumentException naming what is wrong with it
     */
    public static FilePattern parse(String pattern, ZoneId defaultZone, Locale locale) {
        if (pattern == null || pattern.isBlank()) {
            throw new IllegalArgumentException("file pattern must not be empty");
        }
        return new FilePattern(pattern, defaultZone, locale);
    }

    /**
     * Names a file.
     *
     * @param epochMillis the instant the date tokens show
     * @param index       the value of {@code %i}
     * @return the name
     */
    public String format(long epochMillis, int index) {
        StringBuilder b = new StringBuilder(pattern.length() + 16);
        Instant t = Instant.ofEpochMilli(epochMillis);
        for (Object p : parts) {
            if (p == INDEX) {
                b.append(index);
            } else if (p instanceof DateToken) {
                ((DateToken) p).formatter.formatTo(t, b);
            } else {
                b.append((String) p);
            }
        }
        return b.toString();
    }

    /**
     * @param name a file name (or path, as the pattern is written)
     * @return whether the name matches, with any date and index
     */
    public boolean matches(String name) {
        return regex.matcher(name).matches();
    }

    /**
     * @param name a name that {@link #matches}
     * @return its {@code %i} value, or {@code -1} without one
     */
    public int indexOf(String name) {
        Matcher m = regex.matcher(name);
        if (!m.matches() || regexIndexGroup < 0) {
            return -1;
        }
        try {
            return Integer.parseInt(m.group(regexIndexGroup));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * @param name a name that {@link #matches}
     * @return the text of its primary date token, or {@code null}
     */
    public String primaryDateText(String name) {
        Matcher m = regex.matcher(name);
        return m.matches() && regexPrimaryGroup > 0 ? m.group(regexPrimaryGroup) : null;
    }

    /**
     * Whether {@code name} is the name this pattern gives files at {@code epochMillis}, with any
     * index: every date token, auxiliary ones included, shows that instant's text. logback looks
     * for a period's archives this way ({@code FileNamePattern.toRegexForFixedDate}, and
     * {@code convert} without {@code %i}).
     *
     * @param name        a file name (or path, as the pattern is written)
     * @param epochMillis the instant
     * @return whether it matches with every date as at that instant
     */
    public boolean matchesAt(String name, long epochMillis) {
        Matcher m = regex.matcher(name);
        if (!m.matches()) {
            return false;
        }
        Instant t = Instant.ofEpochMilli(epochMillis);
        for (int i = 0; i < dateTokens.size(); i++) {
            if (!dateTokens.get(i).formatter.format(t).equals(m.group(dateGroups.get(i)))) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return how many date tokens are not {@code aux}: more than one is logback's "multiple %d"
     *         case, where the first sets the period and the others only name the files
     */
    public int primaryCandidates() {
        int n = 0;
        for (DateToken t : dateTokens) {
            n += t.aux ? 0 : 1;
        }
        return n;
    }

    /** @return the primary date token's pattern ({@code yyyy-MM-dd} ...), or {@code null} without one */
    public String primaryDatePattern() {
        return primary == null ? null : primary.datePattern;
    }

    /**
     * @param epochMillis an instant
     * @return what the primary date token shows for it ({@code ""} without one)
     */
    public String primaryDateText(long epochMillis) {
        return primary == null ? "" : primary.formatter.format(Instant.ofEpochMilli(epochMillis));
    }

    /** @return whether the pattern has a (non-auxiliary) date token: files roll by time */
    public boolean hasDate() {
        return primary != null;
    }

    /** @return whether the pattern has {@code %i} */
    public boolean hasIndex() {
        return hasIndex;
    }

    /** @return the primary date token's zone (the default zone without one) */
    ZoneId zone() {
        return primary == null ? ZoneId.systemDefault() : primary.zone;
    }

    /**
     * The rollover period: the finest unit the primary date token shows, found the way logback's
     * {@code RollingCalendar} and log4j2's {@code PatternProcessor} find it — the first unit, from
     * milliseconds up, whose step changes the formatted text.
     *
     * @return the unit, or {@code null} when the pattern has no date token
     */
    public ChronoUnit period() {
        if (primary == null) {
            return null;
        }
        ChronoUnit[] units = {ChronoUnit.MILLIS, ChronoUnit.SECONDS, ChronoUnit.MINUTES, ChronoUnit.HOURS,
                ChronoUnit.HALF_DAYS, ChronoUnit.DAYS, ChronoUnit.WEEKS, ChronoUnit.MONTHS, ChronoUnit.YEARS};
        // A reference instant with every field away from its boundary, so that one step of a unit
        // changes that unit's field and no coarser one by accident.
        ZonedDateTime ref = ZonedDateTime.of(2001, 6, 13, 5, 7, 9, 11_000_000, primary.zone);
        String base = primary.formatter.format(ref);
        for (ChronoUnit u : units) {
            if (!primary.formatter.format(ref.plus(1, u)).equals(base)) {
                return u;
            }
        }
        return null; // a date token that shows no time field: never rolls by time
    }

    /** @return the pattern as configured */
    @Override
    public String toString() {
        return pattern;
    }
}
