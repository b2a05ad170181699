package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.boolex.OnErrorEvaluator;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.boolex.EventEvaluator;
import ch.qos.logback.core.pattern.CompositeConverter;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.spi.BasicSequenceNumberGenerator;
import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.MarkerFactory;
import org.springframework.boot.ansi.AnsiOutput;

/**
 * Differential test over every conversion word logback's {@code PatternLayout} knows: the keys of
 * {@link PatternLayout#DEFAULT_CONVERTER_SUPPLIER_MAP} read at test time (so a key added by a
 * logback upgrade fails {@link #everyConverterKeyHasOptionVariants()} until it is covered), plus
 * Spring Boot's {@code conversionRule}s and two of the test's own (one a subclass of a fast-path
 * converter, one overriding a default word). Each word runs alone and inside random patterns, with
 * its options and random width modifiers, on random seeded events (markers, caller data, MDC,
 * key-value pairs, exceptions with causes and suppressed, throwables with null messages, 1 MiB
 * messages, lone surrogates); {@code PatternLayoutEncoder} is the oracle. Seed:
 * {@code -Dspool.test.seed=...}.
 */
class AllConvertersDifferentialTest {

    private static final int EVENTS_PER_PATTERN = 40;
    private static final int RANDOM_PATTERNS = 300;

    /** Option suffixes per conversion word (for composites, the parenthesised body and options). */
    private static final Map<String, String[]> VARIANTS = new HashMap<>();
    private static final String[] COMPOSITE_BODIES = {"", "(%level)", "(%-5level [%thread] %msg)", "(%X{k1}:%logger{10})", "(%d{HH:mm:ss} %ex{short})"};
    private static final String[] MODIFIERS = {"", "", "", "5", "-5", ".3", ".-3", "-20.30", "30", "-12"};

    static {
        String[] none = {"", "{ignored}"};
        for (String k : List.of("r", "relative", "level", "le", "p", "t", "thread", "m", "msg", "message", "M", "method", "L", "line",
                "F", "file", "marker", "n", "lsn", "sn", "sequenceNumber", "nopex", "nopexception", "cn", "contextName", "ms", "micros",
                "applicationName", "correlationId", "mymsg")) {
            VARIANTS.put(k, none);
        }
        for (String k : List.of("d", "date")) {
            VARIANTS.put(k, new String[] {"", "{HH:mm:ss.SSS}", "{ISO8601}", "{STRICT}", "{yyyy-MM-dd HH:mm:ss.SSS, UTC}",
                "{HH:mm:ss.SSSSSS, Asia/Kolkata}", "{dd MMM yyyy, Europe/Paris, fr}", "{yyyy G}", "{'unterminated}", "{EEE, en}"});
        }
        for (String k : List.of("ep", "epoch")) {
            VARIANTS.put(k, new String[] {"", "{seconds}", "{millis}"});
        }
        for (String k : List.of("lo", "logger", "c", "C", "class")) {
            VARIANTS.put(k, new String[] {"", "{0}", "{1}", "{10}", "{36}", "{-1}", "{x}"});
        }
        for (String k : List.of("X", "mdc")) {
            VARIANTS.put(k, new String[] {"", "{k1}", "{k2:-dflt}", "{missing:-}", "{ключ}"});
        }
        for (String k : List.of("ex", "exception", "rEx", "rootException", "throwable", "xEx", "xException", "xThrowable", "wex", "wEx")) {
            VARIANTS.put(k, new String[] {"", "{short}", "{full}", "{3}", "{2, ONERR}", "{full, java.lang}"});
        }
        VARIANTS.put("caller", new String[] {"", "{2}", "{1..3}", "{2, ONERR}", "{x}", "{3..1}"});
        VARIANTS.put("kvp", new String[] {"", "{SINGLE}", "{DOUBLE}", "{NONE}"});
        VARIANTS.put("maskedKvp", new String[] {"", "{k1}", "{SINGLE, k1, k2}", "{NONE, k1}"});
        VARIANTS.put("property", new String[] {"", "{p1}", "{user.name}", "{missing}"});
        VARIANTS.put("replace", new String[] {"(%msg){'[\\r\\n]', '_'}", "(%logger){'\\.', '/'}", "(%thread %msg){'a', 'A'}",
            "(%msg){'a'}", "(%msg)", ""});
        VARIANTS.put("prefix", new String[] {"(%d{HH:mm} %level %X{k1} %property{p1} %logger %ms)", "(%thread)", ""});
        VARIANTS.put("clr", new String[] {"(%level)", "(%msg){red}", "(%logger){faint}", "(%d %5p){magenta}", ""});
        VARIANTS.put("esb", new String[] {"(%thread)", "(){APPLICATION_NAME}", "{APPLICATION_GROUP}"});
    }

