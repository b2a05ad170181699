package io.github.spool.logback;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.pattern.ClassNameOnlyAbbreviator;
import ch.qos.logback.classic.pattern.ContextNameConverter;
import ch.qos.logback.classic.pattern.DateConverter;
import ch.qos.logback.classic.pattern.ExtendedThrowableProxyConverter;
import ch.qos.logback.classic.pattern.KeyValuePairConverter;
import ch.qos.logback.classic.pattern.LevelConverter;
import ch.qos.logback.classic.pattern.LineSeparatorConverter;
import ch.qos.logback.classic.pattern.LoggerConverter;
import ch.qos.logback.classic.pattern.MDCConverter;
import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.pattern.RelativeTimeConverter;
import ch.qos.logback.classic.pattern.TargetLengthBasedClassNameAbbreviator;
import ch.qos.logback.classic.pattern.ThreadConverter;
import ch.qos.logback.classic.pattern.ThrowableHandlingConverter;
import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Context;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.pattern.CompositeConverter;
import ch.qos.logback.core.pattern.Converter;
import ch.qos.logback.core.pattern.ConverterUtil;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.pattern.IdentityCompositeConverter;
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
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Compiles a logback pattern into {@link ByteConverter}s the way {@code PatternLayout} compiles it
 * into logback converters, so that the two print the same bytes:
 *
 * <ul>
 *   <li>parsing is logback's own {@link Parser} (escapes, options, modifiers, groups);</li>
 *   <li>each conversion word is resolved through {@link PatternLayout#getEffectiveConverterMap()}
 *       of a layout in the same context, so aliases and user {@code conversionRule}s resolve to the
 *       converter class logback would use; a word that resolves to a class this compiler does not
 *       reimplement (or delegate) is an error naming the word, never different output;</li>
 *   <li>if no converter prints throwables, a {@code ThrowableProxyConverter} (or the extended one
 *       when packaging data is on) is appended, as logback's {@code EnsureExceptionHandling} does.</li>
 * </ul>
 *
 * <p>Internal to the logback adapter.
 */
final class PatternCompiler {

    /**
     * Foreign converters rendered by themselves (see {@link ByteConverter.Delegate}): Spring Boot's,
     * so that its default console pattern works unchanged. Matched by name: Spring is not a
     * dependency.
     */
    static final Set<String> DELEGATED = Set.of(
            "org.springframework.boot.logging.logback.ColorConverter",
            "org.springframework.boot.logging.logback.EnclosedInSquareBracketsConverter",
            "org.springframework.boot.logging.logback.ApplicationNameConverter",
            "org.springframework.boot.logging.logback.CorrelationIdConverter");

    private final Context context;
    @SuppressWarnings("rawtypes") // logback's converter map is typed with the raw DynamicConverter
    private final Map<String, Supplier<DynamicConverter>> converters;
    private final Consumer<String> warn;
    private final Parser<ILoggingEvent> logbackParser;

    private PatternCompiler(Context context, Consumer<String> warn, Parser<ILoggingEvent> logbackParser) {
        this.context = context;
        this.warn = warn;
        this.logbackParser = logbackParser;
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        this.converters = layout.getEffectiveConverterMap();
    }

    /**
     * Compiles {@code pattern}.
     *
     * @param warn receives warnings that logback would also report (and still print the line)
     * @return the converters in order
     * @throws IllegalArgumentException naming the unsupported conversion word or the syntax error
     */
    static ByteConverter[] compile(String pattern, Context context, Consumer<String> warn) {
        if (pattern == null || pattern.isEmpty()) {
            throw new IllegalArgumentException("empty pattern");
        }
        Node top;
        Parser<ILoggingEvent> parser;
        try {
            parser = new Parser<>(pattern);
            parser.setContext(context);
            top = parser.parse();
        } catch (ScanException | RuntimeException e) {
            // logback's parser also throws NumberFormatException, e.g. for "%%" (a literal percent
            // is "\\%"); PatternLayoutEncoder lets that escape from start(), we report it
            throw new IllegalArgumentException("cannot parse pattern \"" + pattern + "\": " + e, e);
        }
        PatternCompiler compiler = new PatternCompiler(context, warn, parser);
        List<ByteConverter> list = compiler.compileChain(top);
        boolean handled = false;
        for (ByteConverter c : list) {
            handled |= c.handlesThrowable();
        }
        if (!handled) {
            list.add(compiler.defaultThrowableConverter());
        }
        return list.toArray(new ByteConverter[0]);
    }

    private List<ByteConverter> compileChain(Node top) {
        List<ByteConverter> list = new ArrayList<>();
        for (Node n = top; n != null; n = n.getNext()) {
            // Node's type constants are package-private: tell the node kinds apart by class
            if (n instanceof CompositeNode) {
                list.add(compileComposite((CompositeNode) n));
            } else if (n instanceof SimpleKeywordNode) {
                list.add(compileKeyword((SimpleKeywordNode) n));
            } else if (n.getValue() instanceof String) {
                list.add(new ByteConverter.Literal((String) n.getValue()));
            } else {
                throw new IllegalArgumentException("unexpected pattern node " + n);
            }
        }
        return list;
    }

    private ByteConverter compileComposite(CompositeNode cn) {
        String word = (String) cn.getValue();
        DynamicConverter<ILoggingEvent> dc = instantiate(word);
        if (dc != null && dc.getClass() == IdentityCompositeConverter.class) {
            List<ByteConverter> children = compileChain(cn.getChildNode());
            Fmt fmt = Fmt.of(cn.getFormatInfo());
            Converter<ILoggingEvent> exact = null;
            if (fmt != null && fmt.max < Integer.MAX_VALUE) {
                // a cut group keeps logback's own children for the rare cut through non-ASCII text
                exact = logbackParser.compile(cn.getChildNode(), converters);
                ConverterUtil.setContextForConverters(context, exact);
                ConverterUtil.startConverters(exact);
            }
            return new ByteConverter.Group(children.toArray(new ByteConverter[0]), fmt, exact);
        }
        if (dc instanceof CompositeConverter && DELEGATED.contains(dc.getClass().getName())) {
            // Spring Boot's %clr(...) and %esb(...): the group is compiled and rendered by logback
            // itself (children included), exactly as PatternLayout would
            CompositeConverter<ILoggingEvent> composite = (CompositeConverter<ILoggingEvent>) dc;
            Converter<ILoggingEvent> children = logbackParser.compile(cn.getChildNode(), converters);
            ConverterUtil.setContextForConverters(context, children);
            ConverterUtil.startConverters(children);
            composite.setChildConverter(children);
            return delegate(composite, cn);
        }
        throw unsupported(word, dc);
    }

    private ByteConverter.Delegate delegate(DynamicConverter<ILoggingEvent> dc, SimpleKeywordNode node) {
        dc.setFormattingInfo(node.getFormatInfo());
        dc.setOptionList(node.getOptions());
        dc.setContext(context);
        dc.start();
        return new ByteConverter.Delegate(dc);
    }

    private ByteConverter compileKeyword(SimpleKeywordNode kn) {
        String word = (String) kn.getValue();
        DynamicConverter<ILoggingEvent> dc = instantiate(word);
        if (dc == null) {
            throw new IllegalArgumentException("unknown conversion word %" + word);
        }
        List<String> options = kn.getOptions();
        String first = options == null || options.isEmpty() ? null : options.get(0);
        Fmt fmt = Fmt.of(kn.getFormatInfo());
        Class<?> type = dc.getClass();
        if (type == DateConverter.class) {
            return date(word, options, fmt);
        } else if (type == LevelConverter.class) {
            return new ByteConverter.LevelName(fmt);
        } else if (type == ThreadConverter.class) {
            return new ByteConverter.ThreadName(fmt);
        } else if (type == LoggerConverter.class) {
            return logger(first, fmt);
        } else if (type == MessageConverter.class) {
            return new ByteConverter.Message(fmt);
        } else if (type == LineSeparatorConverter.class) {
            return new ByteConverter.Literal(Fmt.apply(fmt, CoreConstants.LINE_SEPARATOR));
        } else if (type == MDCConverter.class) {
            String[] keyInfo = OptionHelper.extractDefaultReplacement(first);
            return new ByteConverter.Mdc(keyInfo[0], keyInfo[1] != null ? keyInfo[1] : "", fmt);
        } else if (type == ContextNameConverter.class) {
            return new ByteConverter.ContextName(fmt);
        } else if (type == RelativeTimeConverter.class) {
            return new ByteConverter.Relative(fmt);
        } else if (dc instanceof ThrowableHandlingConverter || type == KeyValuePairConverter.class
                || DELEGATED.contains(type.getName())) {
            return delegate(dc, kn);
        }
        throw unsupported(word, dc);
    }

    /** Mirrors {@code EnsureExceptionHandling}: extended when the context has packaging data on. */
    private ByteConverter defaultThrowableConverter() {
        ThrowableProxyConverter dc = context instanceof LoggerContext && ((LoggerContext) context).isPackagingDataEnabled()
                ? new ExtendedThrowableProxyConverter() : new ThrowableProxyConverter();
        dc.setContext(context);
        dc.start();
        return new ByteConverter.Delegate(dc);
    }

    /** Mirrors {@code NamedConverter.start()}: 0 = class name only, N &gt; 0 = target length, else none. */
    private ByteConverter logger(String option, Fmt fmt) {
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
            warn.accept("failed to parse integer string [" + option + "] of %logger; printing full logger names as logback does");
            return new ByteConverter.LoggerName(null, fmt);
        }
    }

    /**
     * Mirrors {@code DateConverter.start()}: option 1 the pattern (or ISO8601 / STRICT), option 2 the
     * zone, option 3 the locale; an invalid pattern falls back to ISO8601 with a warning. Core's
     * {@link TimestampFormat} must then print exactly what {@link DateTimeFormatter} prints; that is
     * checked here on instants around every interesting boundary, so a pattern it renders
     * differently is a configuration error rather than different output.
     */
    private ByteConverter date(String word, List<String> options, Fmt fmt) {
        // null, ISO8601 and STRICT resolve as in DateConverter (CoreConstants.ISO8601_PATTERN, ...)
        String pattern = NamedDatePatterns.logback(options == null || options.isEmpty() ? null : options.get(0));
        ZoneId zone;
        try {
            zone = options != null && options.size() > 1 ? ZoneId.of(options.get(1)) : ZoneId.systemDefault();
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("%" + word + ": unknown time zone '" + options.get(1) + "'", e);
        }
        Locale locale = options != null && options.size() > 2 ? Locale.forLanguageTag(options.get(2)) : Locale.getDefault();
        DateTimeFormatter reference;
        try {
            reference = DateTimeFormatter.ofPattern(pattern).withZone(zone).withLocale(locale);
        } catch (IllegalArgumentException e) {
            warn.accept("Could not instantiate SimpleDateFormat with pattern " + pattern + "; using " + CoreConstants.ISO8601_PATTERN + " as logback does");
            pattern = CoreConstants.ISO8601_PATTERN;
            reference = DateTimeFormatter.ofPattern(pattern).withZone(zone).withLocale(locale);
        }
        TimestampFormat format;
        try {
            format = TimestampFormat.ofPattern(pattern, zone);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("%" + word + "{" + pattern + "}: date pattern not supported by SpoolEncoder: " + e.getMessage(), e);
        }
        String mismatch = DateCheck.firstMismatch(format, reference, zone);
        if (mismatch != null) {
            throw new IllegalArgumentException("%" + word + "{" + pattern + "}: date pattern not supported by SpoolEncoder (" + mismatch + ")");
        }
        return new ByteConverter.Date(format, fmt);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private DynamicConverter<ILoggingEvent> instantiate(String word) {
        Supplier<DynamicConverter> supplier = converters.get(word);
        if (supplier == null) {
            return null;
        }
        try {
            return (DynamicConverter<ILoggingEvent>) supplier.get();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("cannot instantiate the converter of %" + word + ": " + e, e);
        }
    }

    private static IllegalArgumentException unsupported(String word, DynamicConverter<?> dc) {
        return new IllegalArgumentException("conversion word %" + word
                + (dc == null ? " is unknown" : " (" + dc.getClass().getName() + ") is not supported by SpoolEncoder")
                + "; supported: %d %date %level %le %p %thread %t %logger %lo %c %msg %m %message %n %X %mdc"
                + " %ex %exception %throwable %xEx %rEx %nopex %kvp %contextName %cn %relative %r %(...)"
                + " and Spring Boot's %clr %esb %applicationName %correlationId %wex %wEx"
                + " — use PatternLayoutEncoder inside SpoolAppender for other conversions");
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
