package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AppenderLoggingException;
import org.apache.logging.log4j.layout.template.json.util.JsonReader;
import org.apache.logging.log4j.message.AsynchronouslyFormattable;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code <Spool>} with what log4j2 nests in an appender, from real configuration files: a
 * {@code <Filter>}, {@code ignoreExceptions}, and a layout from another module
 * ({@code JsonTemplateLayout}).
 */
class SpoolAppenderElementsTest {

    @TempDir
    Path dir;

    @Test
    void nestedThresholdAndMarkerFiltersDeny() throws Exception {
        Path threshold = dir.resolve("threshold.log");
        Path marker = dir.resolve("marker.log");
        Path both = dir.resolve("both.log");
        LoggerContext ctx = start(
                "<Spool name='threshold' fileName='" + threshold + "'><PatternLayout pattern='%p %m%n'/>"
                        + "<ThresholdFilter level='warn' onMatch='ACCEPT' onMismatch='DENY'/></Spool>"
                        + "<Spool name='marker' fileName='" + marker + "'><SpoolLayout pattern='%p %m%n'/>"
                        + "<MarkerFilter marker='SECRET' onMatch='DENY' onMismatch='NEUTRAL'/></Spool>"
                        + "<Spool name='both' fileName='" + both + "'><SpoolLayout pattern='%p %m%n'/>"
                        + "<Filters><MarkerFilter marker='SECRET' onMatch='DENY' onMismatch='NEUTRAL'/>"
                        + "<ThresholdFilter level='info'/></Filters></Spool>",
                "threshold", "marker", "both");
        try {
            Logger log = ctx.getLogger("filters");
            log.debug("d");
            log.info("i");
            log.warn("w");
            log.error(marker("SECRET"), "secret");
            log.info(marker("PUBLIC"), "public");
        } finally {
            assertTrue(ctx.stop(10, TimeUnit.SECONDS));
        }
        assertEquals(List.of("WARN w", "ERROR secret"), Files.readAllLines(threshold));
        assertEquals(List.of("DEBUG d", "INFO i", "WARN w", "INFO public"), Files.readAllLines(marker));
        assertEquals(List.of("INFO i", "WARN w", "INFO public"), Files.readAllLines(both));
    }