    private static AnsiOutput.Enabled ansiBefore;

    @BeforeAll
    static void colours() {
        ansiBefore = AnsiOutput.getEnabled();
        AnsiOutput.setEnabled(AnsiOutput.Enabled.ALWAYS); // so %clr prints its escapes in both
    }

    @AfterAll
    static void restoreColours() {
        AnsiOutput.setEnabled(ansiBefore == null ? AnsiOutput.Enabled.DETECT : ansiBefore);
    }

    /** A user's conversionRule whose class extends a fast-path converter: must not take the fast path. */
    public static final class ShoutingMessageConverter extends MessageConverter {
        @Override
        public String convert(ILoggingEvent event) {
            return String.valueOf(super.convert(event)).toUpperCase(java.util.Locale.ROOT) + "!";
        }
    }

    /** A user's conversionRule that replaces the default word {@code le}. */
    public static final class LowerLevelConverter extends ClassicConverter {
        @Override
        public String convert(ILoggingEvent event) {
            return event.getLevel().toString().toLowerCase(java.util.Locale.ROOT);
        }
    }

    @SuppressWarnings({"rawtypes", "removal"}) // Spring Boot 3.5's defaults.xml still registers ApplicationNameConverter
    static LoggerContext context(long seed) {
        LoggerContext lc = new LoggerContext();
        lc.setName("ctx-" + seed);
        lc.putProperty("p1", "prop-vålue");
        lc.putProperty("APPLICATION_NAME", "shop");
        lc.setSequenceNumberGenerator(new BasicSequenceNumberGenerator());
        Map<String, Supplier<DynamicConverter>> rules = new HashMap<>();
        rules.put("clr", org.springframework.boot.logging.logback.ColorConverter::new);
        rules.put("esb", org.springframework.boot.logging.logback.EnclosedInSquareBracketsConverter::new);
        rules.put("applicationName", org.springframework.boot.logging.logback.ApplicationNameConverter::new);
        rules.put("correlationId", org.springframework.boot.logging.logback.CorrelationIdConverter::new);
        rules.put("wex", org.springframework.boot.logging.logback.WhitespaceThrowableProxyConverter::new);
        rules.put("wEx", org.springframework.boot.logging.logback.ExtendedWhitespaceThrowableProxyConverter::new);
        rules.put("mymsg", ShoutingMessageConverter::new);
        rules.put("le", LowerLevelConverter::new);
        lc.putObject(CoreConstants.PATTERN_RULE_REGISTRY_FOR_SUPPLIERS, rules); // what <conversionRule> does
        OnErrorEvaluator onError = new OnErrorEvaluator();
        onError.setContext(lc);
        onError.setName("ONERR");
        onError.start();
        @SuppressWarnings("unchecked")
        Map<String, EventEvaluator<?>> evaluators = (Map<String, EventEvaluator<?>>) lc.getObject(CoreConstants.EVALUATOR_MAP);
        evaluators.put("ONERR", onError);
        return lc;
    }

    /** Every word the layout resolves in this context: logback's defaults plus the registered rules. */
    @SuppressWarnings("unchecked")
    static TreeSet<String> allKeys(LoggerContext lc) {
        TreeSet<String> keys = new TreeSet<>(PatternLayout.DEFAULT_CONVERTER_SUPPLIER_MAP.keySet());
        keys.addAll(((Map<String, ?>) lc.getObject(CoreConstants.PATTERN_RULE_REGISTRY_FOR_SUPPLIERS)).keySet());
        return keys;
    }

    @Test
    void everyConverterKeyHasOptionVariants() {
        TreeSet<String> missing = new TreeSet<>(allKeys(context(0)));
        missing.removeAll(VARIANTS.keySet());
        missing.removeIf(AllConvertersDifferentialTest::isComposite); // composites get COMPOSITE_BODIES
        assertEquals(new TreeSet<>(), missing, "conversion words without test variants");
    }

