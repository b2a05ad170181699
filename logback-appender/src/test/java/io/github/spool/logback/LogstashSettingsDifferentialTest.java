package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TimeZone;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test of {@code LogstashEncoder}'s settings: the same logback XML elements configure
 * a {@code LogstashEncoder} and a {@link SpoolJsonEncoder} (so the element names are the same), and
 * seeded hostile events ({@link SpoolJsonEncoderDifferentialTest.Gen}) must give identical bytes
 * through {@code encode}, the writer's path ({@link ViaWriter}) and a {@link SpoolAppender} with
 * {@code render} {@code caller} and {@code writer}, in three default time zones; each line parses
 * as one JSON object. The seed is printed on failure.
 */
class LogstashSettingsDifferentialTest {

    private static final String[] ZONES = {"UTC", "America/New_York", "Australia/Lord_Howe"};
    private static final int EVENTS = 900;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * User-style configurations: name, then the encoder's child elements, then Spool's where they
     * differ (logback gives a {@code <fieldNames class="..."/>} object only to {@code LogstashEncoder}).
     */
    private static final String[][] CONFIGS = {
        {"customFields", "<customFields>{\"app\":\"shop\",\"n\":1,\"big\":12345678901234,\"f\":1.50,\"e\":1e3,"
            + "\"nested\":{\"a\":[1,\"x\\u00e9/\\u0001\",null,true,{}],\"b\":false},\"esc\":\"q\\\"u\\\\o\\u2028te\","
            + "\"app\":\"dup\"}</customFields>"},
        {"includeMdcKeyName", "<includeMdcKeyName>k1</includeMdcKeyName><includeMdcKeyName>k3</includeMdcKeyName>"},
        {"excludeMdcKeyName", "<excludeMdcKeyName>k1</excludeMdcKeyName><excludeMdcKeyName>k2</excludeMdcKeyName>"},
        {"mdcKeyFieldName", "<mdcKeyFieldName>k1=first</mdcKeyFieldName><mdcKeyFieldName>k2=@second</mdcKeyFieldName>"},
        {"fieldNames", "<fieldNames><timestamp>time</timestamp><version>[ignore]</version><message>msg</message>"
            + "<logger>logger</logger><thread>thread</thread><level>severity</level><levelValue>[ignore]</levelValue>"
            + "<stackTrace>trace</stackTrace><tags>labels</tags></fieldNames>"},
        {"fieldNames nested", "<fieldNames><mdc>mdc</mdc><context>ctx</context><keyValuePair>kv</keyValuePair>"
            + "<timestamp>[ignore]</timestamp><version>[ignore]</version><message>[ignore]</message></fieldNames>"},
        {"fieldNames class", "<fieldNames class='net.logstash.logback.fieldnames.ShortenedFieldNames'/>",
            "<fieldNamesClass>net.logstash.logback.fieldnames.ShortenedFieldNames</fieldNamesClass>"},
        {"fieldNames subclass", "<fieldNames class='" + NestedNames.class.getName() + "'/>",
            "<fieldNamesClass>" + NestedNames.class.getName() + "</fieldNamesClass>"},
        {"unix millis", "<timestampPattern>[UNIX_TIMESTAMP_AS_NUMBER]</timestampPattern>"},
        {"unix millis string", "<timestampPattern>[UNIX_TIMESTAMP_AS_STRING]</timestampPattern>"},
        {"pattern and zone", "<timestampPattern>yyyy-MM-dd'T'HH:mm:ss.SSSxxx</timestampPattern><timeZone>Asia/Kathmandu</timeZone>"},
        {"iso instant", "<timestampPattern>[ISO_INSTANT]</timestampPattern>"},
        {"iso zoned", "<timestampPattern>[ISO_ZONED_DATE_TIME]</timestampPattern><timeZone>America/New_York</timeZone>"},
        {"iso local, UTC", "<timestampPattern>[ISO_LOCAL_DATE_TIME]</timestampPattern><timeZone>UTC</timeZone>"},
        {"odd pattern", "<timestampPattern>EEE, d MMM yyyy HH:mm:ss 'q\"' n</timestampPattern>"},
        {"shortened throwable", "<throwableConverter class='net.logstash.logback.stacktrace.ShortenedThrowableConverter'>"
            + "<maxDepthPerThrowable>3</maxDepthPerThrowable><maxLength>600</maxLength>"
            + "<shortenedClassNameLength>12</shortenedClassNameLength><rootCauseFirst>true</rootCauseFirst>"
            + "<exclude>^org\\.junit\\.</exclude></throwableConverter>"},
        {"everything", "<customFields>{\"team\":\"checkout\",\"v\":[2,3]}</customFields>"
            + "<excludeMdcKeyName>k4</excludeMdcKeyName><mdcKeyFieldName>k1=one</mdcKeyFieldName>"
            + "<fieldNames><timestamp>ts</timestamp><level>lvl</level><mdc>mdc</mdc><tags>[ignore]</tags></fieldNames>"
            + "<timestampPattern>[ISO_OFFSET_DATE_TIME]</timestampPattern><timeZone>Europe/Paris</timeZone>"
            + "<throwableConverter class='net.logstash.logback.stacktrace.ShortenedThrowableConverter'>"
            + "<maxDepthPerThrowable>2</maxDepthPerThrowable></throwableConverter>"},
        {"providers left out", "<includeMdc>false</includeMdc><includeContext>false</includeContext>"
            + "<includeTags>false</includeTags><includeKeyValuePairs>false</includeKeyValuePairs>"},
        {"version", "<version>2.1-\"beta\"\\</version>"},
        {"version as integer", "<version>007</version><writeVersionAsInteger>true</writeVersionAsInteger>"},
        {"caller data and short logger names", "<includeCallerData>true</includeCallerData>"
            + "<shortenedLoggerNameLength>10</shortenedLoggerNameLength>"},
        {"providers added", "<provider class='net.logstash.logback.composite.loggingevent.ThreadNameJsonProvider'><fieldName>t</fieldName></provider>"
            + "<provider class='net.logstash.logback.composite.loggingevent.LoggerNameJsonProvider'>"
            + "<fieldName>short_logger</fieldName><shortenedLoggerNameLength>8</shortenedLoggerNameLength></provider>"},
        {"key-value key names", "<excludeKeyValueKeyName>" + xmlKey(0)
            + "</excludeKeyValueKeyName><keyValueKeyFieldName>" + xmlKey(1) + "=renamed</keyValueKeyFieldName>"},
        {"key-value key names included", "<includeKeyValueKeyName>" + xmlKey(2) + "</includeKeyValueKeyName>"},
    };

