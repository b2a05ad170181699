package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import io.github.spool.text.ByteLineBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.config.plugins.util.PluginManager;
import org.apache.logging.log4j.core.config.plugins.util.PluginType;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.layout.MarkerPatternSelector;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.core.layout.PatternMatch;
import org.apache.logging.log4j.core.layout.PatternSelector;
import org.apache.logging.log4j.core.pattern.ConverterKeys;
import org.apache.logging.log4j.core.pattern.PatternConverter;
import org.apache.logging.log4j.core.pattern.RegexReplacement;
import org.apache.logging.log4j.core.pattern.SequenceNumberPatternConverter;
import org.apache.logging.log4j.core.time.MutableInstant;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.message.ObjectMessage;
import org.apache.logging.log4j.message.ParameterizedMessageFactory;
import org.apache.logging.log4j.message.ReusableParameterizedMessage;
import org.apache.logging.log4j.message.SimpleMessage;
import org.apache.logging.log4j.message.StringMapMessage;
import org.apache.logging.log4j.spi.MutableThreadContextStack;
import org.apache.logging.log4j.status.StatusLogger;
import org.apache.logging.log4j.util.SortedArrayStringMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Differential test over the <em>complete</em> converter-key list of PatternLayout 2.26.1: the keys
 * are read from log4j2's plugin registry (category {@code Converter}, every {@code @ConverterKeys}
 * value, custom plugins on the class path included) at test time, and every key must have an entry
 * in {@link #VARIANTS}, so a key log4j2 adds (or a plugin brings) fails the test until it is
 * exercised. Each key is rendered with each of its option variants, nested sub-patterns and random
 * modifiers; then random patterns mix all keys. Random events (seeded) carry markers, location,
 * MDC, NDC, map messages, exceptions with causes, suppressed and {@code null} messages, 1 MiB
 * messages, lone surrogates and instants before 1970; layouts get random {@code
 * alwaysWriteExceptions}, {@code disableAnsi}, {@code noConsoleNoAnsi}, header and footer, a
 * {@code <Replace>}, a {@code MarkerPatternSelector} and non-UTF-8 charsets.
 *
 * <p>The oracle is PatternLayout itself: SpoolLayout's {@code encode} and {@code toByteArray}
 * must equal PatternLayout's {@code toByteArray} byte for byte, {@code toSerializable},
 * header, footer and {@code requiresLocation()} must be equal. Two converters print something
 * different on every call: {@code %sn} (a global counter, reset before each rendering here) and
 * {@code %u} (a fresh UUID, masked in both outputs). {@code -Dspool.seed=N} replays a run.
 */
class PatternLayoutParityTest {

    /** Placeholder for a random nested pattern in an option variant. */
    private static final String SUB = "%S";
    /** Every converter key with the option variants it is exercised with ({@code ""}: none). */
    private static final Map<String, String[]> VARIANTS = new LinkedHashMap<>();
    /** Keys whose output changes on every call. */
    private static final List<String> VOLATILE = List.of("sn", "sequenceNumber", "u", "uuid");
    private static final Pattern UUID = Pattern.compile("[0-9a-f#]{8}-[0-9a-f#]{4}-[0-9a-f#]{4}-[0-9a-f#]{4}-[0-9a-f#]{12}");
    private static final Charset[] CHARSETS = {StandardCharsets.ISO_8859_1, StandardCharsets.US_ASCII,
        StandardCharsets.UTF_16, Charset.forName("windows-1252"), Charset.forName("Shift_JIS"),
        Charset.forName("GB18030")};

    static {
        String[] dates = {"", "{ABSOLUTE}", "{ISO8601}", "{DEFAULT_MICROS}", "{UNIX}", "{UNIX_MILLIS}",
            "{yyyy-MM-dd HH:mm:ss.SSS}", "{HH:mm:ss}{America/New_York}", "{EEE, d MMM yyyy hh:mm:ss a}{UTC}",
            "{ISO8601_OFFSET_DATE_TIME_HHCMM}{Asia/Kolkata}", "{HH:mm:ss.nnnnnn}", "{G yyyy}", "{dd MMM yyyy}{UTC}{fr}",
            "{'quoted' yyyy}", "{x"};
        String[] levels = {"", "{length=1}", "{WARN=W, INFO=I}", "{lowerCase=true}", "{length=2, lowerCase=true}",
            "{bogus=1}"};
        String[] loggers = {"", "{1}", "{36}", "{-1}", "{1.}", "{1.1.~}", "{*.}", "{1.2*}", "{0}", "{abc}",
            "{99999999999}"};
        String[] classes = {"", "{1}", "{1.}", "{-1}"};
        String[] messages = {"", "{nolookups}", "{lookups}", "{ansi}", "{json}", "{xml}", "{bogus}"};
        String[] mdc = {"", "{k1}", "{k1,k2}", "{none}", "{}", "{ k2 , k1 }"};
        String[] throwables = {"", "{short}", "{full}", "{none}", "{3}", "{0}", "{short.message}",
            "{short.className}", "{short.fileName}", "{short.lineNumber}", "{short.methodName}",
            "{short.localizedMessage}", "{filters(org.junit,java.lang.reflect)}", "{separator(|)}",
            "{suffix(- %level)}", "{full}{separator( ## )}", "{bogus}"};
        String[] plain = {""};
        String[] maps = {"", "{mk1}", "{none}"};
        String[] highlight = {"{%S}", "{%S}{FATAL=white, ERROR=red, WARN=blue, INFO=black, DEBUG=green, TRACE=blue}",
            "{%S}{STYLE=Logback}", "{%S}{STYLE=default}", "{%S}{ERROR=bright red bold}", "{%S}{FATAL=nonsense}"};
        String[] style = {"{%S}{red}", "{%S}{bright,green,bold}", "{%S}{BG_RED, underline}", "{%S}{#00FF00}",
            "{%S}{nonsense}", "{%S}"};
        String[] color = {"{%S}"};
        String[] replace = {"{%S}{[0-9]}{#}", "{%S}{\\s+}{_}", "{%S}{(a|b)}{<$1>}", "{%S}{[}{x}", "{%S}"};
        String[] equals = {"{%S}{}{-}", "{%S}{a}{[A]}", "{%S}{INFO}{***}", "{%S}{x}"};
        String[] notEmpty = {"{[%S]}", "{%S}", "{ - %S}{x}"};
        String[] maxLen = {"{%S}{10}", "{%S}{0}", "{%S}{25}", "{%S}{x}", "{%S}"};
        String[] enc = {"{%S}", "{%S}{CRLF}", "{%S}{JSON}", "{%S}{XML}", "{%S}{HTML}", "{%S}{bogus}"};
        put(dates, "d", "date");
        put(levels, "p", "level");
        put(plain, "t", "tn", "thread", "threadName", "n", "l", "location", "F", "file", "M", "method", "L", "line",
                "x", "NDC", "marker", "markerSimpleName", "N", "nano", "T", "tid", "threadId", "tp", "threadPriority",
                "r", "relative", "sn", "sequenceNumber", "fqcn", "endOfBatch", ":|");
        put(loggers, "c", "logger");
        put(classes, "C", "class");
        put(messages, "m", "msg", "message");
        put(mdc, "X", "mdc", "MDC");
        put(throwables, "ex", "throwable", "exception", "xEx", "xThrowable", "xException", "rEx", "rThrowable",
                "rException");
        put(maps, "K", "map", "MAP");
        put(new String[] {"", "{fallback}"}, "pid", "processId");
        put(new String[] {"", "{RANDOM}", "{TIME}"}, "u", "uuid");
        put(new String[] {"{*}{3}", "{ab}{0}", "{x}{bad}", "{x}", ""}, "repeat");
        put(highlight, "highlight");
        put(style, "style");
        put(color, "black", "blue", "cyan", "green", "magenta", "red", "white", "yellow");
        put(replace, "replace");
        put(equals, "equals", "equalsIgnoreCase");
        put(notEmpty, "notEmpty", "varsNotEmpty", "variablesNotEmpty");
        put(maxLen, "maxLen", "maxLength");
        put(enc, "enc", "encode");
        put(new String[] {"{pre:}", "{L}{location}", ""}, "spoolTest", "spoolTestConverter");
        put(new String[] {"", "{short}"}, "spoolNoEx");
    }

    private static final String[] MODIFIERS = {"", "", "", "", "-5", "5", "-20", "20", ".3", ".-3", "-10.12",
        "10.-4", "0", "3.3"};
    private static final String[] LITERALS = {" ", " - ", "[", "] ", ":", "%%", "ü→", "\\t", "|", "\uD83D\uDE00",
        "ab\\\\c", "}", "{", "é", "${ctx:k1}", "${event:Level}", "${map:mk1}", "${sys:spool.parity}", "$${ctx:k1}",
        "${java:bogus}", "\uD800", "\uDC00"};
    private static final Level NOTICE = Level.forName("NOTICE", 350);
    private static final Level[] LEVELS = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR, Level.FATAL,
        NOTICE};
    private static final String[] WORDS = {"a", "b", "io", "github", "spool", "Log", "Ω", "x\uD800", "\uDC00y", ""};
    private static final Marker PARENT = marker("PARENT");
    private static final Marker[] MARKERS = {marker("M1"), marker("CHILD").setParents(PARENT, marker("OTHER")), PARENT,
        marker("ÜBER\uD800")};

    private static AtomicLong sequence;
    private static Level fallbackLevel;

    private final Configuration config = new DefaultConfiguration();
    private final List<String> mismatches = new ArrayList<>();
    private int comparisons;
    private int captured;
    private int textRecords;

    /**
     * {@code MarkerManager.getMarker(name)}, called reflectively: MarkerManager's class file carries
     * Error Prone's {@code @InlineMe}, which javac cannot resolve here and reports as a warning
     * (fatal under -Werror) when the class is referenced directly.
     */
    private static Marker marker(String name) {
        try {
            return (Marker) Class.forName("org.apache.logging.log4j.MarkerManager").getMethod("getMarker", String.class)
                    .invoke(null, name);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void put(String[] variants, String... keys) {
        for (String key : keys) {
            VARIANTS.put(key, variants);
        }
    }

    /** Silences the many status errors the invalid variants cause; reads %sn's global counter. */
    @BeforeAll
    static void setUp() throws ReflectiveOperationException {
        fallbackLevel = StatusLogger.getLogger().getFallbackListener().getStatusLevel();
        StatusLogger.getLogger().getFallbackListener().setLevel(Level.OFF);
        System.setProperty("spool.parity", "sys-value");
        Field f = SequenceNumberPatternConverter.class.getDeclaredField("SEQUENCE");
        f.setAccessible(true);
        sequence = (AtomicLong) f.get(null);
    }

    @AfterAll
    static void tearDown() {
        StatusLogger.getLogger().getFallbackListener().setLevel(fallbackLevel);
        System.clearProperty("spool.parity");
        ThreadContext.clearAll();
    }

    /**
     * Every key in log4j2's registry, read the way PatternParser reads it, but Spring Boot's
     * (spring-boot is on this module's test class path for SpringBootDropInTest, which checks its
     * converters end to end against stock Spring Boot).
     */
    static TreeSet<String> registeredKeys() {
        PluginManager manager = new PluginManager(PatternConverter.CATEGORY);
        manager.collectPlugins(null);
        TreeSet<String> keys = new TreeSet<>();
        for (PluginType<?> type : manager.getPlugins().values()) {
            if (type.getPluginClass().getName().startsWith("org.springframework.")) {
                continue;
            }
            ConverterKeys k = type.getPluginClass().getAnnotation(ConverterKeys.class);
            if (k != null) {
                keys.addAll(Arrays.asList(k.value()));
            }
        }
        return keys;
    }

    @Test
    void everyRegisteredConverterKeyHasVariantsHere() {
        TreeSet<String> keys = registeredKeys();
        TreeSet<String> missing = new TreeSet<>(keys);
        missing.removeAll(VARIANTS.keySet());
        assertTrue(missing.isEmpty(), "converter keys not exercised by this test: " + missing);
        TreeSet<String> stale = new TreeSet<>(VARIANTS.keySet());
        stale.removeAll(keys);
        assertTrue(stale.isEmpty(), "keys in this test that log4j2 does not register: " + stale);
        assertTrue(keys.contains("highlight") && keys.contains("spoolTest") && keys.size() > 80,
                "the registry was read: " + keys);
    }

    @Test
    void everyKeyAndVariantPrintsWhatPatternLayoutPrints() {
        long seed = Long.getLong("spool.seed", 0x5EED_12L);
        SplittableRandom r = new SplittableRandom(seed);
        int patterns = 0;
        for (String key : registeredKeys()) {
            for (String variant : VARIANTS.get(key)) {
                for (int round = 0; round < 2; round++) {
                    String pattern = "<" + conversion(r, key, variant, round == 1, 0) + ">";
                    if (round == 1 && r.nextBoolean()) {
                        pattern = randomPattern(r, 0) + pattern + randomPattern(r, 0);
                    }
                    compare(seed, pattern, r, 6);
                    patterns++;
                }
            }
        }
        report("keys x variants", seed, patterns);
    }

    @Test
    void randomPatternsOverAllKeysPrintWhatPatternLayoutPrints() {
        long seed = Long.getLong("spool.seed", 0x5EED_13L);
        SplittableRandom r = new SplittableRandom(seed);
        int patterns = 400;
        for (int p = 0; p < patterns; p++) {
            compare(seed, randomPattern(r, 0) + (r.nextBoolean() ? "%n" : ""), r, 12);
        }
        report("random patterns", seed, patterns);
    }

    /**
     * Render on writer: patterns made only of what the writer can render from a captured record,
     * over the same random events (lone surrogates at field ends, 1 MiB texts, null names,
     * throwables): capture on this thread, render through {@link WriterRenderer} — the bytes
     * PatternLayout prints. Events the capture declines go through a text record and must too.
     */
    @Test
    void capturedAndRenderedOnTheWriterPrintWhatPatternLayoutPrints() {
        long seed = Long.getLong("spool.seed", 0x5EED_14L);
        SplittableRandom r = new SplittableRandom(seed);
        List<String> keys = List.of("d", "date", "p", "level", "c", "logger", "t", "thread", "tn", "m", "msg", "message", "n",
                "X", "mdc", "MDC");
        int patterns = 600;
        for (int p = 0; p < patterns; p++) {
            StringBuilder pattern = new StringBuilder();
            for (int i = 1 + r.nextInt(7); i > 0; i--) {
                if (r.nextInt(3) == 0) {
                    pattern.append(LITERALS[r.nextInt(LITERALS.length)]);
                } else {
                    String key = keys.get(r.nextInt(keys.size()));
                    String[] variants = VARIANTS.get(key);
                    String variant = variants[r.nextInt(variants.length)];
                    pattern.append(variant.contains(SUB) ? "%m" : conversion(r, key, variant, r.nextInt(3) == 0, 0));
                }
            }
            compare(seed, pattern + (r.nextBoolean() ? "%n" : ""), r, 12);
        }
        report("render on writer", seed, patterns);
        System.out.println("PatternLayoutParityTest render on writer: captured=" + captured + " text records=" + textRecords);
        assertTrue(captured > 1000, "events captured: " + captured);
        assertTrue(textRecords > 100, "events declined: " + textRecords);
    }

    /**
     * A user's converter that extends {@code ThrowablePatternConverter} but prints text without a
     * throwable ({@link SpoolTestNoExceptionConverter}) is log4j2's to render, on every event: it is
     * not taken for log4j2's own throwable converters, which print nothing then (issue 32).
     */
    @Test
    void aSubclassOfThrowablePatternConverterPrintsWhatItPrintsWithoutAThrowable() {
        String pattern = "%m%spoolNoEx%n";
        PatternLayout reference = PatternLayout.newBuilder().setPattern(pattern).setConfiguration(config).build();
        SpoolLayout spool = SpoolLayout.newBuilder().setPattern(pattern).setConfiguration(config).build();
        LogEvent event = Log4jLogEvent.newBuilder().setLoggerName("a.b").setLevel(Level.INFO)
                .setMessage(new SimpleMessage("plain")).build();
        assertEquals("plain [no exception]" + System.lineSeparator(), reference.toSerializable(event));
        assertArrayEquals(reference.toByteArray(event), SpoolLayoutDifferentialTest.encode(spool, event));
        assertFalse(spool.rendersFromCapture(), "a converter Spool cannot prove equal is not rendered on the writer");
    }

    /** Captures {@code event} as the appender does in render-on-writer mode and renders it as its writer does. */
    private byte[] viaWriter(SpoolLayout layout, LogEvent event) {
        SpoolLayout.Scratch scratch = new SpoolLayout.Scratch();
        ByteLineBuilder record = new ByteLineBuilder(256);
        if (EventCapture.capture(event, record, new StringBuilder(), new EventCapture.Ids(), layout.formatsMessageChars(),
                layout.capturedContextKeys())) {
            captured++;
        } else {
            record = layout.encodeTextRecord(event, scratch);
            textRecords++;
        }
        ByteBuffer range = ByteBuffer.allocateDirect(record.length());
        range.put(record.array(), 0, record.length()).flip();
        ByteLineBuilder out = new ByteLineBuilder(256);
        io.github.spool.io.RecordRenderer.Result result = new io.github.spool.io.RecordRenderer.Result();
        new WriterRenderer(layout).render(range, out, result);
        assertEquals(0, result.left, "records left out");
        if (result.passThrough > 0) { // a long text record: the writer writes it from the ring
            assertEquals(0, out.length());
            assertEquals(result.passThrough, range.remaining());
            out.append(range, range.remaining());
        } else {
            assertEquals(1, result.rendered);
        }
        assertEquals(0, range.remaining(), "the record was read whole");
        return Arrays.copyOf(out.array(), out.length());
    }

    private void report(String what, long seed, int patterns) {
        System.out.println("PatternLayoutParityTest " + what + ": seed=" + seed + " patterns=" + patterns
                + " comparisons=" + comparisons + " mismatches=" + mismatches.size());
        assertTrue(comparisons > patterns, "compared");
        assertEquals(0, mismatches.size(), () -> mismatches.size() + " mismatches, first: "
                + printable(String.join("\n\n", mismatches.subList(0, Math.min(3, mismatches.size())))));
    }

    private String conversion(SplittableRandom r, String key, String variant, boolean modifiers, int depth) {
        boolean isVolatile = VOLATILE.contains(key);
        String options = variant;
        while (options.contains(SUB)) {
            options = options.replaceFirst(Pattern.quote(SUB), java.util.regex.Matcher.quoteReplacement(
                    randomPattern(r, depth + 1)));
        }
        String modifier = modifiers && !isVolatile ? MODIFIERS[r.nextInt(MODIFIERS.length)] : "";
        String c = "%" + modifier + key + options;
        // %u differs on every call: fence it so both outputs can be masked (see compare)
        return isVolatile && key.startsWith("u") ? "\uE000" + c + "\uE001" : c;
    }

    private String randomPattern(SplittableRandom r, int depth) {
        List<String> keys = new ArrayList<>(VARIANTS.keySet());
        StringBuilder sb = new StringBuilder();
        int parts = 1 + r.nextInt(depth == 0 ? 6 : 3);
        for (int i = 0; i < parts; i++) {
            if (r.nextInt(3) == 0) {
                sb.append(LITERALS[r.nextInt(LITERALS.length)]);
                continue;
            }
            String key = keys.get(r.nextInt(keys.size()));
            String[] variants = VARIANTS.get(key);
            String variant = variants[r.nextInt(variants.length)];
            if (depth >= 2 && variant.contains(SUB) || depth > 0 && VOLATILE.contains(key)) {
                key = "m";
                variant = "";
            }
            sb.append(conversion(r, key, variant, true, depth));
        }
        return sb.toString();
    }

    private void compare(long seed, String pattern, SplittableRandom r, int events) {
        boolean always = r.nextInt(4) != 0;
        boolean disableAnsi = r.nextInt(4) == 0;
        boolean noConsoleNoAnsi = r.nextInt(4) == 0;
        Charset charset = r.nextInt(6) == 0 ? CHARSETS[r.nextInt(CHARSETS.length)] : StandardCharsets.UTF_8;
        // Header and footer render an event made at the call (current time): no time conversions here.
        String header = r.nextInt(8) == 0 ? pickOne(r, "head %level %pid %c", "%-10.12t ${java:bogus}") : null;
        String footer = r.nextInt(8) == 0 ? pickOne(r, "%highlight{foot %level}", "%enc{<%t>}{XML}%n", "%bogus") : null;
        RegexReplacement replace = r.nextInt(15) == 0
                ? RegexReplacement.createRegexReplacement(Pattern.compile("[0-9]"), "#") : null;
        PatternSelector selector = r.nextInt(15) == 0 ? MarkerPatternSelector.newBuilder()
                .setProperties(new PatternMatch[] {new PatternMatch("M1", "M1 " + pattern)}).setDefaultPattern(pattern)
                .setAlwaysWriteExceptions(always).setDisableAnsi(disableAnsi).setNoConsoleNoAnsi(noConsoleNoAnsi)
                .setConfiguration(config).build() : null;
        PatternLayout reference = PatternLayout.newBuilder().setPattern(pattern).setConfiguration(config)
                .setCharset(charset).setAlwaysWriteExceptions(always).setDisableAnsi(disableAnsi)
                .setNoConsoleNoAnsi(noConsoleNoAnsi).setHeader(header).setFooter(footer).setRegexReplacement(replace)
                .setPatternSelector(selector).build();
        SpoolLayout spool = SpoolLayout.newBuilder().setPattern(pattern).setConfiguration(config).setCharset(charset)
                .setAlwaysWriteExceptions(always).setDisableAnsi(disableAnsi).setNoConsoleNoAnsi(noConsoleNoAnsi)
                .setHeader(header).setFooter(footer).setRegexReplacement(replace).setPatternSelector(selector).build();
        String context = "seed=" + seed + " pattern=" + pattern + " charset=" + charset + " always=" + always
                + " disableAnsi=" + disableAnsi + " noConsoleNoAnsi=" + noConsoleNoAnsi + " replace=" + (replace != null)
                + " selector=" + (selector != null) + "\nsegments: " + spool.describe();
        check(reference.requiresLocation() == spool.requiresLocation(), context, "requiresLocation "
                + reference.requiresLocation());
        if (selector == null) {
            // With a selector, PatternLayout 2.26.1 renders the selected *event* pattern as header and
            // footer (its serializer builder ignores the header pattern then), here full of %sn, %u and
            // clock conversions that differ per call; SpoolLayout hands out PatternLayout's own
            // serializers in that case (see SpoolLayout.Builder.build).
            check(Arrays.equals(reference.getHeader(), spool.getHeader()), context, "header");
            check(Arrays.equals(reference.getFooter(), spool.getFooter()), context, "footer");
        }
        check(reference.getCharset().equals(spool.getCharset()), context, "charset");
        for (int e = 0; e < events; e++) {
            LogEvent event = randomEvent(r);
            sequence.set(1000);
            byte[] expected = reference.toByteArray(event);
            sequence.set(1000);
            String expectedText = reference.toSerializable(event);
            sequence.set(1000);
            byte[] encoded = SpoolLayoutDifferentialTest.encode(spool, event);
            sequence.set(1000);
            byte[] array = spool.toByteArray(event);
            sequence.set(1000);
            String text = spool.toSerializable(event);
            boolean masked = pattern.contains("\uE000");
            String exp = masked ? mask(new String(expected, charset)) : null;
            check(masked ? exp.equals(mask(new String(encoded, charset))) : Arrays.equals(expected, encoded),
                    context, diff("encode", expected, encoded, charset, event));
            check(masked ? exp.equals(mask(new String(array, charset))) : Arrays.equals(expected, array),
                    context, diff("toByteArray", expected, array, charset, event));
            check(masked ? mask(expectedText).equals(mask(text)) : expectedText.equals(text), context,
                    "toSerializable\nexpected: " + expectedText + "\nactual:   " + text);
            if (spool.rendersFromCapture()) {
                byte[] rendered = viaWriter(spool, event);
                check(Arrays.equals(expected, rendered), context, diff("render on writer", expected, rendered, charset, event));
            }
        }
    }

    /** Escapes control chars and surrogates, which would cut the report short. */
    private static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\n' || c >= 0xD800 && c < 0xE000 || c == 0x7F) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String mask(String s) {
        return UUID.matcher(s).replaceAll("UUID");
    }

    private void check(boolean ok, String context, String what) {
        comparisons++;
        if (!ok) {
            mismatches.add(context + "\n" + what);
        }
    }

    private static String diff(String what, byte[] expected, byte[] actual, Charset charset, LogEvent event) {
        if (Arrays.equals(expected, actual)) {
            return what;
        }
        String e = new String(expected, charset);
        String a = new String(actual, charset);
        int i = 0;
        while (i < Math.min(e.length(), a.length()) && e.charAt(i) == a.charAt(i)) {
            i++;
        }
        return what + " differs at char " + i + " (lengths " + expected.length + "/" + actual.length + ")"
                + "\nexpected: " + clip(e, i) + "\nactual:   " + clip(a, i) + "\nmessage: "
                + (event.getMessage() == null ? null : event.getMessage().getClass().getSimpleName());
    }

    private static String clip(String s, int at) {
        return s.substring(Math.max(0, at - 60), Math.min(s.length(), at + 100));
    }

    private static String randomName(SplittableRandom r, int maxWords) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(maxWords + 1);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append('.');
            }
            sb.append(WORDS[r.nextInt(WORDS.length)]);
        }
        if (r.nextInt(10) == 0) {
            sb.append('.');
        }
        return sb.toString();
    }

    static String randomText(SplittableRandom r, int maxChars) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(maxChars);
        for (int i = 0; i < n; i++) {
            switch (r.nextInt(9)) {
                case 0:
                    sb.append((char) (0xD800 + r.nextInt(0x800))); // lone surrogate, high or low
                    break;
                case 1:
                    sb.appendCodePoint(0x1F600 + r.nextInt(50));
                    break;
                case 2:
                    sb.append((char) (0x80 + r.nextInt(0x7000)));
                    break;
                case 3:
                    sb.append(pickOne(r, "{}", "\n", "\r\n", "\t", "%", "\\", "<&\"'>", "${ctx:k1}", "\u001b[31m", "1"));
                    break;
                default:
                    sb.append((char) (0x20 + r.nextInt(0x5F)));
            }
        }
        return sb.toString();
    }

    /** One MiB of text: a random block repeated, with lone surrogates spread through it. */
    private static String hugeText(SplittableRandom r) {
        String block = randomText(r, 4096) + "x";
        StringBuilder sb = new StringBuilder(1 << 20);
        while (sb.length() < (1 << 20)) {
            sb.append(block);
            sb.append(r.nextBoolean() ? '\uD83D' : '\uDE00');
        }
        sb.setLength(1 << 20);
        return sb.toString();
    }

    private static String pickOne(SplittableRandom r, String... choices) {
        return choices[r.nextInt(choices.length)];
    }

    private static LogEvent randomEvent(SplittableRandom r) {
        MutableInstant instant = new MutableInstant();
        long second = r.nextInt(10) == 0 ? r.nextLong(-2_000_000_000L, 0L) : r.nextLong(0L, 4_102_444_800L);
        instant.initFromEpochSecond(second, r.nextInt(1_000_000_000));
        SortedArrayStringMap mdc = new SortedArrayStringMap();
        int keys = r.nextInt(4);
        for (int i = 0; i < keys; i++) {
            mdc.putValue(pickOne(r, "k1", "k2", "k3"), randomContextValue(r));
        }
        MutableThreadContextStack ndc = new MutableThreadContextStack();
        for (int i = r.nextInt(3); i > 0; i--) {
            ndc.push(randomText(r, 8));
        }
        Log4jLogEvent.Builder b = Log4jLogEvent.newBuilder()
                .setLoggerName(r.nextInt(20) == 0 ? "" : randomName(r, 6))
                .setLoggerFqcn(r.nextInt(10) == 0 ? null : "org.apache.logging.log4j.spi.AbstractLogger")
                .setLevel(LEVELS[r.nextInt(LEVELS.length)])
                .setThreadName(r.nextInt(30) == 0 ? null : randomText(r, 20))
                .setThreadId(r.nextLong(1, 100_000))
                .setThreadPriority(1 + r.nextInt(10))
                .setMessage(randomMessage(r))
                .setContextData(mdc)
                .setContextStack(ndc)
                .setNanoTime(r.nextLong())
                .setEndOfBatch(r.nextBoolean())
                .setInstant(instant);
        if (r.nextInt(3) == 0) {
            b.setMarker(MARKERS[r.nextInt(MARKERS.length)]);
        }
        if (r.nextInt(3) == 0) {
            b.setSource(new StackTraceElement(randomName(r, 4) + "Cls", pickOne(r, "run", "<init>", "λ"),
                    r.nextInt(4) == 0 ? null : "File" + r.nextInt(9) + ".java", r.nextInt(200) - 2));
        }
        if (r.nextInt(6) == 0) {
            b.setThrown(randomThrowable(r));
        }
        return b.build();
    }

    /**
     * Mostly text; values of every type a capture copies (null, boxed, StringBuilder) and one it
     * declines (a UUID: the caller renders that event).
     */
    private static Object randomContextValue(SplittableRandom r) {
        switch (r.nextInt(12)) {
            case 0: return r.nextInt(100);
            case 1: return null;
            case 2: return r.nextLong();
            case 3: return r.nextBoolean();
            case 4: return new StringBuilder(randomText(r, 10));
            case 5: return new java.util.UUID(r.nextLong(), r.nextLong());
            default: return randomText(r, 20);
        }
    }

    private static Message randomMessage(SplittableRandom r) {
        switch (r.nextInt(9)) {
            case 0:
                return new SimpleMessage(randomText(r, 40));
            case 1:
                return new ObjectMessage(r.nextBoolean() ? null : randomText(r, 40));
            case 2:
                ReusableParameterizedMessage m = new ReusableParameterizedMessage();
                return m.set(randomText(r, 40) + " {} {}", randomText(r, 10), r.nextInt());
            case 3:
                return null;
            case 4:
                StringMapMessage map = new StringMapMessage();
                map.put("mk1", randomText(r, 10));
                if (r.nextBoolean()) {
                    map.put("mk2", "v2");
                }
                return map;
            case 5:
                return r.nextInt(25) == 0 ? new SimpleMessage(hugeText(r)) : new SimpleMessage("");
            case 6:
                return ParameterizedMessageFactory.INSTANCE.newMessage(randomText(r, 20) + " {}, {} {}.",
                        randomPrimitive(r), randomPrimitive(r), randomPrimitive(r));
            default:
                return ParameterizedMessageFactory.INSTANCE.newMessage(randomText(r, 40) + " {} and {}",
                        randomText(r, 10), r.nextLong());
        }
    }

    /** A boxed primitive of every type the capture takes, edge values included, or {@code null}. */
    private static Object randomPrimitive(SplittableRandom r) {
        switch (r.nextInt(9)) {
            case 0: return r.nextBoolean() ? r.nextInt() : Integer.MIN_VALUE;
            case 1: return r.nextBoolean() ? r.nextLong() : Long.MIN_VALUE;
            case 2: return new double[] {r.nextDouble() * 1e6, -0.0, Double.NaN, 1e-300, Double.NEGATIVE_INFINITY}[r.nextInt(5)];
            case 3: return new float[] {(float) r.nextDouble(), -0.0f, Float.NaN, 1e-7f, Float.MAX_VALUE}[r.nextInt(5)];
            case 4: return r.nextBoolean();
            case 5: return r.nextBoolean() ? (char) ('a' + r.nextInt(26)) : '\u00e9';
            case 6: return (short) r.nextInt();
            case 7: return (byte) r.nextInt();
            default: return null;
        }
    }

    private static Throwable randomThrowable(SplittableRandom r) {
        Throwable root = r.nextBoolean() ? new IllegalStateException("root " + randomText(r, 20))
                : new NullPointerException(); // a null message
        Throwable t = root;
        for (int i = r.nextInt(3); i > 0; i--) {
            t = r.nextBoolean() ? new RuntimeException("wrapper " + i + " " + randomText(r, 10), t)
                    : new RuntimeException(t); // message is the cause's toString()
        }
        if (r.nextBoolean()) {
            Exception suppressed = new java.io.IOException(r.nextBoolean() ? null : "suppressed " + randomText(r, 10));
            if (r.nextInt(4) == 0) {
                suppressed.initCause(root); // a reference back into the chain
            }
            t.addSuppressed(suppressed);
        }
        return t;
    }
}
