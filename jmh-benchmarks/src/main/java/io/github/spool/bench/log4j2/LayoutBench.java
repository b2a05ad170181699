package io.github.spool.bench.log4j2;

import io.github.spool.log4j2.SpoolLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.impl.MutableLogEvent;
import org.apache.logging.log4j.core.layout.ByteBufferDestination;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.message.ReusableParameterizedMessage;
import org.apache.logging.log4j.util.SortedArrayStringMap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * SpoolLayout against PatternLayout (the anchor, in the same run): both encode one prebuilt event
 * with the same pattern into a reusable destination, log4j2's garbage-free path
 * ({@code encode(LogEvent, ByteBufferDestination)}). Run with {@code -prof gc}: SpoolLayout should
 * show {@code gc.alloc.rate.norm} ≈ 0 B/op. The event's timestamp advances by one millisecond per
 * operation ({@code advanceMillis=true}, so millisecond digits are rendered each time and a new
 * second every 1000 operations) or stays fixed.
 *
 * <pre>
 * java -cp jmh-benchmarks/target/benchmarks.jar org.openjdk.jmh.Main 'bench.log4j2.LayoutBench' -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LayoutBench {

    /**
     * The ANCHORS.md line and one with MDC, abbreviation and an ISO date (byte path only); then
     * patterns with conversions SpoolLayout renders through log4j2's converter: ANSI colours,
     * location (the event carries its source, as after an async logger captured it), CR/LF
     * encoding, process id with sequence number and marker.
     */
    @Param({"%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n",
        "%d{ISO8601_OFFSET_DATE_TIME_HHCMM} %-5p [%t] %c{1.} user=%X{user} - %m%n",
        "%d %highlight{%-5level} [%t] %style{%c{1.}}{cyan} - %m%n",
        "%d [%t] %-5level %C.%M:%L - %m%n",
        "%d %-5level [%t] %c - %enc{%m}{CRLF}%n",
        "%d %pid %sn %marker %-5level %c - %m%n"})
    public String pattern;

    /** Whether the event's timestamp advances by 1 ms per operation. */
    @Param({"true", "false"})
    public boolean advanceMillis;

    /** {@code MarkerManager.getMarker("AUDIT")}; see {@link #marker(String)}. */
    private static final Marker MARKER = marker("AUDIT");

    private MutableLogEvent event;
    private Layout<?> patternLayout;
    private Layout<?> spoolLayout;
    private ReusableDestination destination;
    private long millis;

    /** Builds both layouts and the event. */
    @Setup
    public void setUp() {
        Configuration config = new DefaultConfiguration();
        patternLayout = PatternLayout.newBuilder().setPattern(pattern).setConfiguration(config)
                .setCharset(StandardCharsets.UTF_8).build();
        spoolLayout = SpoolLayout.newLayout(pattern, "UTF-8", true, config);
        SortedArrayStringMap mdc = new SortedArrayStringMap();
        mdc.putValue("user", "alice");
        ReusableParameterizedMessage message = new ReusableParameterizedMessage();
        message.set("Order processed id={} status={} size={}", "500000", "OK", "7");
        event = new MutableLogEvent();
        event.setLoggerName("anchors.Bench");
        event.setLevel(Level.INFO);
        event.setThreadName("producer-2");
        event.setMessage(message);
        event.setContextData(mdc);
        event.setSource(new StackTraceElement("io.github.spool.bench.anchors.Bench", "handle", "Bench.java", 42));
        event.setMarker(MARKER);
        millis = 1_763_775_146_721L;
        event.setTimeMillis(millis);
        destination = new ReusableDestination();
    }

    /**
     * The anchor.
     *
     * @return bytes encoded (consumed by JMH)
     */
    @Benchmark
    public int patternLayout() {
        return encode(patternLayout);
    }

    /**
     * Spool's layout.
     *
     * @return bytes encoded (consumed by JMH)
     */
    @Benchmark
    public int spoolLayout() {
        return encode(spoolLayout);
    }

    /**
     * {@code MarkerManager.getMarker(name)} through reflection: MarkerManager's class file carries
     * Error Prone's {@code @InlineMe}, which javac cannot resolve and reports as a warning (fatal
     * under {@code -Werror}) when the class is named in source.
     */
    private static Marker marker(String name) {
        try {
            return (Marker) Class.forName("org.apache.logging.log4j.MarkerManager").getMethod("getMarker", String.class)
                    .invoke(null, name);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private int encode(Layout<?> layout) {
        if (advanceMillis) {
            event.setTimeMillis(++millis);
        }
        destination.buffer.clear();
        layout.encode(event, destination);
        return destination.buffer.position();
    }

    /** A heap destination that is emptied before each event and "drains" by clearing. */
    static final class ReusableDestination implements ByteBufferDestination {
        final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);

        @Override
        public ByteBuffer getByteBuffer() {
            return buffer;
        }

        @Override
        public ByteBuffer drain(ByteBuffer buf) {
            buf.clear();
            return buf;
        }

        @Override
        public void writeBytes(ByteBuffer data) {
            buffer.put(data);
        }

        @Override
        public void writeBytes(byte[] data, int offset, int length) {
            buffer.put(data, offset, length);
        }
    }
}
