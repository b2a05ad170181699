package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.status.Status;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TimeZone;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Differential test: seeded events ({@link SpoolJsonEncoderDifferentialTest.Gen}, with MDC keys
 * that Spring's formats name, nest, reject or collide on) through Spring Boot's
 * {@code StructuredLogEncoder} ({@code ecs}, {@code logstash}, {@code gelf}) and through
 * {@link SpoolJsonEncoder} ({@code spring-ecs}, {@code spring-logstash}, {@code spring-gelf}), with
 * the same Spring {@code Environment} in the logger context, must give identical bytes — from
 * {@code encode}, from the writer's path ({@link ViaWriter}) and through a {@link SpoolAppender}
 * in {@code caller} and {@code writer} modes — in several default time zones, for the default
 * configuration and for user customisations ({@code logging.structured.*} properties, among them
 * {@code json.include}/{@code exclude}/{@code rename}/{@code add}, and the encoder's own
 * {@code <include>}/{@code <exclude>}/{@code <rename>}/{@code <add>}), which Spool renders itself:
 * Spring's encoder gets only the events Spool declines. Where Spring's encoder throws (a pair
 * named like a member), Spool's encoder throws too. Every line parses as one JSON object.
 */
class SpringStructuredDifferentialTest {

    private static final String[] FORMATS = {"ecs", "logstash", "gelf"};
    private static final String[] ZONES = {"UTC", "America/New_York", "Asia/Kathmandu"};
    private static final int EVENTS = 300; // x 40 cases; seeded: the same events every run
    private static final ObjectMapper JSON = new ObjectMapper();
    /** MDC keys with a meaning for one of the formats, mixed into the generated ones. */
    private static final String[] KEYS = {"userId", "traceId", "span_id", "trace.id", "a.b.c", "_private", "private",
        "level_name", "message", "log", "id", "_id", "tags", "ecs", "key-1", "x.", ".x", "", "ü", "two words"};

    /** Keys with what JSON must escape, a few dozen. */
    private static final String[] ODD_KEYS = oddKeys();

    private static String[] oddKeys() {
        Random rnd = new Random(42);
        String[] keys = new String[48];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = SpoolJsonEncoderDifferentialTest.Gen.text(rnd, 1 + rnd.nextInt(2));
        }
        return keys;
    }

    /** Customisations: property pairs; a key starting {@code encoder.} is an encoder setting. */
    private static final String[][] CONFIGS = {
        {},
        {"logging.structured.ecs.service.environment", "prod", "logging.structured.ecs.service.node-name", "node \"1\"",
            "logging.structured.gelf.host", "gelf-host", "logging.structured.gelf.service.version", "9.9"},
        {"logging.structured.json.context.prefix", "ctx"},
        {"logging.structured.json.context.include", "false"},
        {"logging.structured.json.exclude", "log.logger,process.thread,logger_name,_log_logger"},
        {"logging.structured.json.rename[process.thread.name]", "thread", "logging.structured.json.rename[thread_name]",
            "thread", "logging.structured.json.rename[_process_thread_name]", "_thread"},
        {"logging.structured.json.add[team]", "checkout", "logging.structured.json.add[region]", "eu"},
        {"logging.structured.json.stacktrace.root", "first", "logging.structured.json.stacktrace.max-length", "300"},
        {"logging.structured.json.include", "@timestamp,message,log,log.level,short_message,timestamp,level,version"},
        {"encoder.exclude", "process.thread,thread_name,_process_thread_name", "encoder.rename", "message=msg",
            "encoder.add", "k=v"},
        {"spring.application.name", "", "spring.application.version", "", "logging.structured.ecs.service.name", "svc"},
        {"logging.structured.json.stacktrace.printer", "logging-system"},
        // user-style include/exclude/rename/add, each a mix of the three formats' paths
        {"logging.structured.json.include", "log,log.level,message,userId,traceId,_userId,_traceId,short_message,"
            + "level,@timestamp,timestamp,tags,error,error.type,_error_type,stack_trace,ecs"},
        {"logging.structured.json.exclude", "process.pid,service.node,ecs.version,error.stack_trace,level_value,"
            + "@version,_process_pid,host,_error_stack_trace,full_message,userId,_userId"},
        {"logging.structured.json.rename[log.level]", "severity", "logging.structured.json.rename[@timestamp]", "ts",
            "logging.structured.json.rename[process.thread.name]", "thread_name", "logging.structured.json.rename[level]",
            "lvl", "logging.structured.json.rename[short_message]", "msg", "logging.structured.json.rename[_log_logger]",
            "_logger", "logging.structured.json.rename[service]", "svc"},
        {"logging.structured.json.add[team]", "check\"out \u00e9\u2028", "logging.structured.json.add[labels.zone]", "eu-1",
            "logging.structured.json.add[labels.rack]", "r\t7", "logging.structured.json.add[empty]", "",
            "logging.structured.json.add[traceId]", "named like a pair: Spring throws where both are"},
        {"logging.structured.json.rename[userId]", "user", "logging.structured.json.rename[_userId]", "_user",
            "logging.structured.json.rename[trace.id]", "trace", "logging.structured.json.exclude", "traceId,_traceId,span_id,_span_id"},
        {"logging.structured.json.context.prefix", "ctx", "logging.structured.json.rename[ctx_userId]", "user",
            "logging.structured.json.rename[_ctxuserId]", "_user", "logging.structured.json.exclude", "ctx_traceId,_ctxtraceId",
            "logging.structured.json.add[app]", "orders"},
        {"logging.structured.json.context.include", "false", "logging.structured.json.add[team]", "checkout",
            "logging.structured.json.exclude", "log.logger,logger_name,_log_logger,process,thread_name,_process_thread_name"},
        {"logging.structured.json.include", "@timestamp,message,short_message,team,level,log,log.level,timestamp,userId,"
            + "_userId,version", "logging.structured.json.add[team]", "a", "logging.structured.json.add[dropped]", "b",
            "logging.structured.json.rename[message]", "text", "logging.structured.json.rename[short_message]", "text"},
        {"encoder.include", "@timestamp,message,short_message,log,log.level,level,timestamp,version,traceId,_traceId",
            "encoder.rename", "message=m", "encoder.rename", "short_message=m", "encoder.add", "k=v"},
        {"logging.structured.json.context.prefix", "p", "logging.structured.json.context.include", "true",
            "logging.structured.json.exclude", "tags,error,stack_trace,_error_type,_error_message,ecs",
            "logging.structured.json.rename[error.message]", "why"},
    };
    /** The configurations whose customisation Spring's encoder renders: a customizer class. */
    private static final String[] CUSTOMIZER = {"logging.structured.json.customizer",
        SpringStructuredDifferentialTest.NoChange.class.getName()};

    /** A user's customizer: Spool leaves such configurations to Spring's encoder. */
    public static final class NoChange implements
            org.springframework.boot.logging.structured.StructuredLoggingJsonMembersCustomizer<Object> {
        @Override
        public void customize(org.springframework.boot.json.JsonWriter.Members<Object> members) {
        }
    }

    /** Megabyte messages (Gen.event's huge) in configurations 0, 8 and 16 of each format only. */
    private static boolean huge(int config) {
        return config % 8 == 0;
    }

    static Stream<Arguments> cases() {
        long base = Long.getLong("spool.test.seed", 0x5B_00_7L);
        List<Arguments> out = new ArrayList<>();
        for (String format : FORMATS) {
            for (int c = 0; c < CONFIGS.length; c++) {
                out.add(Arguments.of(format, c, ZONES[(c + format.length()) % ZONES.length], base + c));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} config {1} {2}")
    @MethodSource("cases")
    void encodesWhatSpringBootEncodes(String format, int config, String zone, long seed) throws IOException {
        TimeZone before = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone(zone)); // Spring's logstash format reads it per event
        try {
            LoggerContext lc = context(CONFIGS[config]);
            StructuredLogEncoder reference = reference(lc, format, CONFIGS[config]);
            SpoolJsonEncoder spool = spool(lc, format, CONFIGS[config]);
            ViaWriter writer = new ViaWriter(LineEncoder.of(spool));
            Random rnd = new Random(seed);
            int thrown = 0;
            for (int i = 0; i < EVENTS; i++) {
                LoggingEvent event = event(rnd, lc, format, huge(config), i);
                String where = format + " config " + config + ", zone " + zone + ", seed " + seed + ", event " + i;
                byte[] expected;
                try {
                    expected = reference.encode(event);
                } catch (RuntimeException e) {
                    thrown++;
                    assertThrows(e.getClass(), () -> spool.encode(event), where);
                    continue;
                }
                assertSame(expected, spool.encode(event), where + " (encode)");
                assertSame(expected, writer.render(event), where + " (render on the writer)");
                assertOneObject(expected, where);
            }
            System.out.println("SpringStructuredDifferentialTest " + format + " config " + config + ": captured="
                    + writer.captured + " text records=" + writer.textRecords + " thrown=" + thrown + " by Spring="
                    + spool.springRendered());
            assertTrue(thrown < EVENTS / 4, "most events are written: " + thrown + " threw");
            long bySpring = spool.springRendered();
            // Spool renders, Spring only what collides, nests or has a GELF-invalid name (or, with a
            // stack trace printer, a throwable): each event is rendered twice (encode, writer), Spool
            // renders more than half of them — customised ones included
            // (ECS nests a prefixed pair at its dot, which Spool leaves to Spring)
            if (!(format.equals("ecs") && List.of(CONFIGS[config]).contains("logging.structured.json.context.prefix"))) {
                assertTrue(bySpring < EVENTS, "rendered by Spring's encoder (encode and writer): " + bySpring);
            }
            for (Status s : lc.getStatusManager().getCopyOfStatusList()) {
                assertTrue(s.getLevel() < Status.ERROR, () -> SpoolJsonEncoderDifferentialTest.statuses(lc));
            }
        } finally {
            TimeZone.setDefault(before);
        }
    }

    @ParameterizedTest(name = "{0} config {1} {2}")
    @MethodSource("cases")
    void appenderWritesWhatSpringBootEncodes(String format, int config, String zone, long seed, @TempDir Path dir)
            throws IOException {
        TimeZone before = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        try {
            appenderWrites(format, CONFIGS[config], seed, huge(config), dir);
        } finally {
            TimeZone.setDefault(before);
        }
    }

    private static void appenderWrites(String format, String[] config, long seed, boolean huge, Path dir) throws IOException {
        for (String render : new String[] {"caller", "writer"}) {
            LoggerContext lc = context(config);
            StructuredLogEncoder reference = reference(lc, format, config);
            SpoolJsonEncoder spool = spool(lc, format, config);
            Path file = dir.resolve(format + "-" + render + ".json");
            SpoolAppender appender = new SpoolAppender();
            appender.setContext(lc);
            appender.setName("json-" + render);
            appender.setFile(file.toString());
            appender.setRender(render);
            appender.setEncoder(spool);
            appender.start();
            assertTrue(appender.isStarted(), () -> SpoolJsonEncoderDifferentialTest.statuses(lc));
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            Random rnd = new Random(seed ^ format.hashCode());
            for (int i = 0; i < EVENTS / 3; i++) {
                LoggingEvent event = event(rnd, lc, format, huge, i);
                byte[] line;
                try {
                    line = reference.encode(event);
                } catch (RuntimeException e) {
                    continue; // Spring writes no line for it; covered above
                }
                appender.doAppend(event);
                expected.write(line);
            }
            appender.stop();
            assertSame(expected.toByteArray(), Files.readAllBytes(file), format + ", render " + render);
        }
    }

    /** A customizer class is left to Spring's encoder, saying so once; include/exclude/rename/add say nothing. */
    @Test
    void onlyACustomizerIsRenderedBySpring() {
        LoggerContext lc = context(CUSTOMIZER);
        SpoolJsonEncoder spool = spool(lc, "logstash", CUSTOMIZER);
        long warnings = lc.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getLevel() == Status.WARN && s.getMessage().contains("logging.structured.json.customizer"))
                .count();
        assertEquals(1, warnings, () -> SpoolJsonEncoderDifferentialTest.statuses(lc));
        spool.encode(event(new Random(1), lc, "logstash", false, 1));
        assertEquals(1, spool.springRendered());
        for (int c = 0; c < CONFIGS.length; c++) {
            if (c == 7) {
                continue; // stacktrace.*: events with a throwable go to Spring, with a WARN
            }
            LoggerContext plain = context(CONFIGS[c]);
            spool(plain, "logstash", CONFIGS[c]);
            assertTrue(plain.getStatusManager().getCopyOfStatusList().stream().noneMatch(s -> s.getLevel() >= Status.WARN),
                    () -> SpoolJsonEncoderDifferentialTest.statuses(plain));
        }
    }

    /** @param huge megabyte messages allowed, and the first event of each run ({@code seq} 0) has one */
    static LoggingEvent event(Random rnd, LoggerContext lc, String format, boolean huge, int seq) {
        LoggingEvent e = huge && seq == 0 ? SpoolJsonEncoderDifferentialTest.Gen.hugeEvent(rnd, lc)
                : SpoolJsonEncoderDifferentialTest.Gen.event(rnd, lc, huge);
        Map<String, String> mdc = e.getMDCPropertyMap();
        if (mdc instanceof LinkedHashMap) {
            // The generator's own map, keys drawn again from a bounded set (the JVM's key table is
            // bounded and shared with other tests): keys with a meaning, and odd ones.
            mdc.clear();
            for (int i = rnd.nextInt(5); i > 0; i--) {
                // GELF leaves names with other chars than [\\w.-] to Spring (which logs a warning): fewer of them
                String key = rnd.nextInt(format.equals("gelf") ? 10 : 2) != 0 ? KEYS[rnd.nextInt(KEYS.length)] : ODD_KEYS[rnd.nextInt(ODD_KEYS.length)];
                mdc.put(key, rnd.nextInt(10) == 0 ? null : SpoolJsonEncoderDifferentialTest.Gen.text(rnd, rnd.nextInt(4)));
            }
        }
        return e;
    }

    static LoggerContext context(String[] config) {
        LoggerContext lc = new LoggerContext();
        lc.setName("spring");
        lc.setMDCAdapter(new LogbackMDCAdapter());
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.application.pid", "4242");
        properties.put("spring.application.name", "orders");
        properties.put("spring.application.version", "1.2.3");
        for (int i = 0; i < config.length; i += 2) {
            if (!config[i].startsWith("encoder.")) {
                properties.put(config[i], config[i + 1]);
            }
        }
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        lc.putObject(Environment.class.getName(), environment);
        return lc;
    }

    /** Spring's encoder; the encoder settings of {@code config} as the properties they stand for. */
    static StructuredLogEncoder reference(LoggerContext lc, String format, String[] config) {
        LoggerContext own = lc;
        Map<String, Object> settings = new LinkedHashMap<>();
        for (int i = 0; i < config.length; i += 2) {
            if (config[i].startsWith("encoder.")) {
                String name = config[i].substring("encoder.".length());
                String value = config[i + 1];
                if (value.contains("=") && !name.equals("exclude") && !name.equals("include")) {
                    settings.put("logging.structured.json." + name + "[" + value.substring(0, value.indexOf('=')) + "]",
                            value.substring(value.indexOf('=') + 1));
                } else {
                    settings.put("logging.structured.json." + name, value);
                }
            }
        }
        if (!settings.isEmpty()) {
            own = new LoggerContext();
            StandardEnvironment environment = new StandardEnvironment();
            environment.getPropertySources().addFirst(new MapPropertySource("settings", settings));
            ((StandardEnvironment) lc.getObject(Environment.class.getName())).getPropertySources()
                    .forEach(s -> environment.getPropertySources().addLast(s));
            own.putObject(Environment.class.getName(), environment);
        }
        StructuredLogEncoder reference = new StructuredLogEncoder();
        reference.setContext(own);
        reference.setFormat(format);
        reference.start();
        return reference;
    }

    static SpoolJsonEncoder spool(LoggerContext lc, String format, String[] config) {
        SpoolJsonEncoder spool = new SpoolJsonEncoder();
        spool.setContext(lc);
        spool.setFormat("spring-" + format);
        for (int i = 0; i < config.length; i += 2) {
            switch (config[i]) {
                case "encoder.exclude" -> spool.addExclude(config[i + 1]);
                case "encoder.include" -> spool.addInclude(config[i + 1]);
                case "encoder.rename" -> spool.addRename(config[i + 1]);
                case "encoder.add" -> spool.addAdd(config[i + 1]);
                default -> {
                }
            }
        }
        spool.start();
        assertTrue(spool.isStarted(), () -> SpoolJsonEncoderDifferentialTest.statuses(lc));
        return spool;
    }

    private static void assertSame(byte[] expected, byte[] actual, String where) {
        assertArrayEquals(expected, actual, () -> where + "\nexpected " + show(expected) + "\nactual   " + show(actual));
    }

    private static String show(byte[] b) {
        String s = new String(b, StandardCharsets.UTF_8);
        return s.length() > 3000 ? s.substring(0, 3000) + "...(" + s.length() + " chars)" : s;
    }

    /** One JSON object and {@code \n}, whatever the platform's separator (Spring's {@code withNewLineAtEnd}). */
    static void assertOneObject(byte[] line, String where) throws IOException {
        assertTrue(line.length > 1 && line[line.length - 1] == '\n', where);
        String text = new String(line, 0, line.length - 1, StandardCharsets.UTF_8);
        assertEquals(-1, text.indexOf('\n'), where);
        JsonNode node = JSON.readTree(text);
        assertTrue(node.isObject() && node.size() > 2, where);
    }
}
