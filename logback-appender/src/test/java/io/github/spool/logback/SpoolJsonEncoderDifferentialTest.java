package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.status.Status;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TimeZone;
import java.util.function.Supplier;
import java.util.stream.Stream;
import net.logstash.logback.argument.StructuredArguments;
import net.logstash.logback.encoder.LogstashEncoder;
import net.logstash.logback.marker.Markers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;
import org.slf4j.event.KeyValuePair;

/**
 * Differential test: seeded events through logstash-logback-encoder's {@code LogstashEncoder}
 * (default settings) and through {@link SpoolJsonEncoder} must give identical bytes — from
 * {@link SpoolJsonEncoder#encode}, from the writer's path ({@link ViaWriter}: captured, then
 * rendered from the record), and end to end through a {@link SpoolAppender} writing a file with
 * {@code render} {@code caller} and {@code writer} — in several time zones; and every line must
 * parse as one JSON object. Both encoders read the default time zone when created, so each is
 * created under the zone being tested. The seed is printed on failure.
 */
class SpoolJsonEncoderDifferentialTest {

    private static final String[] ZONES = {"UTC", "America/New_York", "Asia/Kathmandu", "Australia/Lord_Howe"};
    private static final int EVENTS = 3000;
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> zonesAndSeeds() {
        long base = Long.getLong("spool.test.seed", 0x150_0_5EEDL);
        List<Arguments> out = new ArrayList<>();
        for (int z = 0; z < ZONES.length; z++) {
            out.add(Arguments.of(ZONES[z], base + z));
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("zonesAndSeeds")
    void encodesWhatLogstashEncoderEncodes(String zone, long seed) throws IOException {
        LoggerContext lc = context(seed);
        LogstashEncoder reference = inZone(zone, LogstashEncoder::new);
        SpoolJsonEncoder spool = inZone(zone, SpoolJsonEncoder::new);
        start(lc, reference, spool);
        ViaWriter writer = new ViaWriter(LineEncoder.of(spool));
        Random rnd = new Random(seed);
        for (int i = 0; i < EVENTS; i++) {
            LoggingEvent event = Gen.event(rnd, lc);
            boolean spoolFirst = (i & 1) == 0; // logback caches the formatted message: either order
            byte[] first = spoolFirst ? spool.encode(event) : null;
            byte[] expected = reference.encode(event);
            byte[] actual = spoolFirst ? first : spool.encode(event);
            String where = "zone " + zone + ", seed " + seed + ", event " + i;
            assertSame(expected, actual, where + " (encode)");
            assertSame(expected, writer.render(event), where + " (render on the writer)");
            assertOneObject(expected, where);
        }
        System.out.println("SpoolJsonEncoderDifferentialTest " + zone + " seed " + seed + ": captured=" + writer.captured
                + " text records=" + writer.textRecords);
        assertTrue(writer.captured > EVENTS / 4 && writer.textRecords > EVENTS / 10,
                "both writer paths taken: captured " + writer.captured + ", text records " + writer.textRecords);
    }

    @ParameterizedTest
    @MethodSource("zonesAndSeeds")
    void appenderWritesWhatLogstashEncoderEncodes(String zone, long seed, @TempDir Path dir) throws IOException {
        for (String render : new String[] {"caller", "writer"}) {
            LoggerContext lc = context(seed);
            LogstashEncoder reference = inZone(zone, LogstashEncoder::new);
            SpoolJsonEncoder spool = inZone(zone, SpoolJsonEncoder::new);
            start(lc, reference, spool);
            Path file = dir.resolve(render + ".json");
            SpoolAppender appender = new SpoolAppender();
            appender.setContext(lc);
            appender.setName("json-" + render);
            appender.setFile(file.toString());
            appender.setRender(render);
            appender.setEncoder(spool);
            appender.start();
            assertTrue(appender.isStarted(), () -> statuses(lc));
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            Random rnd = new Random(seed);
            for (int i = 0; i < EVENTS / 3; i++) {
                LoggingEvent event = Gen.event(rnd, lc);
                appender.doAppend(event);
                expected.write(reference.encode(event));
            }
            appender.stop();
            for (Status s : lc.getStatusManager().getCopyOfStatusList()) {
                assertTrue(s.getLevel() < Status.WARN, () -> render + ": " + statuses(lc));
            }
            byte[] actual = Files.readAllBytes(file);
            assertSame(expected.toByteArray(), actual, "zone " + zone + ", seed " + seed + ", render " + render);
        }
    }

    @Test
    void anUnsupportedFormatIsAnErrorAndTheDefaultFormatIsWritten() {
        LoggerContext lc = context(7);
        SpoolJsonEncoder spool = new SpoolJsonEncoder();
        spool.setContext(lc);
        spool.setFormat("spring-ecs-2");
        spool.start();
        assertTrue(spool.isStarted());
        assertTrue(lc.getStatusManager().getCopyOfStatusList().stream().anyMatch(s -> s.getLevel() == Status.ERROR
                && s.getMessage().contains("\"spring-ecs-2\"") && s.getMessage().contains("logstash-logback-encoder")),
                () -> statuses(lc));
        LogstashEncoder reference = new LogstashEncoder();
        reference.setContext(lc);
        reference.start();
        LoggingEvent event = Gen.event(new Random(7), lc);
        assertSame(reference.encode(event), spool.encode(event), "the default format");
        spool.stop();
    }

    private static LoggerContext context(long seed) {
        LoggerContext lc = new LoggerContext();
        lc.setName("ctx-" + seed);
        lc.setMDCAdapter(new LogbackMDCAdapter()); // an event without MDC map asks it
        lc.putProperty("service", "spool \"json\"\t✓");
        lc.putProperty("region", "eu/west-1");
        return lc;
    }

    private static <T> T inZone(String zone, Supplier<T> create) {
        TimeZone before = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        try {
            return create.get();
        } finally {
            TimeZone.setDefault(before);
        }
    }

    private static void start(LoggerContext lc, LogstashEncoder reference, SpoolJsonEncoder spool) {
        reference.setContext(lc);
        reference.start();
        spool.setContext(lc);
        spool.start();
        assertTrue(reference.isStarted() && spool.isStarted(), () -> statuses(lc));
    }

    private static void assertSame(byte[] expected, byte[] actual, String where) {
        assertArrayEquals(expected, actual, () -> where + "\nexpected " + show(expected) + "\nactual   " + show(actual));
    }

    private static String show(byte[] b) {
        String s = new String(b, StandardCharsets.UTF_8);
        return s.length() > 2000 ? s.substring(0, 2000) + "...(" + s.length() + " chars)" : s;
    }

    /** The line is one JSON object followed by the line separator, read by a real JSON parser. */
    private static void assertOneObject(byte[] line, String where) throws IOException {
        byte[] sep = System.lineSeparator().getBytes(StandardCharsets.UTF_8);
        assertTrue(line.length > sep.length && Arrays.equals(line, line.length - sep.length, line.length, sep, 0, sep.length), where);
        String text = new String(line, 0, line.length - sep.length, StandardCharsets.UTF_8);
        assertEquals(-1, text.indexOf('\n'), where);
        JsonNode node = JSON.readTree(text);
        assertTrue(node.isObject() && node.has("@timestamp") && node.has("level_value"), where);
    }

    static String statuses(LoggerContext lc) {
        return SpoolEncoderDifferentialTest.statuses(lc);
    }

    /** Seeded events with what JSON encoders must escape and every field the default output has. */
    static final class Gen {
        private static final String[] PIECES = {"a", "b", "hello", " ", "  ", "{}", "{}", "\"", "\\", "/", "\\{}", "é", "ß",
            "日本語", "😀", "\ud83d\ude80", "\ud800", "\udc00", "\udbff", "\u2028", "\u0085", "\u007f", "\u0000", "\u0001",
            "\b", "\t", "\n", "\f", "\r", "\u001b", "\u001f", "x=", "<tag>", "&", "'", "\uffff", "\ufeff"};
        private static final String[] LOGGERS = {"com.example.Service", "root", "a.b.C", "ünïcödé.Lögger", "q\"uote",
            "x\\y", "emoji😀.L", "lone\ud800"};
        private static final String[] THREADS = {"main", "pool-1-thread-1", "worker \"7\"", "t\tab", "日本", "\udc00x",
            "http-nio-8080-exec-10"};
        private static final Level[] LEVELS = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR};
        /**
         * MDC and key-value keys, drawn once (odd characters included) from a fixed seed: the
         * capture's key table is JVM-wide and bounded (4,096 names), shared with every test of
         * this module's JVM; keys made afresh per event filled it, and later tests' events were
         * then no longer captured.
         */
        static final List<String> KEYS = keys();

        private static List<String> keys() {
            Random rnd = new Random(20261127L);
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 96; i++) {
                keys.add(text(rnd, 1 + rnd.nextInt(3)));
            }
            return List.copyOf(keys);
        }
        /** Around DST changes of the zones tested, leap days, and ordinary days. */
        private static final long[] EPOCHS = {
            Instant.parse("2024-03-10T06:59:58Z").getEpochSecond(), // New York springs forward at 07:00Z
            Instant.parse("2024-11-03T05:59:58Z").getEpochSecond(), // and falls back at 06:00Z
            Instant.parse("2024-04-06T14:59:58Z").getEpochSecond(), // Lord Howe: +11 to +10:30
            Instant.parse("2024-02-29T23:59:58Z").getEpochSecond(),
            Instant.parse("2023-12-31T23:59:59Z").getEpochSecond(),
            Instant.parse("2026-11-27T16:00:00Z").getEpochSecond(),
            Instant.parse("1970-01-01T00:00:00Z").getEpochSecond(),
            Instant.parse("1890-06-01T12:00:00Z").getEpochSecond(), // local mean time: offsets with seconds
        };

        static LoggingEvent event(Random rnd, LoggerContext lc) {
            return event(rnd, lc, true);
        }

        /**
         * @param huge whether one event in 200 has a message of 2^20 pieces (megabytes, what
         *             grows every buffer on the way); without, those get 20,000 pieces. The
         *             suites that repeat this generator over dozens of configurations allow huge
         *             messages in a few of them: the reference encoders spent most of those suites'
         *             minute in them (Spring's per-character string writer alone half of it).
         */
        static LoggingEvent event(Random rnd, LoggerContext lc, boolean huge) {
            return event(rnd, lc, huge, false);
        }

        /** An event like the others whose message is of 2^20 pieces, whatever the draw. */
        static LoggingEvent hugeEvent(Random rnd, LoggerContext lc) {
            return event(rnd, lc, true, true);
        }

        private static LoggingEvent event(Random rnd, LoggerContext lc, boolean huge, boolean forceHuge) {
            LoggingEvent e = new LoggingEvent();
            e.setLoggerContext(lc);
            e.setLevel(LEVELS[rnd.nextInt(LEVELS.length)]);
            e.setLoggerName(LOGGERS[rnd.nextInt(LOGGERS.length)]);
            e.setThreadName(THREADS[rnd.nextInt(THREADS.length)]);
            e.setInstant(Instant.ofEpochSecond(EPOCHS[rnd.nextInt(EPOCHS.length)] + rnd.nextInt(5), nanos(rnd)));
            int big = forceHuge ? 0 : rnd.nextInt(200);
            e.setMessage(big == 0 ? text(rnd, huge ? 1 << 20 : 20_000) : big < 4 ? text(rnd, 20_000) : rnd.nextInt(30) == 0 ? null : text(rnd, rnd.nextInt(12)));
            if (rnd.nextInt(3) == 0) {
                e.setArgumentArray(args(rnd));
            }
            if (rnd.nextInt(3) != 0) {
                Map<String, String> mdc = new LinkedHashMap<>();
                for (int i = rnd.nextInt(5); i > 0; i--) {
                    mdc.put(rnd.nextInt(8) == 0 ? "k" + i : KEYS.get(rnd.nextInt(KEYS.size())), rnd.nextInt(10) == 0 ? null : text(rnd, rnd.nextInt(4)));
                }
                e.setMDCPropertyMap(mdc);
            } else {
                e.setMDCPropertyMap(rnd.nextBoolean() ? Map.of() : null);
            }
            if (rnd.nextInt(6) == 0) {
                for (int i = 1 + rnd.nextInt(2); i > 0; i--) {
                    e.addMarker(marker(rnd));
                }
            }
            if (rnd.nextInt(6) == 0) {
                for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
                    e.addKeyValuePair(new KeyValuePair(rnd.nextInt(10) == 0 ? null : KEYS.get(rnd.nextInt(KEYS.size())), value(rnd)));
                }
            }
            if (rnd.nextInt(8) == 0) {
                e.setThrowableProxy(new ThrowableProxy(throwable(rnd)));
            }
            return e;
        }

