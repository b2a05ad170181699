package io.github.spool.log4j2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code <SpoolLayout>} configured in a real {@code log4j2.xml} exactly as {@code <PatternLayout>}:
 * the same attributes and nested elements (charset, {@code disableAnsi}, {@code <Replace>}, {@code
 * <MarkerPatternSelector>}), lookups and location conversions, through sync loggers (which capture
 * the caller's location only if a layout asks for it). The {@code <Spool>} appender's file must be
 * byte-identical to log4j2's File appender with PatternLayout for the same events.
 */
class SpoolLayoutInConfigurationTest {

    @TempDir
    Path dir;

    @AfterEach
    void clearThreadContext() {
        ThreadContext.clearMap();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "pattern='%d %highlight{%-5level} [%t] %C.%M:%L %marker - %enc{%m}{CRLF} ${ctx:user} %X%n'",
        "pattern='%-5level %l %style{%c{1.}}{red} %m%n' disableAnsi='true'",
        "pattern='%-5level %maxLen{%m}{12} ü %m%n' charset='ISO-8859-1'",
        "pattern='%level %m%n' header='== start ==%n' footer='== end ==%n'",
        "pattern='%level %m%n'><Replace regex='[0-9]' replacement='#'/></LAYOUT><!-- ",
        "pattern='%level %m%n'><MarkerPatternSelector defaultPattern='%level %m%n'>"
                + "<PatternMatch key='AUDIT' pattern='AUDIT %L %m%n'/></MarkerPatternSelector></LAYOUT><!-- ",
    })
    @Timeout(60)
    void spoolLayoutWritesWhatPatternLayoutWrites(String attributes) throws Exception {
        String spool = layout("SpoolLayout", attributes);
        String pattern = layout("PatternLayout", attributes);
        LoggerContext context = Log4jRig.start(dir,
                "<Spool name='spool' fileName='" + dir.resolve(Log4jRig.SPOOL) + "'>" + spool + "</Spool>"
                        + "<File name='reference' fileName='" + dir.resolve(Log4jRig.REFERENCE) + "'>" + pattern + "</File>",
                "spool", "reference");
        try {
            Logger log = context.getLogger("app.billing.Service");
            ThreadContext.put("user", "alice");
            log.info("charged {} EUR for order 12345", 42);
            log.warn("a\r\nforged line ü€");
            log.error("failed", new IllegalStateException("card declined", new RuntimeException((String) null)));
            log.info(marker(), "audited call");
        } finally {
            context.stop();
        }
        byte[] reference = Files.readAllBytes(dir.resolve(Log4jRig.REFERENCE));
        byte[] actual = Files.readAllBytes(dir.resolve(Log4jRig.SPOOL));
        String text = new String(reference, StandardCharsets.ISO_8859_1);
        assertTrue(reference.length > 100, "the reference wrote something: " + text);
        if (attributes.contains("%L")) {
            assertTrue(text.contains("spoolLayoutWritesWhatPatternLayoutWrites"), "location captured: " + text);
        }
        assertArrayEquals(reference, actual, () -> "reference:\n" + text + "\nspool:\n"
                + new String(actual, StandardCharsets.ISO_8859_1));
    }

    /**
     * Location through async loggers ({@code <AsyncRoot includeLocation="true">}), the Spool
     * appender with SpoolLayout as the only appender: the caller's class, method and line, rendered
     * by the delegated {@code %C %M %L}. (log4j2 2.26.1's AsyncLoggerConfig captures the location
     * on the caller's thread whenever {@code includeLocation} is set, so this checks the rendering;
     * {@code requiresLocation()} itself is compared with PatternLayout's in SpoolLayoutConfigTest
     * and PatternLayoutParityTest.)
     */
    @Test
    @Timeout(60)
    void asyncLoggersPrintTheCallersLocation() throws Exception {
        Path file = dir.resolve("async.log");
        String xml = "<?xml version='1.0' encoding='UTF-8'?>\n<Configuration status='warn'><Appenders>"
                + "<Spool name='spool' fileName='" + file + "'><SpoolLayout pattern='%C{1}.%M:%L %m%n'/></Spool>"
                + "</Appenders><Loggers><AsyncRoot level='info' includeLocation='true'>"
                + "<AppenderRef ref='spool'/></AsyncRoot></Loggers></Configuration>\n";
        Path config = Files.createTempFile(dir, "log4j2-async-", ".xml");
        Files.writeString(config, xml, StandardCharsets.UTF_8);
        LoggerContext context = new LoggerContext("async-location", null, config.toUri());
        context.start();
        int line;
        try {
            line = new Throwable().getStackTrace()[0].getLineNumber() + 1;
            context.getLogger("app.Async").info("located");
        } finally {
            context.stop();
        }
        assertEquals("SpoolLayoutInConfigurationTest.asyncLoggersPrintTheCallersLocation:" + line
                + " located" + System.lineSeparator(), Files.readString(file, StandardCharsets.UTF_8));
    }

    /** A full layout element; the selector/replace variants close it themselves and comment out the rest. */
    private static String layout(String element, String attributes) {
        String body = attributes.replace("LAYOUT", element);
        return "<" + element + " " + body + (body.endsWith("<!-- ") ? " -->" : "/>");
    }

    /** {@code MarkerManager.getMarker("AUDIT")} without naming MarkerManager (javac's @InlineMe warning). */
    private static org.apache.logging.log4j.Marker marker() throws ReflectiveOperationException {
        return (org.apache.logging.log4j.Marker) Class.forName("org.apache.logging.log4j.MarkerManager")
                .getMethod("getMarker", String.class).invoke(null, "AUDIT");
    }
}
