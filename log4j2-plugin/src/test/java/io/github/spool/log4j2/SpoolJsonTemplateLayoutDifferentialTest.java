package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.spool.io.RecordRenderer;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TimeZone;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.impl.MutableLogEvent;
import org.apache.logging.log4j.core.time.MutableInstant;
import org.apache.logging.log4j.layout.template.json.JsonTemplateLayout;
import org.apache.logging.log4j.layout.template.json.JsonTemplateLayout.EventTemplateAdditionalField;
import org.apache.logging.log4j.layout.template.json.util.JsonReader;
import org.apache.logging.log4j.message.MapMessage;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.message.ObjectMessage;
import org.apache.logging.log4j.message.ParameterizedMessageFactory;
import org.apache.logging.log4j.message.ReusableObjectMessage;
import org.apache.logging.log4j.message.ReusableParameterizedMessage;
import org.apache.logging.log4j.message.ReusableSimpleMessage;
import org.apache.logging.log4j.message.SimpleMessage;
import org.apache.logging.log4j.message.StringMapMessage;
import org.apache.logging.log4j.spi.MutableThreadContextStack;
import org.apache.logging.log4j.util.SortedArrayStringMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test of render on the writer for {@link SpoolJsonTemplateLayout}: seeded events
 * (unicode, control characters, lone surrogates, strings past {@code maxStringLength}, 1 MiB
 * messages, exceptions with causes and suppressed, context maps of every size, markers, context
 * stacks, parameterized, simple, object and map messages, reusable ones handed over inside
 * log4j2's own {@code MutableLogEvent} as a logger hands them) go through the appender's two
 * halves — the caller's capture ({@link EventCapture}, or the caller's text record when the event
 * is not captured) and the
 * writer's {@link WriterRenderer} — and must come out byte for byte as JsonTemplateLayout's {@code
 * encode} writes them, for every shipped template and user-style customisations, each with the
 * default time zone set to three zones. Every line must also parse as one JSON object. Each case
 * also says which path the writer takes: the compiled template ({@link NativeJsonTemplate}),
 * log4j2's resolvers on the rebuilt event, or none (every event renders on the caller). Seeded
 * ({@code -Dspool.seed=N} replays).
 */
class SpoolJsonTemplateLayoutDifferentialTest {

    private static final int EVENTS = 600;
    private static final Level NOTICE = Level.forName("NOTICE", 350);
    /** Found at run time: MarkerManager's class carries an annotation not on the class path (-Werror). */
    private static final Marker[] MARKERS = {marker("AUDIT"), marker("SECURITY")};
    private static final String[] ZONES = {"UTC", "America/New_York", "Asia/Kolkata"};

    /** Where a case's events render when captured. */
    enum Path {
        /** The writer, from the template compiled into field writers. */
        COMPILED,
        /** The writer, through log4j2's resolvers on the rebuilt event. */
        RESOLVERS,
        /** The calling thread, every event. */
        CALLER
    }

