package io.github.spool.log4j2;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.plugins.util.PluginManager;
import org.apache.logging.log4j.core.config.plugins.util.PluginType;
import org.apache.logging.log4j.core.pattern.ConverterKeys;
import org.apache.logging.log4j.core.pattern.DatePatternConverter;
import org.apache.logging.log4j.core.pattern.FormattingInfo;
import org.apache.logging.log4j.core.pattern.LevelPatternConverter;
import org.apache.logging.log4j.core.pattern.LineSeparatorPatternConverter;
import org.apache.logging.log4j.core.pattern.LoggerPatternConverter;
import org.apache.logging.log4j.core.pattern.MdcPatternConverter;
import org.apache.logging.log4j.core.pattern.MessagePatternConverter;
import org.apache.logging.log4j.core.pattern.PatternConverter;
import org.apache.logging.log4j.core.pattern.ThreadNamePatternConverter;
import org.apache.logging.log4j.core.pattern.ThrowablePatternConverter;
import org.apache.logging.log4j.core.pattern.VariablesNotEmptyReplacementConverter;
import org.apache.logging.log4j.core.util.OptionConverter;
import org.apache.logging.log4j.util.Strings;

/**
 * Compiles a log4j2 {@code PatternLayout} pattern into {@link Segment}s. Internal API.
 *
 * <p>The parser is a transcription of log4j2 2.26.1's {@code PatternParser.parse} (its states,
 * {@code %%}, the trailing {@code %}, backslash escapes in literals via {@link
 * OptionConverter#convertSpecialChars}, nested {@code {options}}, and the longest-prefix lookup of
 * conversion words among <em>all</em> registered converter keys, so {@code %tid} is log4j2's thread
 * id and not {@code %t} followed by "id"). Where log4j2 logs an error and prints the pattern text
 * instead (unknown or empty conversion, bad modifier), and for every conversion SpoolLayout does
 * not implement, this throws {@link IllegalArgumentException} naming the conversion: SpoolLayout
 * never prints something PatternLayout would not.
 */
final class PatternCompiler {

    private static final char ESCAPE_CHAR = '%';
    /** log4j2's {@code DynamicWordAbbreviator} option, checked first as in {@code NameAbbreviator}. */
    private static final Pattern DYNAMIC_WORDS = Pattern.compile("1\\.([1-9][0-9]*)\\*");

    private enum State {
        LITERAL,
        CONVERTER,
        DOT,
        MIN,
        MAX
    }

    private final Configuration config;
    private final Map<String, Class<?>> rules;

    /**
     * Collects the converter keys as log4j2's {@code PatternParser} does.
     *
     * @param config the configuration ({@code null} outside one), for its plugin packages
     */
    PatternCompiler(Configuration config) {
        this.config = config;
        List<String> packages = config == null ? null : config.getPluginPackages();
        this.rules = packages == null || packages.isEmpty()
                ? RULES_WITHOUT_PACKAGES.computeIfAbsent(Boolean.TRUE, k -> collectRules(null))
                : collectRules(packages);
    }

    /** Converter keys found without extra plugin packages; scanning them takes milliseconds. */
    private static final ConcurrentMap<Boolean, Map<String, Class<?>>> RULES_WITHOUT_PACKAGES = new ConcurrentHashMap<>();

    private static Map<String, Class<?>> collectRules(List<String> packages) {
        PluginManager manager = new PluginManager(PatternConverter.CATEGORY);
        manager.collectPlugins(packages);
        Map<String, Class<?>> map = new LinkedHashMap<>();
        for (PluginType<?> type : manager.getPlugins().values()) {
            Class<?> clazz = type.getPluginClass();
            ConverterKeys keys = clazz.getAnnotation(ConverterKeys.class);
            if (keys != null) {
                for (String key : keys.value()) {
                    map.putIfAbsent(key, clazz); // log4j2 keeps the first mapping too
                }
            }
        }
        return map;
    }

    /**
     * Compiles a pattern.
     *
     * @param pattern               the pattern
     * @param alwaysWriteExceptions append {@code %ex} as PatternLayout does if the pattern has none
     * @return the segments, in order
     * @throws IllegalArgumentException naming the first unsupported or invalid conversion
     */
    List<Segment> compile(String pattern, boolean alwaysWriteExceptions) {
        List<Segment> list = new ArrayList<>();
        parse(pattern, list);
        boolean handlesThrowable = false;
        for (Segment s : list) {
            handlesThrowable |= s.handlesThrowable();
        }
        if (alwaysWriteExceptions && !handlesThrowable) {
            // PatternParser.parse: "%notEmpty{%n%ex}" unless the pattern already ends with %n, then "%ex".
            Segment last = list.isEmpty() ? null : list.get(list.size() - 1);
            if (last instanceof FormattedSegment) {
                last = ((FormattedSegment) last).field(); // log4j2 looks at the converter, not its modifiers
            }
            boolean endsWithNewLine = last instanceof LiteralSegment && ((LiteralSegment) last).isLineSeparator();
            list.add(new ConverterSegment(endsWithNewLine
                    ? ThrowablePatternConverter.newInstance(config, Strings.EMPTY_ARRAY)
                    : VariablesNotEmptyReplacementConverter.newInstance(config, new String[] {"%n%ex"})));
        }
        return list;
    }

