package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.CallerAllocation;
import io.github.spool.text.CapturedRecords;
import java.nio.charset.StandardCharsets;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.impl.MutableLogEvent;
import org.apache.logging.log4j.core.time.MutableInstant;
import org.apache.logging.log4j.message.ReusableParameterizedMessage;
import org.apache.logging.log4j.util.SortedArrayStringMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * With {@link SpoolJsonTemplateLayout} rendering on the writer, the calling thread's share of an
 * event — the check that it may be captured and the capture itself — allocates nothing (after
 * warm-up), for each shipped template; measured with the thread's allocation counter ({@code
 * com.sun.management.ThreadMXBean}) as {@link SpoolLayoutAllocationTest} does. So does the
 * writer's rendering of the record (the template compiled into field writers, {@link
 * NativeJsonTemplate}), which must also write JsonTemplateLayout's bytes.
 */
class SpoolJsonTemplateLayoutAllocationTest {

    private static final int WARMUP = CallerAllocation.WARMUP;
    private static final int MEASURED = CallerAllocation.MEASURED;

    @ParameterizedTest(name = "{0}, the logger's own event: {1}")
    @CsvSource({"classpath:EcsLayout.json, true", "classpath:LogstashJsonEventLayoutV1.json, true",
        "classpath:GelfLayout.json, true", "classpath:EcsLayout.json, false"})
    void captureOnTheCallerAndRenderingOnTheWriterAllocateNothingPerEvent(String template, boolean loggersOwn) {
        SpoolJsonTemplateLayout layout = SpoolJsonTemplateLayout.newBuilder()
                .setConfiguration(new DefaultConfiguration()).setEventTemplateUri(template).build();
        assertTrue(layout.rendersFromCapture(), layout.describe());
        SortedArrayStringMap mdc = new SortedArrayStringMap();
        mdc.putValue("user", "alice");
        mdc.putValue("request", "r-42");
        MutableInstant instant = new MutableInstant();
        instant.initFromEpochMilli(1_763_775_146_721L, 123_456);
        ReusableParameterizedMessage message = new ReusableParameterizedMessage();
        message.set("Order processed id={} status={} size={}", "500000", "OK", 7L);
        LogEvent built = Log4jLogEvent.newBuilder().setLoggerName("io.github.spool.bench.anchors.Bench")
                .setLevel(Level.INFO).setThreadName("producer-2").setMessage(message).setContextData(mdc)
                .setInstant(instant).build();
        LogEvent event = built;
        if (loggersOwn) {
            // What a synchronous logger hands its appenders: its reusable event, which took the
            // message's text and parameters and is its own message.
            MutableLogEvent own = new MutableLogEvent();
            own.initFrom(built);
            assertSame(own, own.getMessage());
            event = own;
        }
        ByteLineBuilder record = new ByteLineBuilder(256);
        StringBuilder text = new StringBuilder();
        EventCapture.Ids ids = new EventCapture.Ids();
        boolean exact = layout.formatsMessageChars();
        String[] keys = layout.capturedContextKeys();
        LogEvent captured = event;
        long allocated = CallerAllocation.allocated(
                () -> layout.capturable(captured) && EventCapture.capture(captured, record, text, ids, exact, keys));
        assertTrue(record.length() > 50, "something was captured");
        CallerAllocation.assertNothingPerEvent(allocated, MEASURED);

        // The record renders on the writer into the line JsonTemplateLayout writes for the event,
        // allocating nothing either.
        ByteLineBuilder out = new ByteLineBuilder(256);
        int renders = MEASURED / 10;
        long onWriter = CapturedRecords.allocatedRendering(new WriterRenderer(layout), record, out, WARMUP / 10, renders);
        System.out.println(template + ": the writer allocated " + onWriter / renders + " B/event");
        CallerAllocation.assertNothingPerEvent(onWriter, renders);
        assertEquals(new String(layout.toByteArray(event), StandardCharsets.UTF_8),
                new String(out.array(), 0, out.length(), StandardCharsets.UTF_8));
    }
}