    private static boolean isComposite(String key) {
        @SuppressWarnings("rawtypes")
        Supplier<DynamicConverter> s = PatternLayout.DEFAULT_CONVERTER_SUPPLIER_MAP.get(key);
        return s != null && s.get() instanceof CompositeConverter;
    }

    private static String[] variants(String key) {
        String[] v = VARIANTS.get(key);
        return v != null ? v : COMPOSITE_BODIES;
    }

    @Test
    void everyConversionPrintsWhatPatternLayoutEncoderPrints() {
        long seed = Long.getLong("spool.test.seed", 0x5EED_A11CL);
        Random rnd = new Random(seed);
        LoggerContext lc = context(seed);
        Tally tally = new Tally(seed);
        for (String key : allKeys(lc)) {
            for (String v : variants(key)) {
                String conv = "%" + MODIFIERS[rnd.nextInt(MODIFIERS.length)] + key + v;
                compare(lc, conv, rnd, tally); // alone: logback appends its implicit %ex
                compare(lc, "[" + conv + "] %msg%n", rnd, tally);
            }
        }
        List<String> keys = new ArrayList<>(allKeys(lc));
        for (int p = 0; p < RANDOM_PATTERNS; p++) {
            StringBuilder sb = new StringBuilder();
            int n = 2 + rnd.nextInt(7);
            for (int i = 0; i < n; i++) {
                String key = keys.get(rnd.nextInt(keys.size()));
                String[] vs = variants(key);
                sb.append(pick(rnd, " ", " - ", "|", "é ", "\\%", "[")).append('%').append(MODIFIERS[rnd.nextInt(MODIFIERS.length)])
                        .append(key).append(vs[rnd.nextInt(vs.length)]);
            }
            if (rnd.nextBoolean()) {
                sb.append("%n");
            }
            compare(lc, sb.toString(), rnd, tally);
        }
        System.out.println("AllConvertersDifferentialTest seed " + seed + ": " + tally.patterns + " patterns, " + tally.events
                + " events compared (encode and encodeTo); top-level converters: " + tally.fast + " fast path, " + tally.delegated + " delegated; "
                + tally.mismatches + " mismatches; render on the writer: " + tally.captured + " captured, " + tally.textRecords
                + " text records");
        assertEquals(0, tally.mismatches, tally.first.toString());
        assertTrue(tally.patterns > 500 && tally.events > 500 * EVENTS_PER_PATTERN, "too little compared: " + tally.patterns);
        assertTrue(tally.captured > 1000 && tally.textRecords > 100, "render on the writer: " + tally.captured
                + " captured, " + tally.textRecords + " text records");
    }

    /** Counts and the first few mismatches, for one message at the end. */
    static final class Tally {
        final long seed;
        int patterns;
        int events;
        int fast;
        int delegated;
        int mismatches;
        int captured;
        int textRecords;
        final StringBuilder first = new StringBuilder();

        Tally(long seed) {
            this.seed = seed;
        }

        void mismatch(String what) {
            if (mismatches++ < 5) {
                first.append("seed ").append(seed).append(": ").append(what).append('\n');
            }
        }
    }