    private void parse(String pattern, List<Segment> out) {
        StringBuilder currentLiteral = new StringBuilder(32);
        int patternLength = pattern.length();
        State state = State.LITERAL;
        int i = 0;
        // The FormattingInfo identity matters: log4j2 skips formatting only for the default instance.
        FormattingInfo info = FormattingInfo.getDefault();
        while (i < patternLength) {
            char c = pattern.charAt(i++);
            switch (state) {
                case LITERAL:
                    if (i == patternLength) {
                        currentLiteral.append(c); // the last char is always a literal, even '%'
                        continue;
                    }
                    if (c == ESCAPE_CHAR) {
                        if (pattern.charAt(i) == ESCAPE_CHAR) {
                            currentLiteral.append(c);
                            i++;
                        } else {
                            addLiteral(currentLiteral, out);
                            currentLiteral.setLength(0);
                            currentLiteral.append(c);
                            state = State.CONVERTER;
                            info = FormattingInfo.getDefault();
                        }
                    } else {
                        currentLiteral.append(c);
                    }
                    break;
                case CONVERTER:
                    currentLiteral.append(c);
                    if (c == '0') {
                        info = new FormattingInfo(info.isLeftAligned(), info.getMinLength(), info.getMaxLength(),
                                info.isLeftTruncate(), true);
                    } else if (c == '-') {
                        info = new FormattingInfo(true, info.getMinLength(), info.getMaxLength(),
                                info.isLeftTruncate(), info.isZeroPad());
                    } else if (c == '.') {
                        state = State.DOT;
                    } else if (c >= '0' && c <= '9') {
                        info = new FormattingInfo(info.isLeftAligned(), c - '0', info.getMaxLength(),
                                info.isLeftTruncate(), info.isZeroPad());
                        state = State.MIN;
                    } else {
                        i = finalizeConverter(c, pattern, i, currentLiteral, info, out);
                        state = State.LITERAL;
                        info = FormattingInfo.getDefault();
                        currentLiteral.setLength(0);
                    }
                    break;
                case MIN:
                    currentLiteral.append(c);
                    if (c >= '0' && c <= '9') {
                        info = new FormattingInfo(info.isLeftAligned(), info.getMinLength() * 10 + c - '0',
                                info.getMaxLength(), info.isLeftTruncate(), info.isZeroPad());
                    } else if (c == '.') {
                        state = State.DOT;
                    } else {
                        i = finalizeConverter(c, pattern, i, currentLiteral, info, out);
                        state = State.LITERAL;
                        info = FormattingInfo.getDefault();
                        currentLiteral.setLength(0);
                    }
                    break;
                case DOT:
                    currentLiteral.append(c);
                    if (c == '-') {
                        info = new FormattingInfo(info.isLeftAligned(), info.getMinLength(), info.getMaxLength(),
                                false, info.isZeroPad());
                    } else if (c >= '0' && c <= '9') {
                        info = new FormattingInfo(info.isLeftAligned(), info.getMinLength(), c - '0',
                                info.isLeftTruncate(), info.isZeroPad());
                        state = State.MAX;
                    } else {
                        // log4j2 logs an error and goes on with the text as a literal.
                        throw new IllegalArgumentException("expected a digit after '.' at position " + i
                                + " of pattern \"" + pattern + "\", got '" + c + "'");
                    }
                    break;
                default: // MAX
                    currentLiteral.append(c);
                    if (c >= '0' && c <= '9') {
                        info = new FormattingInfo(info.isLeftAligned(), info.getMinLength(),
                                info.getMaxLength() * 10 + c - '0', info.isLeftTruncate(), info.isZeroPad());
                    } else {
                        i = finalizeConverter(c, pattern, i, currentLiteral, info, out);
                        state = State.LITERAL;
                        info = FormattingInfo.getDefault();
                        currentLiteral.setLength(0);
                    }
            }
        }
        if (state != State.LITERAL) {
            // log4j2 prints an unfinished conversion ("%-5" at the end) as literal text.
            throw new IllegalArgumentException("unfinished conversion \"" + currentLiteral + "\" at the end of pattern \""
                    + pattern + "\"");
        }
        addLiteral(currentLiteral, out);
    }

    private void addLiteral(StringBuilder literal, List<Segment> out) {
        if (literal.length() == 0) {
            return;
        }
        String text = literal.toString();
        if (config != null && text.contains("${")) {
            // log4j2 would resolve this lookup per event (LiteralPatternConverter).
            throw new IllegalArgumentException("SpoolLayout does not support lookups in pattern literals: \"" + text
                    + "\"; resolve them at configuration time or use PatternLayout");
        }
        String converted = OptionConverter.convertSpecialChars(text);
        if (!converted.isEmpty()) {
            out.add(new LiteralSegment(converted, false));
        }
    }

