package io.github.spool.bench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.ParameterizedMessageFactory;
import org.junit.jupiter.api.Test;

/**
 * The hand-formatted anchors ({@code println}, the raw channel, the per-line writer) must write
 * the same bytes as the frameworks, or the comparison is unfair: checked against log4j2's and
 * logback's own {@code PatternLayout} for the same event (the differential oracle).
 */
class LineFormatterTest {

    private static final int CASES = 200;

    private static String formatted(LineFormatter f, long seq, long millis) {
        int len = f.format(seq, millis);
        return new String(f.buffer(), 0, len, StandardCharsets.US_ASCII);
    }

    @Test
    void matchesLog4j2PatternLayout() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        org.apache.logging.log4j.core.layout.PatternLayout layout =
                org.apache.logging.log4j.core.layout.PatternLayout.newBuilder().setPattern(EventLine.PATTERN).build();
        LineFormatter f = new LineFormatter("producer-3");
        for (int i = 0; i < CASES; i++) {
            long millis = 1_700_000_000_000L + (random.nextLong() & 0xFFFF_FFFFFFL);
            long seq = i < 3 ? i : random.nextInt(Integer.MAX_VALUE);
            String expected = layout.toSerializable(Log4jLogEvent.newBuilder().setLoggerName(EventLine.LOGGER)
                    .setLevel(Level.INFO).setThreadName("producer-3").setTimeMillis(millis)
                    .setMessage(ParameterizedMessageFactory.INSTANCE.newMessage(EventLine.MESSAGE, seq)).build());
            assertEquals(expected, formatted(f, seq, millis), "seed " + seed + ", millis " + millis);
        }
    }

    @Test
    void matchesLogbackPatternLayout() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        LoggerContext context = new LoggerContext();
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.setPattern(EventLine.PATTERN);
        layout.start();
        LineFormatter f = new LineFormatter("producer-0");
        for (int i = 0; i < CASES; i++) {
            long millis = 1_700_000_000_000L + (random.nextLong() & 0xFFFF_FFFFFFL);
            long seq = random.nextInt(Integer.MAX_VALUE);
            LoggingEvent event = new LoggingEvent();
            event.setLoggerName(EventLine.LOGGER);
            event.setLevel(ch.qos.logback.classic.Level.INFO);
            event.setThreadName("producer-0");
            event.setTimeStamp(millis);
            event.setMessage(EventLine.MESSAGE);
            event.setArgumentArray(new Object[] {seq});
            assertEquals(layout.doLayout(event), formatted(f, seq, millis), "seed " + seed + ", millis " + millis);
        }
    }
}
