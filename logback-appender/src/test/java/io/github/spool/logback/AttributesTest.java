// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.spool.OverflowPolicy;
import io.github.spool.RenderMode;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;
import io.github.spool.StatusListener.Level;
import io.github.spool.dropin.Configured;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The settings logback users bring from {@code AsyncAppender} ({@code queueSize}, {@code
 * neverBlock}, {@code discardingThreshold}, {@code includeCallerData}, {@code maxFlushTime}),
 * {@code FileAppender} ({@code prudent}) and {@code ConsoleAppender} ({@code withJansi},
 * {@code <layout>}): each accepted with its documented meaning or a WARN saying why it does not
 * apply, and the appender started. The settings both adapters share are in {@link SettingsTest}.
 */
class AttributesTest {

    @TempDir
    Path dir;

    private LogbackConfigured start(String... keyValues) throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("file", dir.resolve("a.log").toString());
        for (int i = 0; i < keyValues.length; i += 2) {
            settings.put(keyValues[i], keyValues[i + 1]);
        }
        LogbackConfigured c = LogbackConfigured.start(settings);
        assertTrue(c.started(), () -> "not started with " + settings + ": " + c.allStatuses());
        return c;
    }

    /** As {@link LogbackConfigured#startBody}, writing to a file in {@link #dir}. */
    private LogbackConfigured startBody(String body) throws Exception {
        return LogbackConfigured.startBody("<file>" + dir.resolve("a.log") + "</file>" + body);
    }

    private static String only(Configured c, Level level) {
        List<String> m = c.statuses(level);
        assertEquals(1, m.size(), () -> level + " statuses: " + c.statuses());
        return m.get(0);
    }

    private static void quiet(Configured c) {
        assertEquals(List.of(), c.statuses(), "no status about the appender's settings");
    }

    @Test
    void renderChoosesWhereTheLineIsMadeAndSaysWhyNot() throws Exception {
        String capturable = "<encoder class='io.github.spool.logback.SpoolEncoder'><pattern>%d %-5level [%thread] "
                + "%logger{36} %X{user} %X - %msg%n</pattern><charset>UTF-8</charset></encoder>";
        try (LogbackConfigured c = startBody("<render>writer</render>" + capturable)) {
            assertNotNull(c.config().renderer(), "writer");
            quiet(c);
        }
        try (LogbackConfigured c = startBody("<render>Caller</render>" + capturable)) {
            assertNull(c.config().renderer(), "caller");
            quiet(c);
        }
        try (LogbackConfigured c = startBody(capturable)) {
            assertEquals(RenderMode.writerByDefault(), c.config().renderer() != null,
                    "auto: the writer where the encoder allows it and the JVM has a second processor");
            quiet(c);
        }
        try (LogbackConfigured c = startBody("<encoder class='io.github.spool.logback.SpoolEncoder'><pattern>%relative "
                + "%caller{1} %m%n</pattern><charset>UTF-8</charset></encoder>")) {
            assertNull(c.config().renderer(), "auto with an encoder the writer cannot render: the caller");
            quiet(c);
        }
        try (LogbackConfigured c = startBody("<render>writer</render><encoder "
                + "class='io.github.spool.logback.SpoolEncoder'><pattern>%relative %caller{1} %m%n</pattern><charset>UTF-8</charset></encoder>")) {
            assertNull(c.config().renderer());
            String w = only(c, Level.WARN);
            assertTrue(w.startsWith("spool appender 'dropin': render \"writer\" needs a SpoolEncoder in UTF-8")
                    && w.contains("delegated:ch.qos.logback.classic.pattern.CallerDataConverter")
                    && w.endsWith("rendering on the calling thread"), w);
        }
        try (LogbackConfigured c = startBody("<render>writer</render><encoder "
                + "class='ch.qos.logback.classic.encoder.PatternLayoutEncoder'><pattern>%m%n</pattern></encoder>")) {
            assertNull(c.config().renderer());
            assertTrue(only(c, Level.WARN).contains("(ch.qos.logback.classic.encoder.PatternLayoutEncoder)"));
        }
        boolean autoOnWriter;
        try (LogbackConfigured c = start()) {
            autoOnWriter = c.config().renderer() != null;
        }
        try (LogbackConfigured c = start("render", "fast")) {
            assertEquals(autoOnWriter, c.config().renderer() != null, "an unknown value is auto");
            assertEquals("spool appender 'dropin': render 'fast' is unknown; expected auto, writer or caller; using the "
                    + "default auto", only(c, Level.ERROR));
        }
    }

    @Test
    void queueSizeIsAWarnPointingAtTheByteSizes() throws Exception {
        try (LogbackConfigured c = start("queueSize", "512")) {
            String w = only(c, Level.WARN);
            assertTrue(w.contains("queueSize 512 (AsyncAppender's capacity in events) does not apply")
                    && w.contains("bufferSize") && w.contains("maxBufferSize") && w.endsWith("queueSize is ignored"), w);
            assertEquals(SpoolConfig.DEFAULT_BUFFER_SIZE, c.config().bufferSize());
            assertEquals(List.of(), c.statuses(Level.ERROR));
        }
    }

    @Test
    void anUnparseableQueueSizeIsAnError() throws Exception {
        try (LogbackConfigured c = start("queueSize", "lots")) {
            assertEquals("spool appender 'dropin': queueSize 'lots' is not a whole number of at least 0; using nothing",
                    only(c, Level.ERROR));
            assertEquals(List.of(), c.statuses(Level.WARN));
        }
    }

    @Test
    void neverBlockTrueIsDiscardAtEveryLevel() throws Exception {
        try (LogbackConfigured c = start("neverBlock", "true")) {
            assertEquals(OverflowPolicy.DISCARD, c.config().overflowPolicy());
            assertEquals(Severity.ERROR, c.config().discardThreshold());
            assertEquals("spool appender 'dropin': neverBlock true (AsyncAppender) means overflowPolicy DISCARD with "
                    + "discardThreshold ERROR: when the buffer is at maxBufferSize, events at ERROR and below are dropped "
                    + "and counted instead of waiting", only(c, Level.INFO));
        }
    }

    @Test
    void neverBlockTakesAnExplicitDiscardThreshold() throws Exception {
        try (LogbackConfigured c = start("neverBlock", "true", "discardThreshold", "WARN")) {
            assertEquals(OverflowPolicy.DISCARD, c.config().overflowPolicy());
            assertEquals(Severity.WARN, c.config().discardThreshold());
            assertTrue(only(c, Level.INFO).contains("with discardThreshold WARN"));
        }
    }

    @Test
    void anExplicitOverflowPolicyWinsOverNeverBlockWithAWarn() throws Exception {
        try (LogbackConfigured c = start("neverBlock", "true", "overflowPolicy", "BLOCK")) {
            assertEquals(OverflowPolicy.BLOCK, c.config().overflowPolicy());
            assertEquals(Severity.INFO, c.config().discardThreshold());
            assertEquals("spool appender 'dropin': neverBlock true (AsyncAppender) would mean overflowPolicy DISCARD, "
                    + "but overflowPolicy is set to BLOCK; using BLOCK", only(c, Level.WARN));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"neverBlock=false", "discardingThreshold=0"})
    void settingsThatMeanNeverDropAreBlock(String setting) throws Exception {
        String[] kv = setting.split("=");
        try (LogbackConfigured c = start(kv[0], kv[1])) {
            assertEquals(OverflowPolicy.BLOCK, c.config().overflowPolicy());
            assertTrue(only(c, Level.INFO).contains(kv[0] + " " + kv[1] + " (AsyncAppender) means overflowPolicy BLOCK"));
        }
    }

    @Test
    void aPositiveDiscardingThresholdIsDiscardOfInfoAndBelow() throws Exception {
        try (LogbackConfigured c = start("discardingThreshold", "51")) {
            assertEquals(OverflowPolicy.DISCARD, c.config().overflowPolicy());
            assertEquals(Severity.INFO, c.config().discardThreshold());
            assertTrue(only(c, Level.INFO).startsWith("spool appender 'dropin': discardingThreshold 51 (AsyncAppender) "
                    + "means overflowPolicy DISCARD with discardThreshold INFO"));
        }
    }

    @Test
    void aNegativeDiscardingThresholdIsAnErrorAndIgnored() throws Exception {
        try (LogbackConfigured c = start("discardingThreshold", "-1")) {
            assertEquals(OverflowPolicy.BLOCK, c.config().overflowPolicy());
            assertTrue(only(c, Level.ERROR).contains("discardingThreshold '-1' is not a whole number"));
        }
    }

    /** Caller data is there anyway: the encoder runs on the logging thread. */
    @Test
    void includeCallerDataFalseIsAnInfoAndCallerDataIsPrintedAnyway() throws Exception {
        Path log = dir.resolve("caller.log");
        try (LogbackConfigured c = LogbackConfigured.startBody("<file>" + log + "</file><includeCallerData>false</includeCallerData>"
                + "<encoder class='io.github.spool.logback.SpoolEncoder'><pattern>%M %m%n</pattern></encoder>")) {
            assertTrue(c.started());
            assertTrue(only(c, Level.INFO).contains("includeCallerData false changes nothing"));
            c.logger("x").info("here");
        }
        assertEquals(List.of("includeCallerDataFalseIsAnInfoAndCallerDataIsPrintedAnyway here"), Files.readAllLines(log));
    }

    @Test
    void maxFlushTimeIsTheStopTimeout() throws Exception {
        try (LogbackConfigured c = start("maxFlushTime", "2500")) {
            assertEquals(2500, c.appender().stopTimeoutForTest());
            quiet(c);
        }
    }

    @Test
    void maxFlushTimeZeroWaitsBoundedWithAWarn() throws Exception {
        try (LogbackConfigured c = start("maxFlushTime", "0")) {
            assertEquals(Spool.DEFAULT_STOP_TIMEOUT_MILLIS, c.appender().stopTimeoutForTest());
            assertTrue(only(c, Level.WARN).contains("maxFlushTime 0 makes AsyncAppender wait without limit at stop"));
        }
    }

    @Test
    void stopTimeoutMillisWinsOverMaxFlushTimeWithAWarn() throws Exception {
        try (LogbackConfigured c = start("maxFlushTime", "2500", "stopTimeoutMillis", "3000")) {
            assertEquals(3000, c.appender().stopTimeoutForTest());
            assertTrue(only(c, Level.WARN).contains("maxFlushTime 2500 (AsyncAppender) and stopTimeoutMillis 3000 are both set"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"maxFlushTime=-5", "maxFlushTime=soon", "stopTimeoutMillis=-1"})
    void aBadTimeoutIsAnErrorAndTheDefault(String setting) throws Exception {
        String[] kv = setting.split("=");
        try (LogbackConfigured c = start(kv[0], kv[1])) {
            assertEquals(Spool.DEFAULT_STOP_TIMEOUT_MILLIS, c.appender().stopTimeoutForTest());
            String e = only(c, Level.ERROR);
            assertTrue(e.contains(kv[0]) && e.contains(kv[1]) && e.contains("10000"), e);
        }
    }

    @Test
    void prudentIsAWarnAndImpliesAppend() throws Exception {
        Path log = dir.resolve("prudent.log");
        Files.writeString(log, "kept\n");
        try (LogbackConfigured c = LogbackConfigured.startBody("<file>" + log + "</file><prudent>true</prudent><append>false</append>"
                + LogbackConfigured.SPOOL_ENCODER)) {
            assertTrue(c.started());
            String w = only(c, Level.WARN);
            assertTrue(w.contains("prudent mode is not supported") && w.contains("prudent implies append"), w);
            assertTrue(c.config().append());
            c.log("appended");
        }
        assertEquals(List.of("kept", "appended"), Files.readAllLines(log));
    }

    @Test
    void withJansiIsAWarn() throws Exception {
        try (LogbackConfigured c = start("withJansi", "true")) {
            assertTrue(only(c, Level.WARN).contains("withJansi is not supported"));
        }
        try (LogbackConfigured c = start("withJansi", "false")) {
            quiet(c);
        }
    }

    /** {@code <layout>} under the appender, as old ConsoleAppender configurations have it. */
    @Test
    void aLayoutIsWrappedInAnEncoder() throws Exception {
        Path log = dir.resolve("layout.log");
        try (LogbackConfigured c = LogbackConfigured.startBody("<file>" + log + "</file>"
                + "<layout class='ch.qos.logback.classic.PatternLayout'><pattern>%level %m%n</pattern></layout>")) {
            assertTrue(c.started(), () -> "statuses: " + c.allStatuses());
            c.log("through a layout");
        }
        assertEquals(List.of("INFO through a layout"), Files.readAllLines(log));
    }

    @Test
    void anEmptyFileIsAnErrorAndStderr() {
        LoggerContext lc = new LoggerContext();
        SpoolAppender a = new SpoolAppender();
        a.setContext(lc);
        a.setName("empty");
        a.setFile(" ");
        a.start();
        try {
            assertTrue(a.isStarted());
            assertEquals(SpoolConfig.Target.STDERR, a.spoolForTest().config().target());
            List<String> errors = lc.getStatusManager().getCopyOfStatusList().stream()
                    .filter(s -> s.getLevel() == Status.ERROR).map(Status::getMessage).toList();
            assertEquals(List.of("spool appender 'empty': file ' ' is not a usable path (it is empty); writing this "
                    + "appender's lines to stderr instead"), errors);
        } finally {
            a.stop();
        }
    }
}
