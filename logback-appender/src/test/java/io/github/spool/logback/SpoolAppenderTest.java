package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import io.github.spool.SpoolConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SpoolAppender configured through real logback XML (Joran) in this JVM, writing to files. */
class SpoolAppenderTest {

    @TempDir
    Path dir;

    private LoggerContext configure(String appenderBody) throws JoranException {
        LoggerContext lc = new LoggerContext();
        lc.setMDCAdapter(new LogbackMDCAdapter()); // as SLF4J's binding does for the global context
        return configure(lc, appenderBody);
    }

    private LoggerContext configure(LoggerContext lc, String appenderBody) throws JoranException {
        String xml = "<configuration>\n"
                + "  <appender name=\"SPOOL\" class=\"io.github.spool.logback.SpoolAppender\">\n" + appenderBody + "\n  </appender>\n"
                + "  <root level=\"DEBUG\"><appender-ref ref=\"SPOOL\"/></root>\n"
                + "</configuration>\n";
        lc.reset();
        LogbackConfigured.configure(lc, xml);
        return lc;
    }

    private static SpoolAppender appender(LoggerContext lc) {
        return (SpoolAppender) lc.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("SPOOL");
    }

    private static List<String> errors(LoggerContext lc) {
        return lc.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getEffectiveLevel() == Status.ERROR)
                .map(s -> s.getMessage() + (s.getThrowable() != null ? " / " + s.getThrowable().getMessage() : ""))
                .collect(Collectors.toList());
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "ERROR|<bufferSize>lots</bufferSize>|bufferSize 'lots' is not a size",
        "WARN|<bufferSize>10</bufferSize>|bufferSize '10' (10 bytes) is below the minimum of 8192 bytes; using 8192 bytes",
        "WARN|<bufferSize>1MB</bufferSize><maxBufferSize>64KB</maxBufferSize>|maxBufferSize '64KB' (65536 bytes) is below bufferSize",
        "ERROR|<overflowPolicy>DROP</overflowPolicy>|overflowPolicy 'DROP' is not one of BLOCK, DISCARD; using the default BLOCK",
        "ERROR|<discardThreshold>LOUD</discardThreshold>|discardThreshold 'LOUD' is not one of TRACE, DEBUG, INFO, WARN, ERROR; using the default INFO",
        "ERROR|<discardThreshold>OFF</discardThreshold>|discardThreshold 'OFF'",
        "ERROR|<target>System.log</target>|target 'System.log' is not one of System.out, System.err (use file for a file); using the default System.out",
        "WARN|<target>System.err</target><file>x.log</file>|both target (System.err) and file (",
    })
    void aBadSettingIsReportedNamingItAndTheAppenderStarts(String level, String settings, String message) throws Exception {
        String sink = settings.contains("<target>") ? "" : "<file>" + file("bad.log") + "</file>";
        LoggerContext lc = configure(sink + settings.replace("x.log", file("x.log")));
        SpoolAppender a = appender(lc);
        assertTrue(a.isStarted(), () -> "appender not started with " + settings + ": " + lc.getStatusManager().getCopyOfStatusList());
        List<String> named = lc.getStatusManager().getCopyOfStatusList().stream()
                .filter(st -> st.getMessage().startsWith("spool appender 'SPOOL': ") && !st.getMessage().contains("has been replaced"))
                .map(st -> (st.getLevel() == Status.ERROR ? "ERROR" : st.getLevel() == Status.WARN ? "WARN" : "INFO") + " " + st.getMessage())
                .collect(Collectors.toList());
        assertEquals(1, named.size(), named::toString);
        assertTrue(named.get(0).startsWith(level + " spool appender 'SPOOL': " + message), named::toString);
        lc.stop();
    }

    @Test
    void sizesAcceptLogbackFileSizeSyntaxAndSettingsReachCore() throws Exception {
        LoggerContext lc = configure("<file>" + file("ok.log") + "</file><bufferSize>64KB</bufferSize><maxBufferSize>2 mb</maxBufferSize>"
                + "<overflowPolicy>discard</overflowPolicy><discardThreshold>warn</discardThreshold>");
        SpoolAppender a = appender(lc);
        assertTrue(a.isStarted(), () -> "errors: " + errors(lc));
        SpoolConfig c = a.spoolForTest().config();
        assertEquals(64L * 1024, c.bufferSize());
        assertEquals(2L * 1024 * 1024, c.maxBufferSize());
        assertEquals(OverflowPolicy.DISCARD, c.overflowPolicy());
        assertEquals(Severity.WARN, c.discardThreshold());
        assertEquals(SpoolConfig.Target.FILE, c.target());
        lc.stop();
    }

    @Test
    void defaultsAreCoreDefaultsAndTheDefaultEncoderIsSpoolEncoder() throws Exception {
        LoggerContext lc = configure("<file>" + file("d.log") + "</file>");
        SpoolAppender a = appender(lc);
        assertTrue(a.isStarted(), () -> "errors: " + errors(lc));
        SpoolConfig c = a.spoolForTest().config();
        assertEquals(SpoolConfig.DEFAULT_BUFFER_SIZE, c.bufferSize());
        assertEquals(SpoolConfig.DEFAULT_MAX_BUFFER_SIZE, c.maxBufferSize());
        assertEquals(OverflowPolicy.BLOCK, c.overflowPolicy());
        assertEquals(Severity.INFO, c.discardThreshold());
        assertTrue(a.getEncoder() instanceof SpoolEncoder);
        assertEquals(SpoolAppender.DEFAULT_PATTERN, ((SpoolEncoder) a.getEncoder()).getPattern());
        lc.stop();
    }

    @Test
    void anyOtherEncoderWritesWhatItEncodes() throws Exception {
        String pattern = "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{20} %X{user:-anon} - %msg%n";
        LoggerContext lc = configure("<file>" + file("ple.log") + "</file><encoder><pattern>" + pattern + "</pattern><charset>UTF-8</charset></encoder>");
        assertTrue(appender(lc).isStarted(), () -> "errors: " + errors(lc));
        assertTrue(appender(lc).getEncoder() instanceof PatternLayoutEncoder);
        PatternLayoutEncoder reference = new PatternLayoutEncoder();
        reference.setContext(lc);
        reference.setPattern(pattern);
        reference.setCharset(StandardCharsets.UTF_8);
        reference.start();
        Logger log = lc.getLogger("com.example.billing.InvoiceService");
        StringBuilder expected = new StringBuilder();
        lc.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(new ch.qos.logback.core.AppenderBase<ILoggingEvent>() {
            {
                setContext(lc);
                start();
            }

            @Override
            protected void append(ILoggingEvent e) {
                expected.append(new String(reference.encode(e), StandardCharsets.UTF_8));
            }
        });
        lc.getMDCAdapter().put("user", "jürgen");
        for (int i = 0; i < 100; i++) {
            log.info("invoice {} ✓", i);
        }
        lc.getMDCAdapter().remove("user");
        log.warn("failed", new IllegalStateException("boom"));
        lc.stop();
        String written = Files.readString(dir.resolve("ple.log"));
        assertTrue(written.contains("InvoiceService jürgen - invoice 99 ✓") && written.contains("anon - failed")
                && written.contains("java.lang.IllegalStateException: boom"), () -> "unexpected output: " + written + "\nerrors: " + errors(lc));
        assertEquals(expected.toString(), written);
    }

    @Test
    void loggingFromToStringOfAnArgumentLosesNothing() throws Exception {
        LoggerContext lc = configure("<file>" + file("reentrant.log") + "</file><encoder class='io.github.spool.logback.SpoolEncoder'><pattern>%msg%n</pattern></encoder>");
        Logger log = lc.getLogger("r");
        Object noisy = new Object() {
            @Override
            public String toString() {
                log.info("inner line");
                return "arg";
            }
        };
        log.info("outer {} line", noisy);
        lc.stop();
        List<String> lines = Files.readAllLines(dir.resolve("reentrant.log"));
        assertEquals(List.of("inner line", "outer arg line"), lines);
    }

    @Test
    void reconfigurationDrainsTheOldAppenderAndLosesNothing() throws Exception {
        LoggerContext lc = configure("<file>" + file("first.log") + "</file><encoder class='io.github.spool.logback.SpoolEncoder'><pattern>%msg%n</pattern></encoder>");
        Logger log = lc.getLogger("r");
        for (int i = 0; i < 20_000; i++) {
            log.info("first {}", i);
        }
        configure(lc, "<file>" + file("second.log") + "</file><encoder class='io.github.spool.logback.SpoolEncoder'><pattern>%msg%n</pattern></encoder>");
        for (int i = 0; i < 20_000; i++) {
            log.info("second {}", i);
        }
        lc.stop();
        assertLines(dir.resolve("first.log"), "first ", 20_000);
        assertLines(dir.resolve("second.log"), "second ", 20_000);
        assertTrue(errors(lc).isEmpty(), () -> "errors: " + errors(lc));
    }

    @Test
    void stoppedAppenderTakesNoMoreEventsAndSaysSo() throws Exception {
        LoggerContext lc = configure("<file>" + file("stop.log") + "</file><encoder class='io.github.spool.logback.SpoolEncoder'><pattern>%msg%n</pattern></encoder>");
        SpoolAppender a = appender(lc);
        lc.getLogger("s").info("before");
        a.stop();
        assertFalse(a.isStarted());
        lc.getLogger("s").info("after");
        assertEquals(List.of("before"), Files.readAllLines(dir.resolve("stop.log")));
        lc.stop();
    }

    private static void assertLines(Path file, String prefix, int count) throws IOException {
        List<String> lines = Files.readAllLines(file);
        assertEquals(count, lines.size(), file + " line count");
        for (int i = 0; i < count; i++) {
            assertEquals(prefix + i, lines.get(i));
        }
    }
}