        private static int nanos(Random rnd) {
            switch (rnd.nextInt(5)) {
                case 0:
                    return 0;
                case 1:
                    return rnd.nextInt(1000) * 1_000_000;
                case 2:
                    return rnd.nextInt(1_000_000) * 1000;
                case 3:
                    return rnd.nextInt(10) * 100_000_000;
                default:
                    return rnd.nextInt(1_000_000_000);
            }
        }

        static String text(Random rnd, int pieces) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < pieces; i++) {
                sb.append(PIECES[rnd.nextInt(PIECES.length)]);
            }
            return sb.toString();
        }

        private static Object[] args(Random rnd) {
            Object[] args = new Object[rnd.nextInt(4)];
            for (int i = 0; i < args.length; i++) {
                switch (rnd.nextInt(9)) {
                    case 0:
                        args[i] = null;
                        break;
                    case 1:
                        args[i] = rnd.nextInt();
                        break;
                    case 2:
                        args[i] = rnd.nextLong();
                        break;
                    case 3:
                        args[i] = rnd.nextBoolean();
                        break;
                    case 4:
                        args[i] = rnd.nextDouble();
                        break;
                    case 5:
                        args[i] = StructuredArguments.kv(text(rnd, 1), text(rnd, 2));
                        break;
                    case 6:
                        args[i] = new StringBuilder(text(rnd, 2));
                        break;
                    default:
                        args[i] = text(rnd, 3);
                }
            }
            return args;
        }

        private static Object value(Random rnd) {
            switch (rnd.nextInt(7)) {
                case 0:
                    return null;
                case 1:
                    return rnd.nextInt();
                case 2:
                    return rnd.nextBoolean();
                case 3:
                    return rnd.nextDouble();
                case 4:
                    return (short) rnd.nextInt();
                default:
                    return text(rnd, 3);
            }
        }

        @SuppressWarnings("deprecation") // Marker.add: references, which LogstashEncoder prints as tags
        private static Marker marker(Random rnd) {
            if (rnd.nextInt(5) == 0) {
                return Markers.append(text(rnd, 1), text(rnd, 2)); // a LogstashMarker: the real encoder renders it
            }
            Marker m = MarkerFactory.getDetachedMarker(text(rnd, 1 + rnd.nextInt(2)));
            for (int i = rnd.nextInt(3); i > 0; i--) {
                m.add(MarkerFactory.getDetachedMarker(text(rnd, 1)));
            }
            return m;
        }

        private static Throwable throwable(Random rnd) {
            RuntimeException cause = new IllegalStateException(text(rnd, 3));
            RuntimeException t = new RuntimeException(rnd.nextBoolean() ? null : text(rnd, 4), rnd.nextBoolean() ? cause : null);
            if (rnd.nextBoolean()) {
                t.addSuppressed(new IOException(text(rnd, 2)));
            }
            return t;
        }
    }
}