    private static void compare(LoggerContext lc, String pattern, Random rnd, Tally tally) {
        // %lsn counts from the millisecond its converter was made: make the three encoders in one
        // millisecond so that all counters start equal. Retried for up to 10 s of wall-clock time,
        // not a number of attempts: on a loaded machine one attempt can take longer than 1 ms
        // many times in a row (100 attempts once ran out, and the counters differed).
        PatternLayoutEncoder reference;
        String referenceFailure;
        SpoolEncoder[] pair = new SpoolEncoder[2];
        final long giveUp = System.nanoTime() + 10_000_000_000L;
        boolean sameMilli;
        do {
            long t0;
            t0 = System.currentTimeMillis();
            reference = new PatternLayoutEncoder();
            reference.setContext(lc);
            reference.setPattern(pattern);
            referenceFailure = failure(reference::start);
            if (referenceFailure == null) {
                pair[0] = spool(lc, pattern);
                pair[1] = spool(lc, pattern);
            }
            sameMilli = System.currentTimeMillis() == t0;
        } while (pattern.contains("lsn") && !sameMilli && System.nanoTime() < giveUp);
        if (pattern.contains("lsn") && !sameMilli) {
            throw new AssertionError("could not make the three encoders of " + pattern + " within one millisecond in 10 s");
        }
        tally.patterns++;
        if (referenceFailure != null) { // a converter's start() threw: SpoolEncoder.start() must throw the same
            String spoolFailure = failure(() -> spool(lc, pattern));
            if (!referenceFailure.equals(spoolFailure)) {
                tally.mismatch("pattern " + pattern + ": logback's start threw " + referenceFailure + ", Spool's " + spoolFailure);
            }
            return;
        }
        // stateful converters (%lsn counts calls): one encoder per path, each called once per event
        SpoolEncoder viaEncode = pair[0];
        SpoolEncoder viaEncodeTo = pair[1];
        PatternLayoutEncoder oracle = reference;
        for (String d : viaEncode.describe()) {
            if (d.startsWith("delegated")) {
                tally.delegated++;
            } else {
                tally.fast++;
            }
        }
        // the writer renders with the appender's encoder: the capturable conversions keep no state
        ViaWriter writer = viaEncodeTo.rendersFromCapture() ? new ViaWriter(viaEncodeTo) : null;
        ByteLineBuilder line = new ByteLineBuilder(64);
        for (int e = 0; e < EVENTS_PER_PATTERN; e++) {
            LoggingEvent event = event(rnd, lc);
            String expected;
            byte[] want = null;
            try {
                want = oracle.encode(event);
                expected = null;
            } catch (RuntimeException ex) {
                expected = ex.getClass().getName();
            }
            String a = outcome(() -> viaEncode.encode(event), want, expected);
            String b = outcome(() -> {
                line.reset();
                line.appendAscii("prefix ");
                viaEncodeTo.encodeTo(event, line);
                return Arrays.copyOfRange(line.array(), 7, line.length());
            }, want, expected);
            String w = writer == null ? null : outcome(() -> writer.render(event), want, expected);
            if (a != null || b != null || w != null) {
                tally.mismatch("pattern " + SpoolEncoderDifferentialTest.Gen.escape(pattern) + " " + viaEncode.describe() + ", event "
                        + SpoolEncoderDifferentialTest.Gen.describe(event) + (a != null ? "\n encode: " + a : "")
                        + (b != null ? "\n encodeTo: " + b : "") + (w != null ? "\n render on the writer: " + w : ""));
            }
            tally.events++;
        }
        if (writer != null) {
            tally.captured += writer.captured;
            tally.textRecords += writer.textRecords;
        }
    }

