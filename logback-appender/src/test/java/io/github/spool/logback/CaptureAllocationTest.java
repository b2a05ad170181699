package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.CallerAllocation;
import io.github.spool.text.CapturedRecords;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The caller's work on an event allocates nothing per event (after warm-up), measured with the
 * thread's allocation counter ({@code com.sun.management.ThreadMXBean}): {@link SpoolEncoder}'s
 * encoding, and render on the writer's capture. The event itself is logback's and built once here. The speed comparison lives in the JMH
 * benchmark, not here.
 */
class CaptureAllocationTest {

    private static final int WARMUP = CallerAllocation.WARMUP;
    private static final int MEASURED = CallerAllocation.MEASURED;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n",
        "%d [%thread] %-5level %logger %X{user} - %msg%n",
        "%d [%thread] %-5level %logger %X - %msg%n",
    })
    void encodeOnTheCallerAllocatesNothingPerEvent(String pattern) {
        SpoolEncoder encoder = encoder(pattern);
        LoggingEvent event = event(encoder);
        ByteLineBuilder line = new ByteLineBuilder(256);
        long allocated = CallerAllocation.allocated(() -> {
            line.reset();
            encoder.encodeTo(event, line);
            return true;
        });
        assertTrue(line.length() > 50, "something was encoded");
        CallerAllocation.assertNothingPerEvent(allocated, MEASURED);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n",
        "%d [%thread] %-5level %logger %X{user} - %-30msg%n",
        "%d [%thread] %-5level %logger %X - %msg%n",
    })
    void captureAllocatesNothingPerEvent(String pattern) {
        SpoolEncoder encoder = encoder(pattern);
        assertTrue(encoder.rendersFromCapture(), "rendered on the writer: " + encoder.describe());
        LoggingEvent event = event(encoder);
        ByteLineBuilder record = new ByteLineBuilder(256);
        EventCapture.Ids ids = new EventCapture.Ids();
        String[] keys = encoder.capturedMdcKeys();
        long allocated = CallerAllocation.allocated(() -> EventCapture.capture(event, record, ids, keys));
        assertTrue(record.length() > 50, "something was captured");
        CallerAllocation.assertNothingPerEvent(allocated, MEASURED);
    }

    /**
     * The writer's half: rendering a captured event whose arguments are numbers and booleans boxes
     * none of them again (a {@code Long} above the JDK's cache would be a 16-byte box per event).
     */
    @Test
    void renderOnTheWriterBoxesNoPrimitiveArgument() {
        SpoolEncoder encoder = encoder("%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n");
        LoggingEvent event = event(encoder, CapturedRecords.patternSentById(EventCapture.FORMATS, "Order processed id={} ok={} size={} part={}"),
                new Object[] {7_000_000_001L, true, 1_234_567, (short) -300});
        ByteLineBuilder record = new ByteLineBuilder(256);
        assertTrue(EventCapture.capture(event, record, new EventCapture.Ids(), encoder.capturedMdcKeys()), "captured");
        ByteLineBuilder out = new ByteLineBuilder(256);
        long allocated = CapturedRecords.allocatedRendering(new WriterRenderer(LineEncoder.of(encoder)), record, out, WARMUP, MEASURED);
        assertEquals(new String(encoder.encode(event), StandardCharsets.UTF_8), new String(out.array(), 0, out.length(), StandardCharsets.UTF_8));
        CallerAllocation.assertNothingPerEvent(allocated, MEASURED);
    }

    /**
     * {@link SpoolJsonEncoder} on the writer, in each format: the JSON line of a captured event with
     * numeric and boolean arguments, thread, logger and context properties allocates nothing per
     * event (strings in the record, such as string arguments and MDC values, are rebuilt as
     * {@code String}s by the {@link WriterRenderer}, for either encoder).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"logstash-logback-encoder", LOGSTASH_WITH_SETTINGS, "spring-ecs", "spring-logstash", "spring-gelf", "logback-json",
        "spring-ecs" + CUSTOMISED, "spring-logstash" + CUSTOMISED, "spring-gelf" + CUSTOMISED})
    void renderJsonOnTheWriterAllocatesNothingPerEvent(String format) {
        SpoolJsonEncoder encoder = jsonEncoder(format);
        LoggingEvent event = jsonEvent(encoder, Map.of());
        LineEncoder json = LineEncoder.of(encoder);
        ByteLineBuilder record = new ByteLineBuilder(256);
        assertTrue(json.capturable(event) && EventCapture.capture(event, record, new EventCapture.Ids(), json.capturedMdcKeys()),
                "captured");
        ByteLineBuilder out = new ByteLineBuilder(256);
        WriterRenderer renderer = new WriterRenderer(json);
        long allocated = CapturedRecords.allocatedRendering(renderer, record, out, WARMUP, MEASURED);
        if (allocated >= 1024) {
            // Once the other formats' tests have run, the format's render() call site has seen
            // several JsonLine classes and may be recompiled inside the window: a one-off, not a
            // per-event cost. The steady state is the second window.
            allocated = CapturedRecords.allocatedRendering(renderer, record, out, 0, MEASURED);
        }
        assertEquals(new String(encoder.encode(event), StandardCharsets.UTF_8), new String(out.array(), 0, out.length(), StandardCharsets.UTF_8));
        CallerAllocation.assertNothingPerEvent(allocated, MEASURED);
        assertTrue(encoder.springRendered() <= 0, "rendered by Spool, not by Spring's encoder");
    }

    /** The caller's half for {@link SpoolJsonEncoder}, each format: deciding and capturing, MDC included. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"logstash-logback-encoder", LOGSTASH_WITH_SETTINGS, "spring-ecs", "spring-logstash", "spring-gelf", "logback-json",
        "spring-ecs" + CUSTOMISED, "spring-logstash" + CUSTOMISED, "spring-gelf" + CUSTOMISED})
    void captureForJsonAllocatesNothingPerEvent(String format) {
        SpoolJsonEncoder encoder = jsonEncoder(format);
        Map<String, String> mdc = new HashMap<>();
        mdc.put("user", "alice");
        mdc.put("request", "r-42");
        LoggingEvent event = jsonEvent(encoder, mdc);
        LineEncoder json = LineEncoder.of(encoder);
        ByteLineBuilder record = new ByteLineBuilder(256);
        EventCapture.Ids ids = new EventCapture.Ids();
        String[] keys = json.capturedMdcKeys();
        long allocated = CallerAllocation.allocated(() -> json.capturable(event) && EventCapture.capture(event, record, ids, keys));
        assertTrue(record.length() > 50, "something was captured");
        CallerAllocation.assertNothingPerEvent(allocated, MEASURED);
    }

    /** A Spring format with {@code logging.structured.json.*} customisations, rendered by Spool. */
    private static final String CUSTOMISED = " customised";

    /** The logstash format with {@code LogstashEncoder}'s settings, each rendered by Spool. */
    private static final String LOGSTASH_WITH_SETTINGS = "logstash-logback-encoder with settings";

    /** A started encoder; the Spring formats read the Spring {@code Environment} Boot puts in the context. */
    private static SpoolJsonEncoder jsonEncoder(String format) {
        LoggerContext lc = new LoggerContext();
        lc.putProperty("service", "orders");
        org.springframework.core.env.StandardEnvironment environment = new org.springframework.core.env.StandardEnvironment();
        environment.getPropertySources().addFirst(new org.springframework.core.env.MapPropertySource("test",
                Map.of("spring.application.name", "orders", "spring.application.pid", "4242")));
        lc.putObject(org.springframework.core.env.Environment.class.getName(), environment);
        SpoolJsonEncoder encoder = new SpoolJsonEncoder();
        encoder.setContext(lc);
        if (format.equals(LOGSTASH_WITH_SETTINGS)) {
            encoder.setCustomFields("{\"app\":\"orders\",\"n\":[1,2.5,{\"x\":null}]}");
            JsonFieldNames names = new JsonFieldNames();
            names.setTimestamp("time");
            names.setMdc("mdc");
            names.setLevelValue(JsonFieldNames.IGNORE);
            encoder.setFieldNames(names);
            encoder.addExcludeMdcKeyName("request");
            encoder.addMdcKeyFieldName("user=who");
            encoder.setTimestampPattern("yyyy-MM-dd HH:mm:ss.SSS");
            encoder.setTimeZone("Europe/Paris");
        } else if (format.endsWith(CUSTOMISED)) {
            // include/exclude/rename/add as users write them, nested paths and context pairs included
            encoder.setFormat(format.substring(0, format.length() - CUSTOMISED.length()));
            encoder.addExclude("process.pid,_process_pid,level_value,request,_request,ecs.version");
            encoder.addRename("log.level=severity");
            encoder.addRename("thread_name=thread");
            encoder.addRename("user=who");
            encoder.addRename("_user=_who");
            encoder.addAdd("team=checkout");
            encoder.addAdd("labels.zone=eu");
        } else {
            encoder.setFormat(format);
        }
        encoder.start();
        assertFalse(encoder.realEncoderOnly(), "rendered by Spool");
        return encoder;
    }

    private static LoggingEvent jsonEvent(SpoolJsonEncoder encoder, Map<String, String> mdc) {
        LoggingEvent event = new LoggingEvent();
        event.setLoggerContext((LoggerContext) encoder.getContext());
        event.setLevel(Level.INFO);
        event.setLoggerName(SpoolEncoderDifferentialTest.Gen.LOGGER_POOL[0]);
        event.setThreadName(SpoolEncoderDifferentialTest.Gen.THREAD_POOL[0]);
        event.setMessage(CapturedRecords.patternSentById(EventCapture.FORMATS, "Order \"processed\" id={} ok={} size={}"));
        event.setArgumentArray(new Object[] {7_000_000_001L, true, 1_234_567});
        event.setTimeStamp(1_763_775_146_721L);
        event.setMDCPropertyMap(mdc);
        // as a logger's event carries it (logback-json prints it; the writer reads the context's own)
        event.setLoggerContextRemoteView(((LoggerContext) encoder.getContext()).getLoggerContextRemoteView());
        return event;
    }

    private static SpoolEncoder encoder(String pattern) {
        SpoolEncoder encoder = new SpoolEncoder();
        encoder.setContext(new LoggerContext());
        encoder.setPattern(pattern);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        return encoder;
    }

    /** A logback event as a logger makes it: a pattern with arguments, an MDC of two entries. */
    private static LoggingEvent event(SpoolEncoder encoder) {
        return event(encoder, "Order processed id={} status={} size={}", new Object[] {"500000", "OK", 7_000_000L});
    }

    private static LoggingEvent event(SpoolEncoder encoder, String message, Object[] args) {
        LoggingEvent event = new LoggingEvent();
        event.setLoggerContext((LoggerContext) encoder.getContext());
        event.setLevel(Level.INFO);
        // Names from the differential tests' pools: the name tables are the JVM's, bounded, and
        // those tests may have filled them; their pool names were registered first.
        event.setLoggerName(SpoolEncoderDifferentialTest.Gen.LOGGER_POOL[0]);
        event.setThreadName(SpoolEncoderDifferentialTest.Gen.THREAD_POOL[0]);
        event.setMessage(message);
        event.setArgumentArray(args);
        event.setTimeStamp(1_763_775_146_721L);
        Map<String, String> mdc = new HashMap<>();
        mdc.put("user", "alice");
        mdc.put("request", "r-42");
        event.setMDCPropertyMap(mdc);
        return event;
    }
}
