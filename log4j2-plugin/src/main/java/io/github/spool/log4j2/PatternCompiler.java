package io.github.spool.log4j2;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.core.pattern.DatePatternConverter;
import org.apache.logging.log4j.core.pattern.ExtendedThrowablePatternConverter;
import org.apache.logging.log4j.core.pattern.FormattingInfo;
import org.apache.logging.log4j.core.pattern.LevelPatternConverter;
import org.apache.logging.log4j.core.pattern.LineSeparatorPatternConverter;
import org.apache.logging.log4j.core.pattern.LogEventPatternConverter;
import org.apache.logging.log4j.core.pattern.LoggerPatternConverter;
import org.apache.logging.log4j.core.pattern.MdcPatternConverter;
import org.apache.logging.log4j.core.pattern.MessagePatternConverter;
import org.apache.logging.log4j.core.pattern.PatternFormatter;
import org.apache.logging.log4j.core.pattern.RootThrowablePatternConverter;
import org.apache.logging.log4j.core.pattern.ThreadNamePatternConverter;
import org.apache.logging.log4j.core.pattern.ThrowablePatternConverter;
import org.apache.logging.log4j.message.SimpleMessage;

/**
 * Turns a PatternLayout pattern into {@link Segment}s. Internal API.
 *
 * <p>log4j2 itself parses the pattern: {@link PatternLayout#createPatternParser(Configuration)}
 * (the parser PatternLayout caches in the configuration) and {@code parse(pattern,
 * alwaysWriteExceptions, disableAnsi, noConsoleNoAnsi)}, exactly the call PatternLayout's {@code
 * SerializerBuilder} makes in 2.26.1. So every conversion key, custom {@code @ConverterKeys}
 * plugins, lookups in literals, ANSI options, the {@code alwaysWriteExceptions} tail and every
 * error (status messages, the erroneous text printed as a literal) are log4j2's own, produced once.
 * Each resulting {@link PatternFormatter} then becomes either a byte-path segment, where Spool has a
 * garbage-free rendering proven equal to the converter's, or a {@link FormatterSegment} that calls
 * the formatter. The byte path is chosen by the converter <em>instance</em> log4j2 built (its class,
 * or identity with the option-less singleton), so it cannot be chosen for something log4j2 did not
 * build; the three conversions whose byte path needs the options ({@code %d}, {@code %c}, {@code
 * %X}) read them from {@link PatternShadow}, and only when that replay lines up with log4j2's list.
 */
final class PatternCompiler {

    /** log4j2's {@code DynamicWordAbbreviator} option, checked first as in {@code NameAbbreviator}. */
    private static final Pattern DYNAMIC_WORDS = Pattern.compile("1\\.([1-9][0-9]*)\\*");
    /** The option-less singletons ({@code newInstance} returns the same instance each time). */
    private static final LogEventPatternConverter PLAIN_LEVEL = LevelPatternConverter.newInstance(null);
    private static final LogEventPatternConverter PLAIN_THREAD = ThreadNamePatternConverter.newInstance(null);
    private static final Class<?> PLAIN_MESSAGE = MessagePatternConverter.newInstance(null, new String[0]).getClass();
    /** Package-private in log4j2: the literal converter without lookups ({@code PatternParser.literalPattern}). */
    private static final Class<?> SIMPLE_LITERAL = simpleLiteralClass();
    /** Literal converters ignore the event; this one is only there to satisfy the signature. */
    private static final LogEvent NO_EVENT = Log4jLogEvent.newBuilder().setLevel(Level.INFO)
            .setMessage(new SimpleMessage("")).build();

    /** The compiled pattern. */
    static final class Compiled {
        /** The segments in order. */
        final Segment[] segments;
        /** Whether a formatter needs the caller's location, as PatternLayout reports it. */
        final boolean requiresLocation;

        Compiled(Segment[] segments, boolean requiresLocation) {
            this.segments = segments;
            this.requiresLocation = requiresLocation;
        }
    }

    private PatternCompiler() {
    }

    /**
     * Parses the pattern with log4j2's parser and picks a segment for each formatter.
     *
     * @param config                the configuration or {@code null}, as for PatternLayout
     * @param pattern               the pattern
     * @param alwaysWriteExceptions as in PatternLayout
     * @param disableAnsi           as in PatternLayout
     * @param noConsoleNoAnsi       as in PatternLayout
     * @return the segments
     * @throws IllegalArgumentException where PatternLayout's serializer builder throws it
     */
    static Compiled compile(Configuration config, String pattern, boolean alwaysWriteExceptions, boolean disableAnsi,
            boolean noConsoleNoAnsi) {
        List<PatternFormatter> formatters;
        try {
            formatters = PatternLayout.createPatternParser(config).parse(pattern, alwaysWriteExceptions, disableAnsi,
                    noConsoleNoAnsi);
        } catch (RuntimeException ex) {
            // PatternLayout.SerializerBuilder.build wraps it the same way
            throw new IllegalArgumentException("Cannot parse pattern '" + pattern + "'", ex);
        }
        List<PatternShadow.Entry> entries = new PatternShadow(ConverterRules.of(config)).parse(pattern);
        int n = formatters.size();
        // The replay lines up one for one, or with one more formatter that log4j2 appended for
        // alwaysWriteExceptions (it does so only when no converter of the pattern handles throwables).
        boolean aligned = entries.size() == n
                || alwaysWriteExceptions && entries.size() == n - 1 && formatters.get(n - 1).handlesThrowable()
                        && noneHandlesThrowable(formatters.subList(0, n - 1));
        Segment[] segments = new Segment[n];
        boolean requiresLocation = false;
        for (int i = 0; i < n; i++) {
            PatternFormatter formatter = formatters.get(i);
            requiresLocation |= formatter.requiresLocation();
            PatternShadow.Entry entry = aligned && i < entries.size() ? entries.get(i) : null;
            boolean appendedThrowable = aligned && i == entries.size();
            segments[i] = segmentFor(formatter, entry, appendedThrowable);
        }
        return new Compiled(segments, requiresLocation);
    }

