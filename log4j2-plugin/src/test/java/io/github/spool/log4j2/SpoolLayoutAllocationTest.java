package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.CallerAllocation;
import io.github.spool.text.CapturedRecords;
import java.nio.charset.StandardCharsets;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.time.MutableInstant;
import org.apache.logging.log4j.message.ReusableParameterizedMessage;
import org.apache.logging.log4j.util.SortedArrayStringMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SpoolLayout's encode path allocates nothing per event (after warm-up), measured with the
 * thread's allocation counter ({@code com.sun.management.ThreadMXBean}). The speed comparison
 * lives in the JMH benchmark, not here.
 */
class SpoolLayoutAllocationTest {

    private static final int WARMUP = CallerAllocation.WARMUP;
    private static final int MEASURED = CallerAllocation.MEASURED;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n",
        "%d{ISO8601_OFFSET_DATE_TIME_HHCMM}{UTC} %-5p [%-10.10t] %c{1.} %X{user} %X %.-20m%%%n",
        "%date{DEFAULT_MICROS} %level{length=1} %thread %c{-1} %c{1.1*} %mdc{user,request} %msg %ex%n",
    })
    void encodeAllocatesNothingPerEvent(String pattern) {
        SpoolLayout layout = SpoolLayout.newLayout(pattern, "UTF-8", true, null);
        SortedArrayStringMap mdc = new SortedArrayStringMap();
        mdc.putValue("user", "alice");
        mdc.putValue("request", "r-42");
        MutableInstant instant = new MutableInstant();
        instant.initFromEpochMilli(1_763_775_146_721L, 123_456);
        ReusableParameterizedMessage message = new ReusableParameterizedMessage();
        message.set("Order processed id={} status={} size={}", "500000", "OK", "7");
        LogEvent event = Log4jLogEvent.newBuilder().setLoggerName("io.github.spool.bench.anchors.Bench")
                .setLevel(Level.INFO).setThreadName("producer-2").setMessage(message).setContextData(mdc)
                .setInstant(instant).build();
        GrowableDestination dest = new GrowableDestination();
        long allocated = CallerAllocation.allocated(() -> {
            dest.reset();
            layout.encode(event, dest);
            return true;
        });
        assertTrue(dest.length() > 50, "something was encoded");
        CallerAllocation.assertNothingPerEvent(allocated, MEASURED);
    }

    /**
     * Render on the writer: the caller's capture of the same event (a parameterized message with
     * string arguments, the context map by key and whole) allocates nothing per event either.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n",
        "%d [%t] %-5level %c %X{user} %X - %-30m%n",
    })
    void captureAllocatesNothingPerEvent(String pattern) {
        SpoolLayout layout = SpoolLayout.newLayout(pattern, "UTF-8", true, null);
        SortedArrayStringMap mdc = new SortedArrayStringMap();
        mdc.putValue("user", "alice");
        mdc.putValue("request", "r-42");
        MutableInstant instant = new MutableInstant();
        instant.initFromEpochMilli(1_763_775_146_721L, 123_456);
        ReusableParameterizedMessage message = new ReusableParameterizedMessage();
        message.set("Order processed id={} status={} size={}", "500000", "OK", 7L);
        LogEvent event = Log4jLogEvent.newBuilder().setLoggerName("io.github.spool.bench.anchors.Bench")
                .setLevel(Level.INFO).setThreadName("producer-2").setMessage(message).setContextData(mdc)
                .setInstant(instant).build();
        io.github.spool.text.ByteLineBuilder record = new io.github.spool.text.ByteLineBuilder(256);
        StringBuilder text = new StringBuilder();
        EventCapture.Ids ids = new EventCapture.Ids();
        boolean exact = layout.formatsMessageChars();
        String[] keys = layout.capturedContextKeys();
        long allocated = CallerAllocation.allocated(() -> EventCapture.capture(event, record, text, ids, exact, keys));
        assertTrue(record.length() > 50, "something was captured");
        CallerAllocation.assertNothingPerEvent(allocated, MEASURED);
    }

    /**
     * The writer's half: rendering a captured record whose arguments are primitives and strings
     * allocates nothing per event either (a {@code Long} above the JDK's box cache would be a
     * 24-byte box per record if the writer boxed it again).
     */
    @Test
    void renderOnTheWriterAllocatesNothingPerEvent() {
        SpoolLayout layout = SpoolLayout.newLayout("%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n",
                "UTF-8", true, null);
        MutableInstant instant = new MutableInstant();
        instant.initFromEpochMilli(1_763_775_146_721L, 123_456);
        ReusableParameterizedMessage message = new ReusableParameterizedMessage();
        message.set(CapturedRecords.patternSentById(EventCapture.FORMATS, "Order processed id={} ok={} size={} status={}"), 7_000_000_001L, true, 1.5d, "OK");
        LogEvent event = Log4jLogEvent.newBuilder().setLoggerName("io.github.spool.bench.anchors.Bench")
                .setLevel(Level.INFO).setThreadName("producer-2").setMessage(message).setInstant(instant).build();
        ByteLineBuilder record = new ByteLineBuilder(256);
        assertTrue(EventCapture.capture(event, record, new StringBuilder(), new EventCapture.Ids(),
                layout.formatsMessageChars(), layout.capturedContextKeys()), "captured");
        ByteLineBuilder out = new ByteLineBuilder(256);
        long allocated = CapturedRecords.allocatedRendering(new WriterRenderer(layout), record, out, WARMUP, MEASURED);
        assertEquals(new String(layout.toByteArray(event), StandardCharsets.UTF_8),
                new String(out.array(), 0, out.length(), StandardCharsets.UTF_8));
        CallerAllocation.assertNothingPerEvent(allocated, MEASURED);
    }
}
