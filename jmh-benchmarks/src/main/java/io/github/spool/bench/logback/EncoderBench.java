package io.github.spool.bench.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import io.github.spool.logback.SpoolEncoder;
import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
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
 * Encoding one logback event with the anchors' pattern
 * ({@code %d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n}):
 * {@code PatternLayoutEncoder.encode} (String, then byte[]) against {@link SpoolEncoder#encode}
 * (byte[]) and {@link SpoolEncoder#encodeTo} (into a reused {@link ByteLineBuilder}, the path
 * SpoolAppender takes). Run with {@code -prof gc} for bytes per operation.
 *
 * <p>{@code events=1}: one prebuilt event, as the brief asks (the same millisecond every call, which
 * logback's per-millisecond date cache likes). {@code events=4096}: prebuilt events one millisecond
 * apart, cycled, so every call renders a new millisecond as under steady logging. The formatted
 * message is cached in each event after its first use, for both encoders alike.
 *
 * <p>The {@code *FreshEvent} benchmarks build a new event per call with logback's own constructor
 * (as {@code Logger.info} does), so the message is formatted every time, as in real logging: logback
 * formats it through slf4j's {@code MessageFormatter}, SpoolEncoder writes it straight into the line
 * for plain argument types. Event construction costs both sides the same.
 *
 * <p>{@code freshEvent}, {@code freshEventPrepared} and {@code spoolEncoderIntoBuilderFreshEventPrepared}
 * measure what {@code ILoggingEvent.prepareForDeferredProcessing()} would cost per event (logback
 * 1.5.38: it formats the message, reads the thread name and the MDC map). SpoolAppender does not
 * call it (docs/logback.md); {@code AsyncAppender} does on the logging thread. The difference
 * {@code freshEventPrepared - freshEvent} is the call alone; {@code
 * spoolEncoderIntoBuilderFreshEventPrepared - spoolEncoderIntoBuilderFreshEvent} is what the call
 * would add to SpoolAppender's path, where SpoolEncoder otherwise writes the message without
 * building its String. These three ignore {@code events}: run them with {@code -p events=1}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EncoderBench {

    static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n";

    @Param({"1", "4096"})
    int events;

    private LoggingEvent[] ring;
    private int next;
    private PatternLayoutEncoder logback;
    private SpoolEncoder spool;
    private ByteLineBuilder line;
    private Logger logger;
    private int seq;

    @Setup
    public void setup() {
        LoggerContext lc = new LoggerContext();
        // as logback's LogbackServiceProvider does; prepareForDeferredProcessing() reads the MDC (empty here)
        lc.setMDCAdapter(new LogbackMDCAdapter());
        logback = new PatternLayoutEncoder();
        logback.setContext(lc);
        logback.setPattern(PATTERN);
        logback.setCharset(StandardCharsets.UTF_8);
        logback.start();
        spool = new SpoolEncoder();
        spool.setContext(lc);
        spool.setPattern(PATTERN);
        spool.start();
        if (!spool.isStarted()) {
            throw new IllegalStateException("SpoolEncoder did not start: " + lc.getStatusManager().getCopyOfStatusList());
        }
        line = new ByteLineBuilder(256);
        logger = lc.getLogger("com.example.orders.service.OrderProcessingService");
        ring = new LoggingEvent[events];
        long t0 = 1_763_774_400_000L;
        for (int i = 0; i < events; i++) {
            LoggingEvent e = new LoggingEvent();
            e.setLoggerContext(lc);
            e.setLoggerContextRemoteView(lc.getLoggerContextRemoteView());
            e.setLevel(Level.INFO);
            e.setLoggerName("com.example.orders.service.OrderProcessingService");
            e.setThreadName("producer-2");
            e.setMessage("Order processed id={} status={} size={}");
            e.setArgumentArray(new Object[] {500_000 + i, "OK", 7});
            e.setTimeStamp(t0 + i);
            e.setMDCPropertyMap(Collections.emptyMap());
            ring[i] = e;
        }
        // the two encoders must agree before they are compared
        for (LoggingEvent e : ring) {
            if (!Arrays.equals(logback.encode(e), spool.encode(e))) {
                throw new IllegalStateException("encoders disagree on " + e);
            }
        }
    }

    private LoggingEvent nextEvent() {
        LoggingEvent e = ring[next];
        next = next + 1 == ring.length ? 0 : next + 1;
        return e;
    }

    @Benchmark
    public byte[] patternLayoutEncoder() {
        return logback.encode(nextEvent());
    }

    @Benchmark
    public byte[] spoolEncoder() {
        return spool.encode(nextEvent());
    }

    private LoggingEvent freshEvent0() {
        int i = seq++;
        return new LoggingEvent(Logger.FQCN, logger, Level.INFO, "Order processed id={} status={} size={}", null,
                new Object[] {500_000 + (i & 0xFFFF), "OK", 7});
    }

    @Benchmark
    public byte[] patternLayoutEncoderFreshEvent() {
        return logback.encode(freshEvent0());
    }

    @Benchmark
    public int spoolEncoderIntoBuilderFreshEvent() {
        line.reset();
        spool.encodeTo(freshEvent0(), line);
        return line.length();
    }

    /** Baseline: a new event, as {@code Logger.info} builds it, and nothing else. */
    @Benchmark
    public LoggingEvent freshEvent() {
        return freshEvent0();
    }

    /** A new event and {@code prepareForDeferredProcessing()}, as {@code AsyncAppender.preprocess} does. */
    @Benchmark
    public LoggingEvent freshEventPrepared() {
        LoggingEvent e = freshEvent0();
        e.prepareForDeferredProcessing();
        return e;
    }

    /** SpoolAppender's path if it called {@code prepareForDeferredProcessing()} before encoding. */
    @Benchmark
    public int spoolEncoderIntoBuilderFreshEventPrepared() {
        LoggingEvent e = freshEvent0();
        e.prepareForDeferredProcessing();
        line.reset();
        spool.encodeTo(e, line);
        return line.length();
    }

    @Benchmark
    public int spoolEncoderIntoBuilder() {
        line.reset();
        spool.encodeTo(nextEvent(), line);
        return line.length();
    }

    /**
     * One conversion at a time, for the per-conversion table in docs/logback.md: the pattern is the
     * conversion, a space and {@code %msg%n}, on one prebuilt event with an MDC entry, a marker, a
     * key-value pair and caller data (set, as logback caches it after the first extraction; with a
     * fresh event a caller conversion also pays for logback's stack walk, both encoders alike).
     * Run with {@code -p events=1}.
     */
    @State(Scope.Thread)
    public static class Conversion {
        @Param({"%d{HH:mm:ss.SSS}", "%level", "%thread", "%logger{36}", "%msg", "%X{user}", "%mdc", "%relative", "%contextName",
            "%-5(%level %thread)", "%caller{1}", "%class", "%method", "%line", "%file", "%marker", "%kvp", "%property{app}",
            "%sn", "%lsn", "%micros", "%epoch", "%highlight(%level)", "%cyan(%logger{15})", "%replace(%msg){'[\\r\\n]', '_'}",
            "%prefix(%X{user})", "%maskedKvp{id}", "%nopex", "%ex"})
        String conversion;

        PatternLayoutEncoder logback;
        SpoolEncoder spool;
        LoggingEvent event;
        final ByteLineBuilder line = new ByteLineBuilder(256);

        @Setup
        public void setup() {
            LoggerContext lc = new LoggerContext();
            lc.putProperty("app", "shop");
            lc.setSequenceNumberGenerator(new ch.qos.logback.core.spi.BasicSequenceNumberGenerator());
            String pattern = conversion + " %msg%n";
            logback = new PatternLayoutEncoder();
            logback.setContext(lc);
            logback.setPattern(pattern);
            logback.setCharset(StandardCharsets.UTF_8);
            logback.start();
            spool = new SpoolEncoder();
            spool.setContext(lc);
            spool.setPattern(pattern);
            spool.setCharset(StandardCharsets.UTF_8);
            spool.start();
            LoggingEvent e = new LoggingEvent();
            e.setLoggerContext(lc);
            e.setLoggerContextRemoteView(lc.getLoggerContextRemoteView());
            e.setLevel(Level.INFO);
            e.setLoggerName("com.example.orders.service.OrderProcessingService");
            e.setThreadName("producer-2");
            e.setMessage("Order processed id={} status={} size={}");
            e.setArgumentArray(new Object[] {500_000, "OK", 7});
            e.setTimeStamp(1_763_774_400_000L);
            e.setMDCPropertyMap(Collections.singletonMap("user", "alice"));
            e.addMarker(org.slf4j.MarkerFactory.getMarker("AUDIT"));
            e.setKeyValuePairs(new java.util.ArrayList<>(java.util.List.of(new org.slf4j.event.KeyValuePair("id", 42))));
            e.setCallerData(new StackTraceElement[] {new StackTraceElement("com.example.orders.OrderController", "ship", "OrderController.java", 87)});
            e.setSequenceNumber(12);
            if (conversion.equals("%ex")) {
                e.setThrowableProxy(new ch.qos.logback.classic.spi.ThrowableProxy(new IllegalStateException("declined")));
            }
            event = e;
            if (!conversion.equals("%lsn") && !Arrays.equals(logback.encode(e), spool.encode(e))) {
                throw new IllegalStateException("encoders disagree on " + conversion);
            }
        }
    }

    @Benchmark
    public byte[] conversionPatternLayoutEncoder(Conversion c) {
        return c.logback.encode(c.event);
    }

    @Benchmark
    public int conversionSpoolEncoderIntoBuilder(Conversion c) {
        c.line.reset();
        c.spool.encodeTo(c.event, c.line);
        return c.line.length();
    }
}