    /**
     * A layout that throws (here: the message it formats throws). With {@code ignoreExceptions="false"}
     * the caller gets log4j2's {@link AppenderLoggingException} with the cause; with the default
     * {@code true} the call returns, the failure goes to the StatusLogger naming the appender. Either
     * way the appender keeps working and the failed event leaves no partial line behind.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SpoolLayout", "PatternLayout"})
    void layoutFailurePropagatesOnlyWithIgnoreExceptionsFalse(String layout) throws Exception {
        Path strict = dir.resolve("strict.log");
        Path lenient = dir.resolve("lenient.log");
        String element = "<" + layout + " pattern='%p %m%n'/>";
        List<StatusData> status = new CopyOnWriteArrayList<>();
        StatusListener listener = new StatusListener() {
            @Override
            public void log(StatusData data) {
                status.add(data);
            }

            @Override
            public Level getStatusLevel() {
                return Level.WARN;
            }

            @Override
            public void close() {
            }
        };
        LoggerContext ctx = start(
                "<Spool name='strict' fileName='" + strict + "' ignoreExceptions='false'>" + element + "</Spool>"
                        + "<Spool name='lenient' fileName='" + lenient + "'>" + element + "</Spool>",
                (String[]) null);
        StatusLogger.getLogger().registerListener(listener);
        try {
            Logger strictLog = ctx.getLogger("strict");
            Logger lenientLog = ctx.getLogger("lenient");
            strictLog.info("before");
            AppenderLoggingException e = assertThrows(AppenderLoggingException.class,
                    () -> strictLog.info(new ExplodingMessage()));
            assertInstanceOf(IllegalStateException.class, e.getCause(), e.toString());
            assertEquals("exploding message", e.getCause().getMessage());
            strictLog.info("after");

            lenientLog.info("before");
            lenientLog.info(new ExplodingMessage()); // returns normally
            lenientLog.info("after");
        } finally {
            StatusLogger.getLogger().removeListener(listener);
            assertTrue(ctx.stop(10, TimeUnit.SECONDS));
        }
        assertEquals(List.of("INFO before", "INFO after"), Files.readAllLines(strict));
        assertEquals(List.of("INFO before", "INFO after"), Files.readAllLines(lenient));
        assertTrue(status.stream().anyMatch(d -> d.getLevel() == Level.ERROR
                && d.getMessage().getFormattedMessage().contains("lenient")
                && rootCause(d.getThrowable()) instanceof IllegalStateException),
                () -> "the lenient appender's failure on the StatusLogger: " + status);
    }

    @Test
    void nestedJsonTemplateLayoutWritesOneValidJsonLinePerEvent() throws Exception {
        Path json = dir.resolve("json.log");
        LoggerContext ctx = start("<Spool name='json' fileName='" + json + "'>"
                + "<JsonTemplateLayout eventTemplateUri='classpath:EcsLayout.json'/></Spool>", "json");
        int n = 1000;
        try {
            Logger log = ctx.getLogger("io.github.spool.json");
            for (int i = 0; i < n; i++) {
                ThreadContext.put("seq", Integer.toString(i));
                if (i % 100 == 7) {
                    log.error("failure {} \"quoted\"\nsecond line \u00fc\u20ac\uD83D\uDE00", i,
                            new IllegalStateException("boom " + i, new IOException("cause")));
                } else {
                    log.info("event {} \"quoted\"\ttab \u00fc\u20ac\uD83D\uDE00", i);
                }
            }
        } finally {
            ThreadContext.clearMap();
            assertTrue(ctx.stop(10, TimeUnit.SECONDS));
        }
        List<String> lines = Files.readAllLines(json, StandardCharsets.UTF_8);
        assertEquals(n, lines.size(), "one line per event");
        for (int i = 0; i < n; i++) {
            Object parsed = JsonReader.read(lines.get(i)); // throws on invalid JSON
            assertInstanceOf(Map.class, parsed, lines.get(i));
            Map<?, ?> doc = (Map<?, ?>) parsed;
            assertEquals(Integer.toString(i), doc.get("seq"), "order and MDC, line " + i);
            assertEquals("io.github.spool.json", doc.get("log.logger"));
            if (i % 100 == 7) {
                assertEquals("ERROR", doc.get("log.level"));
                assertEquals("failure " + i + " \"quoted\"\nsecond line \u00fc\u20ac\uD83D\uDE00", doc.get("message"));
                assertEquals("boom " + i, doc.get("error.message"));
                assertTrue(((String) doc.get("error.stack_trace")).contains("Caused by: java.io.IOException: cause"));
            } else {
                assertEquals("INFO", doc.get("log.level"));
                assertEquals("event " + i + " \"quoted\"\ttab \u00fc\u20ac\uD83D\uDE00", doc.get("message"));
            }
        }
    }

    /**
     * {@code MarkerManager.getMarker(name)}, called reflectively: naming {@code MarkerManager} in
     * source makes javac read its errorprone {@code @InlineMe} annotations, absent from the
     * classpath, and warn, which {@code -Werror} turns into a build failure.
     */
    private static Marker marker(String name) throws ReflectiveOperationException {
        return (Marker) Class.forName("org.apache.logging.log4j.MarkerManager").getMethod("getMarker", String.class)
                .invoke(null, name);
    }

    private static Throwable rootCause(Throwable t) {
        while (t != null && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /**
     * Writes a configuration and starts a private context on it. With {@code rootRef} the root logger
     * (level trace) refers to those appenders; with {@code null} loggers "strict" and "lenient" refer to
     * the appenders of the same name.
     */
    private LoggerContext start(String appenders, String... rootRefs) throws IOException {
        StringBuilder loggers = new StringBuilder();
        if (rootRefs == null) {
            loggers.append("<Logger name='strict' level='info' additivity='false'><AppenderRef ref='strict'/></Logger>")
                    .append("<Logger name='lenient' level='info' additivity='false'><AppenderRef ref='lenient'/></Logger>")
                    .append("<Root level='off'/>");
        } else {
            loggers.append("<Root level='trace'>");
            for (String ref : rootRefs) {
                loggers.append("<AppenderRef ref='").append(ref).append("'/>");
            }
            loggers.append("</Root>");
        }
        String xml = "<?xml version='1.0' encoding='UTF-8'?>\n<Configuration status='warn'>\n<Appenders>" + appenders
                + "</Appenders>\n<Loggers>" + loggers + "</Loggers>\n</Configuration>\n";
        Path config = Files.createTempFile(dir, "log4j2-", ".xml");
        Files.writeString(config, xml, StandardCharsets.UTF_8);
        LoggerContext ctx = new LoggerContext(config.getFileName().toString(), null, config.toUri());
        ctx.start();
        for (String name : new String[] {"threshold", "marker", "both", "strict", "lenient", "json"}) {
            if (appenders.contains("name='" + name + "'")) {
                assertTrue(ctx.getConfiguration().getAppender(name) instanceof SpoolAppender, name + " created");
            }
        }
        return ctx;
    }

    /** A message whose formatting throws; formatted by the layout, not on the logging call's way in. */
    @AsynchronouslyFormattable
    static final class ExplodingMessage implements Message {
        private static final long serialVersionUID = 1L;

        @Override
        public String getFormattedMessage() {
            throw new IllegalStateException("exploding message");
        }

        @Override
        public Object[] getParameters() {
            return null;
        }

        @Override
        public Throwable getThrowable() {
            return null;
        }
    }
}
