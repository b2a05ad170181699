package io.github.spool.log4j2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.log4j2.SpoolAppender;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.message.StringMapMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code <SpoolJsonTemplateLayout>} configured in a real {@code log4j2.xml} exactly as {@code
 * <JsonTemplateLayout>} (the same attributes, {@code <EventTemplateAdditionalField>} elements),
 * inside a {@code <Spool render="writer">} appender: its file must be byte-identical to log4j2's
 * File appender with JsonTemplateLayout for the same events, and the appender must render on the
 * writer for the shipped templates (and on the caller, still identical, where it cannot).
 */
class SpoolJsonTemplateLayoutInConfigurationTest {

    @TempDir
    Path dir;

    @AfterEach
    void clearThreadContext() {
        ThreadContext.clearAll();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "eventTemplateUri='classpath:EcsLayout.json'| true",
        "eventTemplateUri='classpath:LogstashJsonEventLayoutV1.json'| true",
        "eventTemplateUri='classpath:GelfLayout.json' maxStringLength='64'| true",
        "eventTemplateUri='classpath:EcsLayout.json'><EventTemplateAdditionalField key='service.name' value='billing'/>"
                + "<EventTemplateAdditionalField key='labels.json' format='JSON' value='{\"a\":[1,2]}'/></LAYOUT><!-- | true",
        "eventTemplateUri='classpath:JsonLayout.json'| false",
    })
    @Timeout(60)
    void writesWhatJsonTemplateLayoutWrites(String attributes, boolean onWriter) throws Exception {
        LoggerContext context = Log4jRig.start(dir,
                "<Spool name='spool' render='writer' fileName='" + dir.resolve(Log4jRig.SPOOL) + "'>"
                        + layout("SpoolJsonTemplateLayout", attributes) + "</Spool>"
                        + "<File name='reference' fileName='" + dir.resolve(Log4jRig.REFERENCE) + "'>"
                        + layout("JsonTemplateLayout", attributes) + "</File>",
                "spool", "reference");
        try {
            SpoolAppender appender = context.getConfiguration().getAppender("spool");
            assertEquals(onWriter, appender.getSpoolConfig().renderer() != null, "renders on the writer");
            Logger log = context.getLogger("app.billing.Service");
            ThreadContext.put("user", "alice");
            ThreadContext.put("request", "r-\u00e9\u0001\"42\"");
            log.info("charged {} EUR for order {}", 42, "12345");
            log.warn("a\r\nforged line \u00fc\u20ac \ud83d\ude00 lone \ud800 end");
            ThreadContext.push("ndc-frame");
            log.error("failed", new IllegalStateException("card declined", new RuntimeException((String) null)));
            ThreadContext.pop();
            log.info(new StringMapMessage(Map.of("action", "login")));
            log.debug("x".repeat(100));
        } finally {
            context.stop();
        }
        byte[] reference = Files.readAllBytes(dir.resolve(Log4jRig.REFERENCE));
        byte[] actual = Files.readAllBytes(dir.resolve(Log4jRig.SPOOL));
        String text = new String(reference, StandardCharsets.UTF_8);
        assertTrue(text.contains("charged 42 EUR for order 12345"), "the reference wrote something: " + text);
        assertArrayEquals(reference, actual, () -> "reference:\n" + text + "\nspool:\n"
                + new String(actual, StandardCharsets.UTF_8));
    }

    /** A full layout element; the variants with elements close it themselves and comment out the rest. */
    private static String layout(String element, String attributes) {
        String body = attributes.trim().replace("LAYOUT", element);
        return "<" + element + " " + body + (body.endsWith("<!--") ? " -->" : "/>");
    }
}