    private static final Level[] LEVELS = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR, Level.FATAL,
        NOTICE};

    /** Applies the same settings to either builder (their setters have the same names). */
    interface Settings {
        void apply(Setter s);
    }

    /** The setters both builders have. */
    interface Setter {
        Setter uri(String uri);

        Setter template(String json);

        Setter rootKey(String key);

        Setter maxStringLength(int n);

        Setter suffix(String s);

        Setter delimiter(String d);

        Setter location(boolean on);

        Setter stackTrace(boolean on);

        Setter fields(EventTemplateAdditionalField... fields);

        Setter nullDelimiter(boolean on);
    }

    static List<Object[]> cases() {
        List<Object[]> cases = new ArrayList<>();
        add(cases, "EcsLayout.json", true, s -> s.uri("classpath:EcsLayout.json"));
        add(cases, "LogstashJsonEventLayoutV1.json", true, s -> s.uri("classpath:LogstashJsonEventLayoutV1.json"));
        add(cases, "GelfLayout.json", true, s -> s.uri("classpath:GelfLayout.json"));
        add(cases, "JsonLayout.json (falls back: endOfBatch, thread id)", false, s -> s.uri("classpath:JsonLayout.json"));
        add(cases, "ECS + additional fields", true, s -> s.uri("classpath:EcsLayout.json").fields(
                field("service.name", "orders", false), field("service.env", "${env:NO_SUCH_VAR:-prod}", false),
                field("labels.static", "{\"a\":1,\"b\":[true,null,\"x\"]}", true),
                field("when", "{\"$resolver\":\"timestamp\",\"epoch\":{\"unit\":\"millis\"}}", true)));
        add(cases, "GELF, maxStringLength=20 and suffix", true,
                s -> s.uri("classpath:GelfLayout.json").maxStringLength(20).suffix("<cut>"));
        add(cases, "Logstash, root key, CRLF delimiter", true,
                s -> s.uri("classpath:LogstashJsonEventLayoutV1.json").rootKey("event").delimiter("\r\n"));
        add(cases, "timestamps in three zones and epochs", true, s -> s.template("{"
                + "\"utc\":{\"$resolver\":\"timestamp\",\"pattern\":{\"format\":\"yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX\",\"timeZone\":\"UTC\"}},"
                + "\"berlin\":{\"$resolver\":\"timestamp\",\"pattern\":{\"format\":\"dd MMM yyyy HH:mm:ss,SSS Z\",\"timeZone\":\"Europe/Berlin\",\"locale\":\"de_DE\"}},"
                + "\"kolkata\":{\"$resolver\":\"timestamp\",\"pattern\":{\"timeZone\":\"Asia/Kolkata\"}},"
                + "\"nanos\":{\"$resolver\":\"timestamp\",\"epoch\":{\"unit\":\"nanos\"}},"
                + "\"secs\":{\"$resolver\":\"timestamp\",\"epoch\":{\"unit\":\"secs\",\"rounded\":true}},"
                + "\"msg\":{\"$resolver\":\"message\",\"stringified\":true}}"));
        add(cases, "levels, logger, thread, message with fallbackKey", true, s -> s.template("{"
                + "\"lvl\":{\"$resolver\":\"level\",\"field\":\"name\"},"
                + "\"kw\":{\"$resolver\":\"level\",\"field\":\"severity\",\"severity\":{\"field\":\"keyword\"}},"
                + "\"code\":{\"$resolver\":\"level\",\"field\":\"severity\",\"severity\":{\"field\":\"code\"}},"
                + "\"logger\":{\"$resolver\":\"logger\",\"field\":\"name\"},"
                + "\"thread\":{\"$resolver\":\"thread\",\"field\":\"name\"},"
                + "\"message\":{\"$resolver\":\"message\",\"fallbackKey\":\"text\"},"
                + "\"plain\":{\"$resolver\":\"message\"},"
                + "\"upper\":{\"$resolver\":\"caseConverter\",\"case\":\"upper\",\"input\":{\"$resolver\":\"logger\",\"field\":\"name\"}},"
                + "\"array\":[1,2.5,\"x\",null,{\"nested\":{\"$resolver\":\"level\",\"field\":\"name\"}}]}"));
        add(cases, "mdc flatten with prefix, pattern, key, stringified", true, s -> s.template("{"
                + "\"all\":{\"$resolver\":\"mdc\"},"
                + "\"k1\":{\"$resolver\":\"mdc\",\"key\":\"k1\"},"
                + "\"some\":{\"$resolver\":\"mdc\",\"pattern\":\"k[12]\",\"stringified\":true},"
                + "\"flat\":{\"$resolver\":\"mdc\",\"flatten\":{\"prefix\":\"ctx.\"},\"stringified\":true},"
                + "\"ndc\":{\"$resolver\":\"ndc\"},"
                + "\"marker\":{\"$resolver\":\"marker\",\"field\":\"name\"},"
                + "\"map\":{\"$resolver\":\"map\",\"key\":\"action\"},"
                + "\"root\":{\"$resolver\":\"exceptionRootCause\",\"field\":\"message\"},"
                + "\"trace\":{\"$resolver\":\"exception\",\"field\":\"stackTrace\"}}"));
        add(cases, "ECS without stack traces", true, s -> s.uri("classpath:EcsLayout.json").stackTrace(false));
        add(cases, "GELF with a NUL after the delimiter", true,
                s -> s.uri("classpath:GelfLayout.json").nullDelimiter(true));
        add(cases, "Logstash, maxStringLength=16", true,
                s -> s.uri("classpath:LogstashJsonEventLayoutV1.json").maxStringLength(16));
        add(cases, "ECS under a root key, an mdc key as an additional field", true,
                s -> s.uri("classpath:EcsLayout.json").rootKey("log").fields(
                        field("user", "{\"$resolver\":\"mdc\",\"key\":\"k1\",\"stringified\":true}", true)));
        add(cases, "Logstash with location (falls back: source)", false,
                s -> s.uri("classpath:LogstashJsonEventLayoutV1.json").location(true));
        add(cases, "counter (falls back)", false, s -> s.template("{\"n\":{\"$resolver\":\"counter\"},"
                + "\"m\":{\"$resolver\":\"message\",\"stringified\":true}}"));
        add(cases, "epoch in every unit", true, s -> s.template("{"
                + "\"ms\":{\"$resolver\":\"timestamp\",\"epoch\":{\"unit\":\"millis\"}},"
                + "\"msr\":{\"$resolver\":\"timestamp\",\"epoch\":{\"unit\":\"millis\",\"rounded\":true}},"
                + "\"msn\":{\"$resolver\":\"timestamp\",\"epoch\":{\"unit\":\"millis.nanos\"}},"
                + "\"s\":{\"$resolver\":\"timestamp\",\"epoch\":{\"unit\":\"secs\"}},"
                + "\"sn\":{\"$resolver\":\"timestamp\",\"epoch\":{\"unit\":\"secs.nanos\"}},"
                + "\"ns\":{\"$resolver\":\"timestamp\",\"epoch\":{\"unit\":\"nanos\"}}}"));
        add(cases, "default timestamp, level name and severities, patterns with nanos", true, s -> s.template("{"
                + "\"t\":{\"$resolver\":\"timestamp\"},"
                + "\"nanoOfDay\":{\"$resolver\":\"timestamp\",\"pattern\":{\"format\":\"HH:mm:ss N A\",\"timeZone\":\"UTC\"}},"
                + "\"micros\":{\"$resolver\":\"timestamp\",\"pattern\":{\"format\":\"yyyyMMdd HHmmss.SSSSSS\"}},"
                + "\"level\":{\"$resolver\":\"level\",\"field\":\"name\"},"
                + "\"kw\":{\"$resolver\":\"level\",\"field\":\"severity\",\"severity\":{\"field\":\"keyword\"}},"
                + "\"code\":{\"$resolver\":\"level\",\"field\":\"severity\",\"severity\":{\"field\":\"code\"}}}"));
        add(cases, "mdc single keys, raw, stringified and missing", true, s -> s.template("{"
                + "\"a\":{\"$resolver\":\"mdc\",\"key\":\"k1\"},"
                + "\"b\":{\"$resolver\":\"mdc\",\"key\":\"k2\",\"stringified\":true},"
                + "\"c\":{\"$resolver\":\"mdc\",\"key\":\"no such key\"},"
                + "\"m\":{\"$resolver\":\"message\",\"stringified\":true}}"));
        add(cases, "mdc pattern with replacement and prefix, not stringified", true, s -> s.template("{"
                + "\"m\":{\"$resolver\":\"message\"},"
                + "\"sel\":{\"$resolver\":\"mdc\",\"pattern\":\"k(\\\\d)\",\"replacement\":\"n$1\"},"
                + "\"flat\":{\"$resolver\":\"mdc\",\"flatten\":{\"prefix\":\"x.\"},\"pattern\":\"key1.*\"},"
                + "\"tail\":\"end\"}"));
        add(cases, "mdc as an object and flattened without prefix, values raw", true, s -> s.template("{"
                + "\"ctx\":{\"$resolver\":\"mdc\"},"
                + "\"lvl\":{\"$resolver\":\"level\",\"field\":\"name\"},"
                + "\"flat\":{\"$resolver\":\"mdc\",\"flatten\":true}}"));
        add(cases, "nested objects with resolvers and constants", true, s -> s.template("{"
                + "\"log\":{\"level\":{\"$resolver\":\"level\",\"field\":\"name\"},"
                + "\"origin\":{\"logger\":{\"$resolver\":\"logger\",\"field\":\"name\"},"
                + "\"thread\":{\"$resolver\":\"thread\",\"field\":\"name\"}},\"v\":1},"
                + "\"err\":{\"type\":{\"$resolver\":\"exception\",\"field\":\"className\"}},"
                + "\"msg\":{\"$resolver\":\"message\",\"stringified\":true},"
                + "\"const\":{\"a\":[1,2,{\"b\":null}],\"t\":true,\"f\":false,\"n\":null,\"d\":-2.5e3,"
                + "\"s\":\"\\u00e9\\\"x\\u0001\"}}"));
        add(cases, "message with a fallbackKey, not stringified", true, s -> s.template("{"
                + "\"message\":{\"$resolver\":\"message\",\"fallbackKey\":\"text\"},"
                + "\"when\":{\"$resolver\":\"timestamp\",\"pattern\":{\"format\":\"EEE, d MMM yyyy HH:mm:ss z\",\"locale\":\"fr_FR\"}}}"));
        add(cases, "maxStringLength=5 with a unicode suffix, long keys", true, s -> s.template("{"
                + "\"a long message key\":{\"$resolver\":\"message\",\"stringified\":true},"
                + "\"thread name key\":{\"$resolver\":\"thread\",\"field\":\"name\"},"
                + "\"k1 of the context\":{\"$resolver\":\"mdc\",\"key\":\"k1\"},"
                + "\"constant key\":\"constant value\"}").maxStringLength(5).suffix("\u2026\uD83D\uDE00"));
        add(cases, "fields a captured event lacks leave no key", true, s -> s.template("{"
                + "\"m\":{\"$resolver\":\"message\",\"stringified\":true},"
                + "\"err\":{\"$resolver\":\"exception\",\"field\":\"message\"},"
                + "\"root\":{\"$resolver\":\"exceptionRootCause\",\"field\":\"className\"},"
                + "\"mk\":{\"$resolver\":\"marker\",\"field\":\"name\"},"
                + "\"ndc\":{\"$resolver\":\"ndc\"},"
                + "\"src\":{\"$resolver\":\"source\",\"field\":\"lineNumber\"},"
                + "\"act\":{\"$resolver\":\"map\",\"key\":\"action\"}}"));
        add(cases, "ECS with maxStringLength=12 and suffix", true,
                s -> s.uri("classpath:EcsLayout.json").maxStringLength(12).suffix("[...]"));
        add(cases, "ECS with additional fields over template keys, under a root key", true,
                s -> s.uri("classpath:EcsLayout.json").rootKey("e").fields(field("ecs.version", "9", false),
                        field("log.level", "{\"$resolver\":\"level\",\"field\":\"severity\",\"severity\":{\"field\":\"keyword\"}}", true),
                        field("extra", "{\"$resolver\":\"mdc\",\"pattern\":\"k1|k3\"}", true)));
        return withZones(cases);
    }

    /** The cases marked {@code true} render on the writer; those with a caseConverter through log4j2's resolvers. */
    private static void add(List<Object[]> cases, String name, boolean onWriter, Settings settings) {
        Path path = !onWriter ? Path.CALLER : name.startsWith("levels, logger, thread") ? Path.RESOLVERS : Path.COMPILED;
        cases.add(new Object[] {name, path, settings});
    }

    private static List<Object[]> withZones(List<Object[]> cases) {
        List<Object[]> all = new ArrayList<>();
        for (String zone : ZONES) {
            for (Object[] c : cases) {
                all.add(new Object[] {c[0] + " in " + zone, c[1], c[2], zone});
            }
        }
        return all;
    }

    private static Marker marker(String name) {
        try {
            return (Marker) Class.forName("org.apache.logging.log4j.MarkerManager").getMethod("getMarker", String.class)
                    .invoke(null, name);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static EventTemplateAdditionalField field(String key, String value, boolean json) {
        return EventTemplateAdditionalField.newBuilder().setKey(key).setValue(value)
                .setFormat(json ? EventTemplateAdditionalField.Format.JSON : EventTemplateAdditionalField.Format.STRING)
                .build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rendersOnTheWriterExactlyWhatJsonTemplateLayoutEncodes(String name, Path path, Settings settings,
            String zone) {
        TimeZone previous = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        try {
            compare(name, path, settings);
        } finally {
            TimeZone.setDefault(previous);
        }
    }

    private static void compare(String name, Path path, Settings settings) {
        boolean onWriter = path != Path.CALLER;
        long seed = Long.getLong("spool.seed", 0x15_0A7L);
        SplittableRandom random = new SplittableRandom(seed ^ name.hashCode());
        Configuration config = new DefaultConfiguration();
        JsonTemplateLayout.Builder rb = JsonTemplateLayout.newBuilder().setConfiguration(config);
        settings.apply(new ReferenceSetter(rb));
        JsonTemplateLayout reference = rb.build();
        SpoolJsonTemplateLayout.Builder sb = SpoolJsonTemplateLayout.newBuilder().setConfiguration(config);
        settings.apply(new SpoolSetter(sb));
        SpoolJsonTemplateLayout spool = sb.build();
        assertEquals(onWriter, spool.rendersFromCapture(), spool.describe());
        assertEquals(path == Path.COMPILED, spool.describe().contains("compiled template"), spool.describe());

        WriterRenderer writer = new WriterRenderer(spool);
        SpoolLayout.Scratch scratch = new SpoolLayout.Scratch();
        EventCapture.Ids ids = new EventCapture.Ids();
        ByteLineBuilder out = new ByteLineBuilder(1024);
        RecordRenderer.Result result = new RecordRenderer.Result();
        int captured = 0;
        int capturedOwn = 0; // events that are their own message, as a logger's are
        for (int i = 0; i < EVENTS; i++) {
            LogEvent event = randomEvent(random);
            byte[] expected = SpoolLayoutDifferentialTest.encode(reference, event);
            ByteLineBuilder record = scratch.line.bytes();
            // As SpoolAppender: captured only when the writer renders this template
            if (spool.rendersFromCapture() && spool.capturable(event) && EventCapture.capture(event, record, scratch.text, ids,
                    spool.formatsMessageChars(), spool.capturedContextKeys())) {
                captured++;
                if (event.getMessage() == event) {
                    capturedOwn++;
                }
            } else {
                record = spool.encodeTextRecord(event, scratch);
            }
            ByteBuffer range = ByteBuffer.allocateDirect(record.length());
            range.put(record.array(), 0, record.length()).flip();
            out.reset();
            result.clear();
            writer.render(range, out, result);
            if (result.passThrough > 0) {
                // a text record too long to copy: the writer writes it from the ring as it is
                out.append(range, result.passThrough);
            } else {
                assertEquals(1, result.rendered, "rendered, seed=" + seed + " event " + i);
            }
            byte[] actual = Arrays.copyOf(out.array(), out.length());
            if (!Arrays.equals(expected, actual)) {
                fail("seed=" + seed + " case=" + name + " event " + i + " (message " + event.getMessage().getClass()
                        + ")\nexpected: " + new String(expected, StandardCharsets.UTF_8)
                        + "\nactual:   " + new String(actual, StandardCharsets.UTF_8));
            }
            assertParsesAsOneObject(new String(actual, StandardCharsets.UTF_8), name);
        }
        if (onWriter) {
            // Most events carry nothing the record lacks: the writer's path is what was compared.
            assertTrue(captured > EVENTS / 3, captured + " of " + EVENTS + " captured");
            // ... and a logger's own events are among them (they were not, before 2026-11-28).
            assertTrue(capturedOwn > EVENTS / 20, capturedOwn + " of " + EVENTS + " own-message events captured");
        }
    }

    private static void assertParsesAsOneObject(String line, String name) {
        String json = line.replaceAll("[\\r\\n\\x00]+$", "");
        assertFalse(json.contains("\n"), "one line: " + name);
        Object parsed = JsonReader.read(json);
        assertTrue(parsed instanceof Map, "a JSON object: " + name + ": " + line);
    }

    // ---- events ----

    static String randomText(SplittableRandom r, int max) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(max);
        for (int i = 0; i < n; i++) {
            switch (r.nextInt(10)) {
                case 0:
                    sb.append((char) (0xD800 + r.nextInt(0x800))); // unpaired surrogate, high or low
                    break;
                case 1:
                    sb.appendCodePoint(0x1F600 + r.nextInt(50)); // supplementary pair
                    break;
                case 2:
                    sb.append((char) (0x80 + r.nextInt(0x7000)));
                    break;
                case 3:
                    sb.append((char) r.nextInt(0x20)); // control characters
                    break;
                case 4:
                    sb.append(pick(r, "{}", "\"", "\\", "/", "\u007F", "\u2028", "é", "JSON"));
                    break;
                default:
                    sb.append((char) (0x20 + r.nextInt(0x5F)));
            }
        }
        return sb.toString();
    }

    private static String pick(SplittableRandom r, String... choices) {
        return choices[r.nextInt(choices.length)];
    }

    /*
     * Logger and thread names and message formats come from small pools, as in an application: the
     * capture sends them by id from JVM-wide tables bounded at SymbolTable.LIMIT names, which
     * random ones would fill (the capture then declines, and the writer's path goes untested).
     * The pools hold the same hostile text as the values.
     */
    private static final String[] LOGGER_NAMES = pool("io.github.spool.", 8, 12, "");
    private static final String[] THREAD_NAMES = pool("", 8, 16, "main");
    private static final String[] FORMATS_3 = pool("", 6, 20, null);
    private static final String[] FORMATS_2 = pool("", 6, 20, null);

    static {
        for (int i = 0; i < FORMATS_3.length; i++) {
            FORMATS_3[i] += " {} {} {}";
            FORMATS_2[i] += " {} and {}";
        }
    }

    private static String[] pool(String prefix, int size, int maxChars, String extra) {
        SplittableRandom r = new SplittableRandom(size * 31L + maxChars);
        String[] names = new String[extra == null ? size : size + 1];
        for (int i = 0; i < size; i++) {
            names[i] = prefix + randomText(r, maxChars);
        }
        if (extra != null) {
            names[size] = extra;
        }
        return names;
    }

    private static LogEvent randomEvent(SplittableRandom r) {
        MutableInstant instant = new MutableInstant();
        instant.initFromEpochSecond(r.nextLong(0L, 4_102_444_800L), r.nextInt(1_000_000_000));
        SortedArrayStringMap mdc = new SortedArrayStringMap();
        int keys = r.nextInt(5) == 0 ? 20 + r.nextInt(20) : r.nextInt(4);
        for (int i = 0; i < keys; i++) {
            Object value;
            switch (r.nextInt(6)) {
                case 0:
                    value = r.nextInt(100);
                    break;
                case 1:
                    value = r.nextLong();
                    break;
                case 2:
                    value = r.nextBoolean();
                    break;
                default:
                    value = randomText(r, 30);
            }
            mdc.putValue(i < 4 ? pick(r, "k1", "k2", "k3", "k4") : "key" + i, value);
        }
        Log4jLogEvent.Builder b = Log4jLogEvent.newBuilder()
                .setLoggerName(LOGGER_NAMES[r.nextInt(LOGGER_NAMES.length)])
                .setLoggerFqcn("io.github.spool.Test")
                .setLevel(LEVELS[r.nextInt(LEVELS.length)])
                .setThreadName(THREAD_NAMES[r.nextInt(THREAD_NAMES.length)])
                .setMessage(randomMessage(r))
                .setContextData(mdc)
                .setInstant(instant);
        if (r.nextInt(8) == 0) {
            b.setThrown(randomThrowable(r));
        }
        if (r.nextInt(10) == 0) {
            b.setMarker(MARKERS[r.nextInt(MARKERS.length)]);
        }
        if (r.nextInt(10) == 0) {
            b.setContextStack(new MutableThreadContextStack(List.of("ndc-" + randomText(r, 5))));
        }
        if (r.nextBoolean()) {
            // What a logger hands its appenders: log4j2's reusable event, which copies a reusable
            // message's text and parameters into itself and is then its own message.
            MutableLogEvent own = new MutableLogEvent();
            own.initFrom(b.build());
            return own;
        }
        return b.build();
    }

    private static Message randomMessage(SplittableRandom r) {
        switch (r.nextInt(11)) {
            case 0:
                return new SimpleMessage(randomText(r, 40));
            case 1:
                return new ObjectMessage(r.nextBoolean() ? (Object) r.nextInt() : randomText(r, 10));
            case 2: {
                MapMessage<?, ?> m = new StringMapMessage().with("action", randomText(r, 8)).with("id", "42");
                return m;
            }
            case 3:
                return new SimpleMessage(randomText(r, 40) + "x".repeat(r.nextInt(40) == 0 ? 1 << 20 : r.nextInt(3) == 0 ? 16_400 : 30));
            case 4:
                return new SimpleMessage(r.nextBoolean() ? "JSON" : "{\"raw\":true}");
            case 9: {
                ReusableSimpleMessage m = new ReusableSimpleMessage();
                m.set(randomText(r, 40));
                return m;
            }
            case 10: {
                ReusableObjectMessage m = new ReusableObjectMessage();
                m.set(r.nextBoolean() ? (Object) r.nextInt() : randomText(r, 10));
                return m;
            }
            case 5: {
                ReusableParameterizedMessage m = new ReusableParameterizedMessage();
                return m.set(FORMATS_3[r.nextInt(FORMATS_3.length)], randomText(r, 20), r.nextInt(), r.nextDouble());
            }
            default:
                return ParameterizedMessageFactory.INSTANCE.newMessage(FORMATS_2[r.nextInt(FORMATS_2.length)],
                        randomText(r, 30), r.nextLong());
        }
    }

    private static Throwable randomThrowable(SplittableRandom r) {
        Throwable t = new IllegalStateException("root " + randomText(r, 20));
        int depth = r.nextInt(3);
        for (int i = 0; i < depth; i++) {
            t = new RuntimeException("wrapper " + i + " " + randomText(r, 10), t);
        }
        if (r.nextBoolean()) {
            t.addSuppressed(new java.io.IOException("suppressed " + randomText(r, 10)));
        }
        return t;
    }

    // ---- the same settings on both builders ----

    private static final class ReferenceSetter implements Setter {
        private final JsonTemplateLayout.Builder b;

        ReferenceSetter(JsonTemplateLayout.Builder b) {
            this.b = b;
        }

        @Override public Setter uri(String uri) { b.setEventTemplateUri(uri); return this; }
        @Override public Setter template(String json) { b.setEventTemplate(json); return this; }
        @Override public Setter rootKey(String key) { b.setEventTemplateRootObjectKey(key); return this; }
        @Override public Setter maxStringLength(int n) { b.setMaxStringLength(n); return this; }
        @Override public Setter suffix(String s) { b.setTruncatedStringSuffix(s); return this; }
        @Override public Setter delimiter(String d) { b.setEventDelimiter(d); return this; }
        @Override public Setter location(boolean on) { b.setLocationInfoEnabled(on); return this; }
        @Override public Setter stackTrace(boolean on) { b.setStackTraceEnabled(on); return this; }
        @Override public Setter fields(EventTemplateAdditionalField... f) { b.setEventTemplateAdditionalFields(f); return this; }
        @Override public Setter nullDelimiter(boolean on) { b.setNullEventDelimiterEnabled(on); return this; }
    }

    private static final class SpoolSetter implements Setter {
        private final SpoolJsonTemplateLayout.Builder b;

        SpoolSetter(SpoolJsonTemplateLayout.Builder b) {
            this.b = b;
        }

        @Override public Setter uri(String uri) { b.setEventTemplateUri(uri); return this; }
        @Override public Setter template(String json) { b.setEventTemplate(json); return this; }
        @Override public Setter rootKey(String key) { b.setEventTemplateRootObjectKey(key); return this; }
        @Override public Setter maxStringLength(int n) { b.setMaxStringLength(n); return this; }
        @Override public Setter suffix(String s) { b.setTruncatedStringSuffix(s); return this; }
        @Override public Setter delimiter(String d) { b.setEventDelimiter(d); return this; }
        @Override public Setter location(boolean on) { b.setLocationInfoEnabled(on); return this; }
        @Override public Setter stackTrace(boolean on) { b.setStackTraceEnabled(on); return this; }
        @Override public Setter fields(EventTemplateAdditionalField... f) { b.setEventTemplateAdditionalFields(f); return this; }
        @Override public Setter nullDelimiter(boolean on) { b.setNullEventDelimiterEnabled(on); return this; }
    }
}
