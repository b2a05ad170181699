package io.github.spool.logback;

import ch.qos.logback.classic.pattern.ClassNameOnlyAbbreviator;
import ch.qos.logback.classic.pattern.ContextNameConverter;
import ch.qos.logback.classic.pattern.DateConverter;
import ch.qos.logback.classic.pattern.LevelConverter;
import ch.qos.logback.classic.pattern.LineSeparatorConverter;
import ch.qos.logback.classic.pattern.LoggerConverter;
import ch.qos.logback.classic.pattern.MDCConverter;
import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.pattern.RelativeTimeConverter;
import ch.qos.logback.classic.pattern.TargetLengthBasedClassNameAbbreviator;
import ch.qos.logback.classic.pattern.ThreadConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ContextBase;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.pattern.Converter;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.pattern.IdentityCompositeConverter;
import ch.qos.logback.core.pattern.LiteralConverter;
import ch.qos.logback.core.pattern.parser.CompositeNode;
import ch.qos.logback.core.pattern.parser.Node;
import ch.qos.logback.core.pattern.parser.Parser;
import ch.qos.logback.core.pattern.parser.SimpleKeywordNode;
import ch.qos.logback.core.spi.ScanException;
import ch.qos.logback.core.util.OptionHelper;
import io.github.spool.time.NamedDatePatterns;
import io.github.spool.time.TimestampFormat;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Turns the converter chain that logback's own {@code PatternLayout} compiled and started for a
 * pattern into {@link ByteConverter}s: each converter whose output Spool can write straight to bytes
 * (by its exact class and options) becomes a fast-path converter; every other converter is kept
 * and called as it is ({@link ByteConverter.Delegate}).
 *
 * <p>Why start from logback's chain rather than from the pattern: parsing, conversion-word lookup
 * (defaults, {@code <conversionRule>}s, Spring Boot's rules), option handling, error statuses and
 * the rendering of errors ({@code %PARSER_ERROR[word]}), converter start-up and logback's implicit
 * {@code %ex} ({@code EnsureExceptionHandling}) are then logback's by construction, for every
 * pattern and every future converter. Spool only chooses, per converter, whether it can print the
 * same bytes faster; when unsure (a subclass, an option it does not model, a date pattern core
 * prints differently) it delegates, so a wrong choice costs speed, never different output.
 *
 * <p>The chain is logback's {@code PatternLayoutBase.head}, captured through the layout's public
 * {@code PostCompileProcessor} hook (see {@link SpoolEncoder#start()}).
 *
 * <p>Internal to the logback adapter.
 */
final class PatternCompiler {

    private PatternCompiler() {
    }

    /**
     * Compiles a started chain.
     *
     * @param head    the first converter of a started {@code PatternLayout}
     * @param pattern the pattern that layout compiled
     * @return the converters in order
     */
    static ByteConverter[] compile(Converter<ILoggingEvent> head, String pattern) {
        return compileChain(head, parse(pattern));
    }

    /**
     * The pattern's node tree, for the converters' options: {@code DynamicConverter.getOptionList()}
     * is protected, and logback's {@code Compiler} makes exactly one converter per node, in node
     * order, so walking both in step pairs each converter with its node. Parsed by logback's own
     * parser into a throwaway context: logback already reported whatever there is to report.
     *
     * @return the first node, or {@code null} (then no options are known and those conversions
     *         are delegated)
     */
    private static Node parse(String pattern) {
        try {
            Parser<ILoggingEvent> parser = new Parser<>(pattern);
            parser.setContext(new ContextBase());
            return parser.parse();
        } catch (ScanException | RuntimeException e) {
            return null;
        }
    }

    private static ByteConverter[] compileChain(Converter<ILoggingEvent> head, Node top) {
        List<ByteConverter> list = new ArrayList<>();
        Node n = top;
        for (Converter<ILoggingEvent> c = head; c != null; c = c.getNext()) {
            list.add(compileOne(c, n));
            n = n == null ? null : n.getNext(); // past the last node: EnsureExceptionHandling's %ex
        }
        return list.toArray(new ByteConverter[0]);
    }

    /** @return the fast-path converter printing what {@code c} prints, or a delegate to {@code c} */
    private static ByteConverter compileOne(Converter<ILoggingEvent> c, Node node) {
        // exact classes only: a subclass (a conversionRule's own converter) may print anything
        Class<?> type = c.getClass();
        if (type == LiteralConverter.class) {
            return new ByteConverter.Literal(c.convert(null));
        }
        if (!(c instanceof DynamicConverter)) {
            return new ByteConverter.Delegate(c);
        }
        DynamicConverter<ILoggingEvent> dc = (DynamicConverter<ILoggingEvent>) c;
        Fmt fmt = Fmt.of(dc.getFormattingInfo());
        String first = dc.getFirstOption();
        List<String> options = node instanceof SimpleKeywordNode ? ((SimpleKeywordNode) node).getOptions() : null;
        // the node must be this converter's: its first option is the one the converter was given
        boolean optionsKnown = node instanceof SimpleKeywordNode
                && Objects.equals(first, options == null || options.isEmpty() ? null : options.get(0));
        ByteConverter fast = null;
        if (type == DateConverter.class) {
            fast = optionsKnown ? date(options, fmt) : null;
        } else if (type == LevelConverter.class) {
            fast = new ByteConverter.LevelName(fmt);
        } else if (type == ThreadConverter.class) {
            fast = new ByteConverter.ThreadName(fmt);
        } else if (type == LoggerConverter.class) {
            fast = logger(first, fmt);
        } else if (type == MessageConverter.class) {
            fast = new ByteConverter.Message(fmt);
        } else if (type == LineSeparatorConverter.class) {
            fast = new ByteConverter.Literal(Fmt.apply(fmt, CoreConstants.LINE_SEPARATOR));
        } else if (type == MDCConverter.class) {
            // MDCConverter.start(): the same split of "key:-default"
            String[] keyInfo = OptionHelper.extractDefaultReplacement(first);
            fast = new ByteConverter.Mdc(keyInfo[0], keyInfo[1] != null ? keyInfo[1] : "", fmt);
        } else if (type == ContextNameConverter.class) {
            fast = new ByteConverter.ContextName(fmt);
        } else if (type == RelativeTimeConverter.class) {
            fast = new ByteConverter.Relative(fmt);
        } else if (type == IdentityCompositeConverter.class && node instanceof CompositeNode) {
            fast = group((IdentityCompositeConverter<ILoggingEvent>) dc, ((CompositeNode) node).getChildNode(), fmt);
        }
        return fast != null ? fast : new ByteConverter.Delegate(dc);
    }

    /**
     * {@code %(...)}: its children compiled in turn. A group cut by a maximum width must be able
     * to render its exact text a second time for a cut through non-ASCII text (see
     * {@link Fmt#region}); calling a delegated child twice could change its output (a counter such
     * as {@code %lsn}), so such a group is delegated whole.
     */
    private static ByteConverter group(IdentityCompositeConverter<ILoggingEvent> cc, Node childNodes, Fmt fmt) {
        ByteConverter[] children = compileChain(cc.getChildConverter(), childNodes);
        boolean cut = fmt != null && fmt.max < Integer.MAX_VALUE;
        if (cut) {
            for (ByteConverter child : children) {
                if (child instanceof ByteConverter.Delegate) {
                    return null;
                }
            }
        }
        return new ByteConverter.Group(children, fmt, cut ? cc.getChildConverter() : null);
    }

    /** Mirrors {@code NamedConverter.start()}: 0 = class name only, N &gt; 0 = target length, else none. */
    private static ByteConverter logger(String option, Fmt fmt) {
        if (option == null) {
            return new ByteConverter.LoggerName(null, fmt);
        }
        try {
            int targetLen = Integer.parseInt(option);
            if (targetLen == 0) {
                return new ByteConverter.LoggerName(new ClassNameOnlyAbbreviator(), fmt);
            } else if (targetLen > 0) {
                return new ByteConverter.LoggerName(new TargetLengthBasedClassNameAbbreviator(targetLen), fmt);
            }
            return new ByteConverter.LoggerName(null, fmt);
        } catch (NumberFormatException e) {
            return new ByteConverter.LoggerName(null, fmt); // logback reported it and prints full names
        }
    }

    /**
     * Mirrors {@code DateConverter.start()}: option 1 the pattern (or ISO8601 / STRICT), option 2 the
     * zone, option 3 the locale. Core's {@link TimestampFormat} must then print exactly what
     * {@link DateTimeFormatter} (logback's {@code CachingDateFormatter}) prints; that is checked
     * here on instants around every interesting boundary. A pattern logback rejected (it fell back
     * to ISO8601 with a warning), one core cannot render or renders differently is left to
     * logback's converter.
     *
     * @return the fast converter, or {@code null} to delegate
     */
    private static ByteConverter date(List<String> options, Fmt fmt) {
        String pattern = NamedDatePatterns.logback(options == null || options.isEmpty() ? null : options.get(0));
        ZoneId zone;
        DateTimeFormatter reference;
        TimestampFormat format;
        try {
            zone = options != null && options.size() > 1 ? ZoneId.of(options.get(1)) : ZoneId.systemDefault();
            Locale locale = options != null && options.size() > 2 ? Locale.forLanguageTag(options.get(2)) : Locale.getDefault();
            reference = DateTimeFormatter.ofPattern(pattern).withZone(zone).withLocale(locale);
            format = TimestampFormat.ofPattern(pattern, zone);
        } catch (RuntimeException e) {
            return null;
        }
        return DateCheck.firstMismatch(format, reference, zone) == null ? new ByteConverter.Date(format, fmt) : null;
    }

    /** Compares core's {@link TimestampFormat} with {@link DateTimeFormatter} on probing instants. */
    static final class DateCheck {
        private DateCheck() {
        }

        static String firstMismatch(TimestampFormat format, DateTimeFormatter reference, ZoneId zone) {
            List<Long> probes = new ArrayList<>();
            long[] fixed = {0L, 1L, 999L, 1_000L, 59_999L, 86_399_999L, 951_782_400_000L /* 2000-02-29 */,
                1_709_164_800_123L /* 2024-02-29 */, 1_735_689_599_999L /* 2024-12-31T23:59:59.999Z */,
                1_735_689_600_000L, 1_763_770_346_721L, 4_102_444_800_000L /* 2100-01-01 */};
            for (long t : fixed) {
                probes.add(t);
            }
            for (int h = 0; h < 24; h++) {
                probes.add(1_763_769_600_000L + h * 3_600_000L + h * 61_007L); // every hour of a day
            }
            for (int m = 0; m < 12; m++) {
                probes.add(1_735_689_600_000L + m * 31L * 86_400_000L + 12_345L); // every month
            }
            ZoneRules rules = zone.getRules();
            Instant at = Instant.ofEpochMilli(1_700_000_000_000L);
            for (int i = 0; i < 4; i++) {
                ZoneOffsetTransition tr = rules.nextTransition(at);
                if (tr == null) {
                    break;
                }
                long t = tr.getInstant().toEpochMilli();
                probes.add(t - 1);
                probes.add(t);
                probes.add(t + 1_800_000L);
                at = tr.getInstant();
            }
            byte[] buf = new byte[Math.max(64, format.maxLength())];
            for (long t : probes) {
                String expected;
                try {
                    expected = reference.format(Instant.ofEpochMilli(t));
                } catch (DateTimeException e) {
                    continue; // logback could not print it either
                }
                int n = format.format(t, buf, 0);
                String actual = new String(buf, 0, n, java.nio.charset.StandardCharsets.UTF_8);
                if (!expected.equals(actual)) {
                    return "at " + Instant.ofEpochMilli(t) + " logback prints '" + expected + "', core would print '" + actual + "'";
                }
            }
            return null;
        }
    }
}
