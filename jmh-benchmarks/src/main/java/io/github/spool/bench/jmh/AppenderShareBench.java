package io.github.spool.bench.jmh;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.spool.bench.e2e.EventLine;
import io.github.spool.log4j2.SpoolLayout;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.impl.MutableLogEvent;
import org.apache.logging.log4j.message.ReusableParameterizedMessage;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The appender's own share of a logging call, the figure the benchmark issue sets at 100 ns: a
 * prebuilt event handed to Spool's appender, which encodes it with its own layout (log4j2
 * {@code SpoolLayout}, logback {@code SpoolEncoder}) and claims, copies and commits the line in
 * the ring. The writer thread drains the ring to {@code /dev/null} on the other core. Nothing of
 * the framework runs: no logger, no event creation, no filters — those are the framework's
 * ceiling ({@code log4j2-null}, {@code logback-nop} in the end-to-end suite).
 *
 * <p>The frameworks split the work differently, so the two figures do not measure the same
 * steps: log4j2's sync loggers format a parameterised message into the event before the appender
 * sees it (in the ceiling), while logback hands the appender the pattern and arguments and
 * {@code SpoolEncoder} substitutes them itself (in this figure).
 *
 * <p>{@code moving=true} gives every event a new millisecond (the timestamp's millisecond digits
 * are rendered per event, the date once per second either way) and, for logback, another
 * argument value; {@code false} keeps one event.
 *
 * <p>Run: {@code java -cp jmh-benchmarks/target/benchmarks.jar org.openjdk.jmh.Main AppenderShareBench -prof gc}
 * (add {@code -t 2} for two producers sharing one appender).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class AppenderShareBench {

    /** Whether every event carries a new millisecond. */
    @Param({"true", "false"})
    public boolean moving;

    private io.github.spool.log4j2.SpoolAppender log4j2;
    private io.github.spool.logback.SpoolAppender logback;

    /** Starts both appenders on {@code /dev/null}. */
    @Setup
    public void setUp() {
        log4j2 = io.github.spool.log4j2.SpoolAppender.newBuilder()
                .setName("share-log4j2")
                .setFileName("/dev/null")
                .setLayout(SpoolLayout.newLayout(EventLine.PATTERN, "UTF-8", true, new DefaultConfiguration()))
                .build();
        if (log4j2 == null) {
            throw new IllegalStateException("the log4j2 Spool appender was not built");
        }
        log4j2.start();
        LoggerContext lc = new LoggerContext();
        io.github.spool.logback.SpoolEncoder encoder = new io.github.spool.logback.SpoolEncoder();
        encoder.setContext(lc);
        encoder.setPattern(EventLine.PATTERN);
        encoder.start();
        logback = new io.github.spool.logback.SpoolAppender();
        logback.setContext(lc);
        logback.setName("share-logback");
        logback.setFile("/dev/null");
        logback.setEncoder(encoder);
        logback.start();
        if (!log4j2.isStarted() || !logback.isStarted()) {
            throw new IllegalStateException("appender not started: " + lc.getStatusManager().getCopyOfStatusList());
        }
    }

    /** Stops both appenders (drains the ring). */
    @TearDown
    public void tearDown() {
        log4j2.stop(10, TimeUnit.SECONDS);
        logback.stop();
    }

    /**
     * One producer thread's events, prebuilt as each framework hands them to an appender. logback
     * events are cycled through an array of consecutive milliseconds, because setting a logback
     * event's time allocates an {@code Instant}, which is the benchmark's cost, not the appender's.
     */
    @State(Scope.Thread)
    public static class Events {
        static final int LOGBACK_EVENTS = 4096;
        MutableLogEvent log4j2Event;
        LoggingEvent[] logbackEvents;
        int next;
        long millis = 1_763_775_146_721L;

        /** Builds the events. */
        @Setup
        public void setUp() {
            ReusableParameterizedMessage message = new ReusableParameterizedMessage();
            log4j2Event = new MutableLogEvent();
            log4j2Event.setLoggerName(EventLine.LOGGER);
            log4j2Event.setLevel(Level.INFO);
            log4j2Event.setThreadName(Thread.currentThread().getName());
            log4j2Event.setTimeMillis(millis);
            message.set(EventLine.MESSAGE, (Object) Long.valueOf(500_000L));
            // as log4j2's sync logger does: the event formats the reusable message into its own text
            log4j2Event.setMessage(message);

            logbackEvents = new LoggingEvent[LOGBACK_EVENTS];
            for (int i = 0; i < LOGBACK_EVENTS; i++) {
                LoggingEvent e = new LoggingEvent();
                e.setLoggerName(EventLine.LOGGER);
                e.setLevel(ch.qos.logback.classic.Level.INFO);
                e.setThreadName(Thread.currentThread().getName());
                e.setMessage(EventLine.MESSAGE);
                e.setArgumentArray(new Object[] {500_000L + i});
                e.setMDCPropertyMap(Collections.emptyMap());
                e.setTimeStamp(millis + i);
                logbackEvents[i] = e;
            }
        }

        LoggingEvent nextLogbackEvent(boolean moving) {
            if (!moving) {
                return logbackEvents[0];
            }
            LoggingEvent e = logbackEvents[next];
            next = (next + 1) & (LOGBACK_EVENTS - 1);
            return e;
        }
    }

    /**
     * log4j2: {@code <Spool>} with {@code <SpoolLayout>}.
     *
     * @param ev this thread's event
     */
    @Benchmark
    public void log4j2(Events ev) {
        if (moving) {
            ev.log4j2Event.setTimeMillis(++ev.millis);
        }
        log4j2.append(ev.log4j2Event);
    }

    /**
     * logback: {@code SpoolAppender} with {@code SpoolEncoder}, through {@code doAppend} (the
     * appender base's guard and filter check, as logback calls it).
     *
     * @param ev this thread's event
     */
    @Benchmark
    public void logback(Events ev) {
        logback.doAppend(ev.nextLogbackEvent(moving));
    }
}
