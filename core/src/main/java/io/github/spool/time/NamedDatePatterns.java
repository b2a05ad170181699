package io.github.spool.time;

import java.util.Map;

/**
 * The named date formats of {@code %d{NAME}} as each framework spells them, resolved to patterns
 * {@link TimestampFormat} understands.
 */
public final class NamedDatePatterns {

    /**
     * log4j-core 2.26 {@code org.apache.logging.log4j.core.pattern.NamedInstantPattern} (the
     * default formatter since 2.25). Note the ISO8601_OFFSET_* names use {@code x} there (zero
     * offset prints {@code +00}), where the legacy {@code FixedDateFormat} used {@code X} ({@code Z}).
     * {@code UNIX} and {@code UNIX_MILLIS} are epoch numbers, not patterns: they are returned
     * unchanged for the caller to handle.
     */
    private static final Map<String, String> LOG4J2 = Map.ofEntries(
        Map.entry("ABSOLUTE", "HH:mm:ss,SSS"),
        Map.entry("ABSOLUTE_MICROS", "HH:mm:ss,SSSSSS"),
        Map.entry("ABSOLUTE_NANOS", "HH:mm:ss,SSSSSSSSS"),
        Map.entry("ABSOLUTE_PERIOD", "HH:mm:ss.SSS"),
        Map.entry("COMPACT", "yyyyMMddHHmmssSSS"),
        Map.entry("DATE", "dd MMM yyyy HH:mm:ss,SSS"),
        Map.entry("DATE_PERIOD", "dd MMM yyyy HH:mm:ss.SSS"),
        Map.entry("DEFAULT", "yyyy-MM-dd HH:mm:ss,SSS"),
        Map.entry("DEFAULT_MICROS", "yyyy-MM-dd HH:mm:ss,SSSSSS"),
        Map.entry("DEFAULT_NANOS", "yyyy-MM-dd HH:mm:ss,SSSSSSSSS"),
        Map.entry("DEFAULT_PERIOD", "yyyy-MM-dd HH:mm:ss.SSS"),
        Map.entry("ISO8601_BASIC", "yyyyMMdd'T'HHmmss,SSS"),
        Map.entry("ISO8601_BASIC_PERIOD", "yyyyMMdd'T'HHmmss.SSS"),
        Map.entry("ISO8601", "yyyy-MM-dd'T'HH:mm:ss,SSS"),
        Map.entry("ISO8601_OFFSET_DATE_TIME_HH", "yyyy-MM-dd'T'HH:mm:ss,SSSx"),
        Map.entry("ISO8601_OFFSET_DATE_TIME_HHMM", "yyyy-MM-dd'T'HH:mm:ss,SSSxx"),
        Map.entry("ISO8601_OFFSET_DATE_TIME_HHCMM", "yyyy-MM-dd'T'HH:mm:ss,SSSxxx"),
        Map.entry("ISO8601_PERIOD", "yyyy-MM-dd'T'HH:mm:ss.SSS"),
        Map.entry("ISO8601_PERIOD_MICROS", "yyyy-MM-dd'T'HH:mm:ss.SSSSSS"),
        Map.entry("US_MONTH_DAY_YEAR2_TIME", "dd/MM/yy HH:mm:ss.SSS"),
        Map.entry("US_MONTH_DAY_YEAR4_TIME", "dd/MM/yyyy HH:mm:ss.SSS"));

    /** log4j2's pattern when {@code %d} has no option ({@code DatePatternConverter}): DEFAULT. */
    public static final String LOG4J2_DEFAULT = "yyyy-MM-dd HH:mm:ss,SSS";

    /**
     * logback 1.5 {@code ch.qos.logback.core.CoreConstants}: {@code ISO8601_STR} "ISO8601" →
     * {@code ISO8601_PATTERN}, {@code STRICT_STR} "STRICT" → {@code STRICT_ISO8601_PATTERN}
     * (as {@code ch.qos.logback.classic.pattern.DateConverter.start()} maps them).
     */
    private static final Map<String, String> LOGBACK = Map.of(
        "ISO8601", "yyyy-MM-dd HH:mm:ss,SSS",
        "STRICT", "yyyy-MM-dd'T'HH:mm:ss,SSS");

    /** logback's pattern when {@code %d} has no option: {@code CoreConstants.ISO8601_PATTERN}. */
    public static final String LOGBACK_DEFAULT = "yyyy-MM-dd HH:mm:ss,SSS";

    private NamedDatePatterns() {
    }

    /**
     * Resolves a log4j2 {@code %d} option.
     *
     * @param nameOrPattern a name such as {@code DEFAULT} or {@code ISO8601}, or a pattern; null
     *     means no option
     * @return the pattern the name stands for; any other input unchanged; {@link #LOG4J2_DEFAULT}
     *     for null
     */
    public static String log4j2(String nameOrPattern) {
        if (nameOrPattern == null) {
            return LOG4J2_DEFAULT;
        }
        return LOG4J2.getOrDefault(nameOrPattern, nameOrPattern);
    }

    /**
     * Resolves a logback {@code %d} option.
     *
     * @param nameOrPattern {@code ISO8601}, {@code STRICT}, or a pattern; null means no option
     * @return the pattern the name stands for; any other input unchanged; {@link #LOGBACK_DEFAULT}
     *     for null
     */
    public static String logback(String nameOrPattern) {
        if (nameOrPattern == null) {
            return LOGBACK_DEFAULT;
        }
        return LOGBACK.getOrDefault(nameOrPattern, nameOrPattern);
    }
}