    private static boolean noneHandlesThrowable(List<PatternFormatter> formatters) {
        for (PatternFormatter f : formatters) {
            if (f.handlesThrowable()) {
                return false;
            }
        }
        return true;
    }

    private static Segment segmentFor(PatternFormatter formatter, PatternShadow.Entry entry, boolean appendedThrowable) {
        LogEventPatternConverter converter = formatter.getConverter();
        FormattingInfo info = formatter.getFormattingInfo();
        boolean plainInfo = info == FormattingInfo.getDefault(); // PatternFormatter's own test: identity
        if (converter == PLAIN_LEVEL) {
            return new LevelSegment(info); // applies the modifiers itself, precomputed per level
        }
        Segment fast = null;
        if (SIMPLE_LITERAL.isInstance(converter) || converter instanceof LineSeparatorPatternConverter) {
            StringBuilder text = new StringBuilder();
            converter.format(NO_EVENT, text);
            fast = new LiteralSegment(text.toString());
        } else if (converter == PLAIN_THREAD) {
            fast = ThreadNameSegment.INSTANCE;
        } else if (converter.getClass() == PLAIN_MESSAGE) {
            fast = MessageSegment.INSTANCE;
        } else if (entry != null && entry.converterClass != null && entry.converterClass.isInstance(converter)) {
            fast = optionSegment(converter, entry.options);
        }
        if (fast == null) {
            // ThrowablePatternConverter and its %xEx/%rEx subclasses append nothing without a
            // throwable (format: "if (throwable != null)"), nor does the %notEmpty{%n%ex} log4j2
            // appends for alwaysWriteExceptions; modifiers could still pad, hence plainInfo. By
            // exact class: a user's subclass may print text without a throwable.
            boolean onlyWithThrowable = plainInfo && (isLog4jThrowableConverter(converter) || appendedThrowable);
            return new FormatterSegment(formatter, onlyWithThrowable);
        }
        return plainInfo ? fast : new FormattedSegment(fast, info);
    }

    private static boolean isLog4jThrowableConverter(LogEventPatternConverter converter) {
        Class<?> c = converter.getClass();
        return c == ThrowablePatternConverter.class || c == ExtendedThrowablePatternConverter.class
                || c == RootThrowablePatternConverter.class;
    }

    /** The byte path for {@code %d}, {@code %c}, {@code %X}, or {@code null} to keep log4j2's converter. */
    private static Segment optionSegment(LogEventPatternConverter converter, String[] options) {
        if (converter instanceof DatePatternConverter) {
            try {
                return DateSegment.create(options, (DatePatternConverter) converter);
            } catch (IllegalArgumentException e) {
                return null; // a format core does not print exactly as log4j2 does
            }
        }
        if (converter instanceof LoggerPatternConverter) {
            return loggerSegment(options);
        }
        if (converter instanceof MdcPatternConverter) {
            return new MdcSegment(options);
        }
        return null;
    }

    private static Segment loggerSegment(String[] options) {
        if (options.length == 0 || options[0].isEmpty() || options[0].trim().isEmpty()) {
            return LoggerSegment.FULL;
        }
        String trimmed = options[0].trim();
        boolean negative = trimmed.length() > 1 && trimmed.charAt(0) == '-';
        String number = negative ? trimmed.substring(1) : trimmed;
        int digits = 0;
        while (digits < number.length() && number.charAt(digits) >= '0' && number.charAt(digits) <= '9') {
            digits++;
        }
        try {
            Matcher dynamic = DYNAMIC_WORDS.matcher(trimmed);
            if (dynamic.matches()) {
                return new DynamicWordLoggerSegment(Integer.parseInt(dynamic.group(1)));
            }
            if (digits == number.length()) {
                return new LoggerSegment(Integer.parseInt(number), negative);
            }
        } catch (NumberFormatException e) {
            return null; // beyond int: whatever log4j2 makes of it
        }
        // Pattern abbreviations ({1.}, {1.1.~}, {*.}): log4j2's NameAbbreviator, garbage-free as it is.
        return null;
    }

    private static Class<?> simpleLiteralClass() {
        try {
            return Class.forName("org.apache.logging.log4j.core.pattern.SimpleLiteralPatternConverter", false,
                    LogEventPatternConverter.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            return Void.class; // another log4j2 version: literals go through their converter, still exact
        }
    }
}