    private int finalizeConverter(char c, String pattern, int start, StringBuilder currentLiteral, FormattingInfo info,
            List<Segment> out) {
        int i = start;
        StringBuilder convBuf = new StringBuilder();
        if (Character.isUnicodeIdentifierStart(c)) {
            convBuf.append(c);
            while (i < pattern.length() && Character.isUnicodeIdentifierPart(pattern.charAt(i))) {
                convBuf.append(pattern.charAt(i));
                currentLiteral.append(pattern.charAt(i));
                i++;
            }
        }
        String converterId = convBuf.toString();
        List<String> options = new ArrayList<>();
        i = extractOptions(pattern, i, options);

        String converterName = converterId;
        Class<?> converterClass = null;
        for (int n = converterId.length(); n > 0 && converterClass == null; n--) {
            converterName = converterName.substring(0, n);
            converterClass = rules.get(converterName);
        }
        if (converterClass == null) {
            throw new IllegalArgumentException(converterId.isEmpty()
                    ? "empty conversion specifier at position " + i + " of pattern \"" + pattern + "\""
                    : "unrecognized conversion specifier %" + converterId + " in pattern \"" + pattern + "\"");
        }
        Segment segment;
        if (converterClass == LevelPatternConverter.class && options.isEmpty()) {
            segment = new LevelSegment(info); // applies its modifiers itself, precomputed per level
        } else {
            segment = create(converterClass, converterName, options.toArray(new String[0]));
            if (!(info == FormattingInfo.getDefault())) {
                segment = new FormattedSegment(segment, info);
            }
        }
        out.add(segment);
        // What follows the matched key in the word ("%dates" -> "s") is literal text, as in log4j2.
        int rest = converterId.length() - converterName.length();
        if (rest > 0) {
            StringBuilder literal = new StringBuilder(currentLiteral.substring(currentLiteral.length() - rest));
            addLiteral(literal, out);
        }
        currentLiteral.setLength(0);
        return i;
    }

    /** Transcribed from log4j2's {@code PatternParser.extractOptions}. */
    private static int extractOptions(String pattern, int start, List<String> options) {
        int i = start;
        while (i < pattern.length() && pattern.charAt(i) == '{') {
            i++;
            int begin = i;
            int depth = 1;
            while (depth > 0 && i < pattern.length()) {
                char c = pattern.charAt(i);
                if (c == '{') {
                    depth++;
                } else if (c == '}') {
                    depth--;
                }
                i++;
            }
            if (depth > 0) {
                i = pattern.lastIndexOf('}');
                if (i == -1 || i < start) {
                    return begin;
                }
                return i + 1;
            }
            options.add(pattern.substring(begin, i - 1));
        }
        return i;
    }

    private Segment create(Class<?> clazz, String key, String[] options) {
        if (clazz == DatePatternConverter.class) {
            return DateSegment.create(options);
        }
        if (clazz == LevelPatternConverter.class) {
            return new ConverterSegment(LevelPatternConverter.newInstance(options));
        }
        if (clazz == ThreadNamePatternConverter.class) {
            return ThreadNameSegment.INSTANCE;
        }
        if (clazz == LoggerPatternConverter.class) {
            return loggerSegment(options);
        }
        if (clazz == MessagePatternConverter.class) {
            for (String option : options) {
                String o = option.toLowerCase(Locale.ROOT);
                if (!o.equals("lookups") && !o.equals("nolookups")) {
                    throw unsupported(key, "option {" + option + "}");
                }
            }
            return MessageSegment.INSTANCE;
        }
        if (clazz == LineSeparatorPatternConverter.class) {
            return new LiteralSegment(Strings.LINE_SEPARATOR, true);
        }
        if (clazz == MdcPatternConverter.class) {
            return new MdcSegment(options);
        }
        if (clazz == ThrowablePatternConverter.class) {
            // log4j2's own renderer: exact stack traces (causes, suppressed, options); it allocates
            // only when the event has a throwable.
            return new ConverterSegment(ThrowablePatternConverter.newInstance(config, options));
        }
        throw unsupported(key, null);
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
        Matcher dynamic = DYNAMIC_WORDS.matcher(trimmed);
        if (dynamic.matches()) {
            return new DynamicWordLoggerSegment(Integer.parseInt(dynamic.group(1)));
        }
        if (digits == number.length()) {
            return new LoggerSegment(Integer.parseInt(number), negative);
        }
        // Pattern abbreviations ({1.}, {1.1.~}, {*.}): log4j2's NameAbbreviator itself, garbage-free.
        return new ConverterSegment(LoggerPatternConverter.newInstance(options));
    }

    private static IllegalArgumentException unsupported(String key, String detail) {
        return new IllegalArgumentException("SpoolLayout does not support %" + key + (detail == null ? "" : " " + detail)
                + "; supported: %d/%date, %p/%level, %t/%thread, %c/%logger, %m/%msg/%message, %n, %X/%mdc,"
                + " %ex/%throwable/%exception, %%, literals and width/truncation modifiers. Use PatternLayout for"
                + " this pattern");
    }
}