    /** Elements whose settings only logstash-logback-encoder's own encoder renders. */
    private static final String[] REAL_ENCODER_ELEMENTS = {
        " n</timestampPattern>", "<includeCallerData>", "<provider ", "KeyValueKey"};

    /**
     * The {@code n}th of the generator's key-value keys that an XML element can carry as written
     * (letters, digits and printable ASCII, without {@code =}), escaped for XML: one the events use.
     */
    private static String xmlKey(int n) {
        String key = SpoolJsonEncoderDifferentialTest.Gen.KEYS.stream()
                .filter(k -> k.chars().allMatch(ch -> ch != '=' && (ch > 0x20 && ch < 0x7f || Character.isLetterOrDigit(ch))))
                .skip(n).findFirst().orElseThrow();
        return key.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&apos;").replace("\"", "&quot;");
    }

    /** A user's {@code LogstashFieldNames}: its own defaults, and settable as the element's children. */
    public static class NestedNames extends net.logstash.logback.fieldnames.ShortenedFieldNames {
        /** The MDC and key-value pairs nested, the thread short. */
        public NestedNames() {
            setLevel("sev");
            setVersion("[ignore]");
            setMdc("mdc");
            setKeyValuePair("kv");
            setThread("t");
        }
    }

    static Stream<Arguments> configurations() {
        long base = Long.getLong("spool.test.seed", 0x150_5E77L);
        List<Arguments> out = new ArrayList<>();
        for (int c = 0; c < CONFIGS.length; c++) {
            String[] config = CONFIGS[c];
            // megabyte messages (Gen.event's huge) in every sixth configuration only
            out.add(Arguments.of(config[0], config[1], config.length > 2 ? config[2] : config[1], ZONES[c % ZONES.length],
                    base + c, c % 6 == 0));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} in {3}")
    @MethodSource("configurations")
    void encodesWhatLogstashEncoderEncodes(String name, String elements, String spoolElements, String zone, long seed,
            boolean huge, @TempDir Path dir)
            throws Exception {
        for (String render : new String[] {"caller", "writer"}) {
            Path file = dir.resolve(render + ".json");
            LoggerContext lc = configure(zone, elements, spoolElements, file, render);
            Encoder<ILoggingEvent> reference = holder(lc, "REF").encoder();
            SpoolJsonEncoder spool = (SpoolJsonEncoder) holder(lc, "SPOOL").encoder();
            SpoolAppender appender = (SpoolAppender) lc.getLogger("held").getAppender("APPENDER");
            assertTrue(reference.isStarted() && spool.isStarted() && appender.isStarted(),
                    () -> SpoolJsonEncoderDifferentialTest.statuses(lc));
            ViaWriter writer = new ViaWriter(LineEncoder.of(spool));
            ByteArrayOutputStream expectedFile = new ByteArrayOutputStream();
            Random rnd = new Random(seed);
            for (int i = 0; i < EVENTS; i++) {
                LoggingEvent event = huge && i == 0 ? SpoolJsonEncoderDifferentialTest.Gen.hugeEvent(rnd, lc) // one at least
                        : SpoolJsonEncoderDifferentialTest.Gen.event(rnd, lc, huge);
                boolean spoolFirst = (i & 1) == 0; // logback caches the formatted message: either order
                byte[] first = spoolFirst ? spool.encode(event) : null;
                byte[] expected = reference.encode(event);
                byte[] actual = spoolFirst ? first : spool.encode(event);
                String where = name + ", zone " + zone + ", seed " + seed + ", event " + i;
                assertSame(expected, actual, where + " (encode)");
                assertSame(expected, writer.render(event), where + " (render on the writer)");
                assertOneObject(expected, where);
                appender.doAppend(event);
                expectedFile.write(expected);
            }
            appender.stop();
            for (Status s : lc.getStatusManager().getCopyOfStatusList()) {
                assertTrue(s.getLevel() < Status.ERROR, () -> name + ": " + SpoolJsonEncoderDifferentialTest.statuses(lc));
            }
            // Rendered by Spool, on the writer where it can be: only a pattern or a setting Spool
            // does not reproduce leaves every line to LogstashEncoder, and says so once per encoder.
            boolean real = Stream.of(REAL_ENCODER_ELEMENTS).anyMatch(elements::contains);
            assertEquals(real, spool.realEncoderOnly(), () -> name + ": " + SpoolJsonEncoderDifferentialTest.statuses(lc));
            long warnings = lc.getStatusManager().getCopyOfStatusList().stream()
                    .filter(s -> s.getLevel() == Status.WARN && s.getMessage().contains("on the logging thread")).count();
            assertEquals(real ? 2 : 0, warnings, () -> SpoolJsonEncoderDifferentialTest.statuses(lc));
            if (!real) {
                assertTrue(writer.captured > EVENTS / 4, name + ": captured " + writer.captured);
            }
            assertSame(expectedFile.toByteArray(), Files.readAllBytes(file), name + ", zone " + zone + ", seed " + seed
                    + ", render " + render);
            lc.stop();
        }
    }

    @Test
    void aProviderThatIsNotAJsonProviderIsAnErrorAndTheEncoderStillStarts() throws JoranException {
        // addProvider takes logback's ContextAware (JsonProvider's supertype): another ContextAware
        // class gets that far, and is then refused by name instead of failing the start.
        String xml = "<configuration><appender name='SPOOL' class='io.github.spool.logback.EncoderHolder'>"
                + "<encoder class='io.github.spool.logback.SpoolJsonEncoder'>"
                + "<provider class='ch.qos.logback.core.spi.ContextAwareBase'/></encoder></appender>"
                + "<logger name='held' additivity='false' level='OFF'><appender-ref ref='SPOOL'/></logger></configuration>";
        LoggerContext lc = LogbackConfigured.newContext();
        LogbackConfigured.configure(lc, xml);
        SpoolJsonEncoder spool = (SpoolJsonEncoder) holder(lc, "SPOOL").encoder();
        assertTrue(spool.isStarted(), () -> SpoolJsonEncoderDifferentialTest.statuses(lc));
        assertTrue(lc.getStatusManager().getCopyOfStatusList().stream().anyMatch(st -> st.getLevel() == Status.ERROR
                && st.getMessage().contains("ContextAwareBase is not a net.logstash.logback.composite.JsonProvider")),
                () -> SpoolJsonEncoderDifferentialTest.statuses(lc));
        lc.stop();
    }

    /** Three appenders from one XML: the reference encoder, Spool's, and a SpoolAppender with Spool's. */
    private static LoggerContext configure(String zone, String elements, String spoolElements, Path file, String render)
            throws JoranException {
        String xml = "<configuration>\n"
                + "<property name='service' value='spool &quot;json&quot;'/>\n"
                + "<appender name='REF' class='io.github.spool.logback.EncoderHolder'>"
                + "<encoder class='net.logstash.logback.encoder.LogstashEncoder'>" + elements + "</encoder></appender>\n"
                + "<appender name='SPOOL' class='io.github.spool.logback.EncoderHolder'>"
                + "<encoder class='io.github.spool.logback.SpoolJsonEncoder'>" + spoolElements + "</encoder></appender>\n"
                + "<appender name='APPENDER' class='io.github.spool.logback.SpoolAppender'><file>" + file + "</file>"
                + "<render>" + render + "</render>"
                + "<encoder class='io.github.spool.logback.SpoolJsonEncoder'>" + spoolElements + "</encoder></appender>\n"
                + "<logger name='held' additivity='false' level='OFF'><appender-ref ref='REF'/><appender-ref ref='SPOOL'/>"
                + "<appender-ref ref='APPENDER'/></logger>\n"
                + "</configuration>\n";
        LoggerContext lc = LogbackConfigured.newContext();
        lc.setName("settings");
        TimeZone before = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone(zone)); // both encoders read it when created
        try {
            LogbackConfigured.configure(lc, xml);
        } finally {
            TimeZone.setDefault(before);
        }
        return lc;
    }

    private static EncoderHolder holder(LoggerContext lc, String name) {
        return (EncoderHolder) lc.getLogger("held").getAppender(name);
    }

    private static void assertSame(byte[] expected, byte[] actual, String where) {
        assertArrayEquals(expected, actual, () -> where + "\nexpected " + show(expected) + "\nactual   " + show(actual));
    }

    private static String show(byte[] b) {
        String s = new String(b, StandardCharsets.UTF_8);
        return s.length() > 2000 ? s.substring(0, 2000) + "...(" + s.length() + " chars)" : s;
    }

    private static void assertOneObject(byte[] line, String where) throws IOException {
        String text = new String(line, StandardCharsets.UTF_8).stripTrailing();
        assertEquals(-1, text.indexOf('\n'), where);
        assertTrue(JSON.readTree(text).isObject(), where);
    }
}