    private static String failure(Runnable r) {
        try {
            r.run();
            return null;
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    /** @return null if the outcome matches the oracle's bytes (or exception class), else a description */
    private static String outcome(Supplier<byte[]> run, byte[] want, String wantException) {
        try {
            byte[] got = run.get();
            if (wantException != null) {
                return "logback threw " + wantException + ", Spool printed " + SpoolEncoderDifferentialTest.Gen.escape(utf8(got));
            }
            return Arrays.equals(want, got) ? null
                    : "expected " + SpoolEncoderDifferentialTest.Gen.escape(utf8(want)) + "\n  actual " + SpoolEncoderDifferentialTest.Gen.escape(utf8(got));
        } catch (RuntimeException ex) {
            return ex.getClass().getName().equals(wantException) ? null : "Spool threw " + ex + ", logback " + wantException;
        }
    }

    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    static SpoolEncoder spool(LoggerContext lc, String pattern) {
        SpoolEncoder s = new SpoolEncoder();
        s.setContext(lc);
        s.setPattern(pattern);
        s.start();
        return s;
    }

    /** {@link SpoolEncoderDifferentialTest.Gen#event} plus markers, caller data, nanos, sequence numbers and harsher messages. */
    @SuppressWarnings("deprecation") // Marker.add: markers with references, as users still build them
    static LoggingEvent event(Random rnd, LoggerContext lc) {
        LoggingEvent e = new LoggingEvent(); // logback's setters take one call each: decide first
        e.setLoggerContext(lc);
        e.setLoggerContextRemoteView(lc.getLoggerContextRemoteView());
        e.setLevel(pick(rnd, Level.TRACE, Level.DEBUG, Level.INFO, Level.INFO, Level.WARN, Level.ERROR));
        e.setLoggerName(rnd.nextInt(4) != 0 ? pick(rnd, SpoolEncoderDifferentialTest.Gen.LOGGER_POOL)
                : SpoolEncoderDifferentialTest.Gen.loggerName(rnd));
        e.setThreadName(rnd.nextInt(4) != 0 ? pick(rnd, SpoolEncoderDifferentialTest.Gen.THREAD_POOL)
                : SpoolEncoderDifferentialTest.Gen.text(rnd, 1 + rnd.nextInt(25)));
        int k = rnd.nextInt(300);
        if (k == 0) {
            e.setMessage(mebibyte(rnd));
        } else if (rnd.nextInt(10) == 0) {
            e.setMessage(null);
        } else if (rnd.nextBoolean()) {
            e.setMessage(SpoolEncoderDifferentialTest.Gen.messagePattern(rnd));
            e.setArgumentArray(SpoolEncoderDifferentialTest.Gen.arguments(rnd));
        } else {
            e.setMessage(SpoolEncoderDifferentialTest.Gen.text(rnd, rnd.nextInt(80)));
        }
        e.setInstant(Instant.ofEpochMilli(SpoolEncoderDifferentialTest.Gen.timestamp(rnd)).plusNanos(rnd.nextInt(1_000_000)));
        Map<String, String> mdc = new java.util.LinkedHashMap<>();
        int entries = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(4);
        for (int i = 0; i < entries; i++) {
            mdc.put(pick(rnd, "k1", "k2", "k3", "ключ"), SpoolEncoderDifferentialTest.Gen.text(rnd, rnd.nextInt(12)));
        }
        e.setMDCPropertyMap(mdc);
        if (k > 0 && k < 15) {
            e.setThrowableProxy(new ThrowableProxy(nullMessages(rnd)));
        } else if (rnd.nextInt(6) == 0) {
            e.setThrowableProxy(new ThrowableProxy(SpoolEncoderDifferentialTest.Gen.throwable(rnd)));
        }
        if (rnd.nextInt(5) == 0) {
            List<org.slf4j.event.KeyValuePair> kvps = new ArrayList<>();
            int n = 1 + rnd.nextInt(3);
            for (int i = 0; i < n; i++) {
                kvps.add(new org.slf4j.event.KeyValuePair(pick(rnd, "k1", "k2", SpoolEncoderDifferentialTest.Gen.text(rnd, 4)),
                        rnd.nextBoolean() ? SpoolEncoderDifferentialTest.Gen.text(rnd, 6) : null));
            }
            e.setKeyValuePairs(kvps);
        }
        e.setSequenceNumber(rnd.nextInt(4) == 0 ? Long.MAX_VALUE - rnd.nextInt(3) : rnd.nextInt(100_000));
        int markers = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(3) : 0;
        for (int i = 0; i < markers; i++) {
            org.slf4j.Marker m = MarkerFactory.getDetachedMarker(pick(rnd, "AUDIT", "SECURITY", "ünï", "\ud800lone"));
            if (rnd.nextBoolean()) {
                m.add(MarkerFactory.getDetachedMarker("CHILD"));
            }
            e.addMarker(m);
        }
        e.setCallerData(callerData(rnd)); // never null: null would make logback walk this test's own stack
        return e;
    }

    private static StackTraceElement[] callerData(Random rnd) {
        int n = rnd.nextInt(6) == 0 ? 0 : 1 + rnd.nextInt(5);
        StackTraceElement[] frames = new StackTraceElement[n];
        for (int i = 0; i < n; i++) {
            frames[i] = new StackTraceElement(pick(rnd, "com.example.OrderService", "Main", "ünï.Klass$Inner", "a.b.C$$Lambda$1"),
                    pick(rnd, "process", "<init>", "lambda$run$0", "m\ud800"), rnd.nextInt(5) == 0 ? null : pick(rnd, "OrderService.java", "Main.kt"),
                    pick(rnd, 42, -1, -2, 0, 100_000));
        }
        return frames;
    }

    private static Throwable nullMessages(Random rnd) {
        Exception cause = new IllegalStateException((String) null);
        Exception e = new RuntimeException(null, rnd.nextBoolean() ? cause : null);
        e.addSuppressed(new NullPointerException());
        StackTraceElement[] trace = e.getStackTrace();
        e.setStackTrace(Arrays.copyOf(trace, Math.min(trace.length, 3)));
        cause.setStackTrace(Arrays.copyOf(trace, Math.min(trace.length, 2)));
        return e;
    }

    /** A 1 MiB message with non-ASCII text, CR/LF and a lone surrogate at a random place. */
    private static String mebibyte(Random rnd) {
        char[] c = new char[1 << 20];
        for (int i = 0; i < c.length; i++) {
            c[i] = (char) ('a' + (i % 26));
        }
        c[rnd.nextInt(c.length)] = 'é';
        c[rnd.nextInt(c.length)] = '\n';
        c[rnd.nextInt(c.length)] = '\ud800';
        c[c.length - 1] = '\ud83d'; // a high surrogate at the very end, next to whatever follows
        return new String(c);
    }

    @SafeVarargs
    private static <T> T pick(Random rnd, T... choices) {
        return choices[rnd.nextInt(choices.length)];
    }

    @Test
    void theReadmeAndAnchorPatternsStayOnTheFastPath() {
        LoggerContext lc = new LoggerContext();
        for (String pattern : List.of(SpoolAppender.DEFAULT_PATTERN, "%d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n",
                "%d %5p %X{k1:-} --- [%15.15t] %-40.40logger{39} : %m%n", "%r %cn %-5(%level %thread) %mdc%n")) {
            List<String> kinds = spool(lc, pattern).describe();
            // the only delegate allowed is logback's implicit %ex, which prints nothing without a throwable
            List<String> delegated = new ArrayList<>(kinds.subList(0, kinds.size() - 1));
            delegated.removeIf(d -> d.startsWith("fast:"));
            assertEquals(List.of(), delegated, pattern + " -> " + kinds);
            assertEquals("delegated:ch.qos.logback.classic.pattern.ThrowableProxyConverter", kinds.get(kinds.size() - 1));
        }
    }

    @Test
    void aConversionRuleThatSubclassesAFastConverterIsDelegated() {
        LoggerContext lc = context(1);
        List<String> kinds = spool(lc, "%mymsg %le %level").describe();
        assertEquals("delegated:" + ShoutingMessageConverter.class.getName(), kinds.get(0));
        assertEquals("delegated:" + LowerLevelConverter.class.getName(), kinds.get(2));
        assertEquals("fast:LevelName", kinds.get(4));
    }

    @Test
    void aCharsetOtherThanUtf8GoesThroughTheLayout() {
        LoggerContext lc = context(2);
        Random rnd = new Random(2);
        for (String cs : List.of("ISO-8859-1", "UTF-16", "US-ASCII", "windows-1252", "UTF-8")) {
            PatternLayoutEncoder reference = new PatternLayoutEncoder();
            reference.setContext(lc);
            reference.setPattern("%d %level [%thread] %logger - %msg %mdc%n");
            reference.setCharset(java.nio.charset.Charset.forName(cs));
            reference.start();
            SpoolEncoder spool = new SpoolEncoder();
            spool.setContext(lc);
            spool.setPattern(reference.getPattern());
            spool.setCharset(reference.getCharset());
            spool.start();
            for (int i = 0; i < 200; i++) {
                LoggingEvent e = event(rnd, lc);
                byte[] want = reference.encode(e);
                assertTrue(Arrays.equals(want, spool.encode(e)), () -> cs + ": " + SpoolEncoderDifferentialTest.Gen.describe(e));
                ByteLineBuilder b = new ByteLineBuilder(16);
                spool.encodeTo(e, b);
                assertTrue(Arrays.equals(want, Arrays.copyOf(b.array(), b.length())), cs + " (encodeTo)");
            }
        }
    }

    @Test
    @SuppressWarnings("deprecation") // Level.ALL: a level an event can carry although no logger call makes it
    void levelsBeyondTheFiveAreLeftToLogback() {
        LoggerContext lc = new LoggerContext();
        LoggingEvent e = new LoggingEvent();
        e.setLoggerContext(lc);
        e.setLevel(Level.ALL);
        e.setMessage("all");
        PatternLayoutEncoder reference = new PatternLayoutEncoder();
        reference.setContext(lc);
        reference.setPattern("%-6level|%msg");
        reference.start();
        assertEquals(utf8(reference.encode(e)), utf8(spool(lc, "%-6level|%msg").encode(e)));
    }
}
