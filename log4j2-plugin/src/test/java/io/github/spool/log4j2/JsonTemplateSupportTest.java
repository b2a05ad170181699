package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which templates {@link SpoolJsonTemplateLayout} renders on the writer, and the one status
 * message naming the resolver when it cannot.
 */
class JsonTemplateSupportTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "{\"a\":{\"$resolver\":\"counter\"}}| resolver 'counter'",
        "{\"a\":{\"$resolver\":\"endOfBatch\"}}| resolver 'endOfBatch'",
        "{\"a\":{\"$resolver\":\"pattern\",\"pattern\":\"%m\"}}| resolver 'pattern'",
        "{\"a\":{\"$resolver\":\"thread\",\"field\":\"id\"}}| resolver 'thread' with field 'id'",
        "{\"a\":{\"$resolver\":\"logger\",\"field\":\"fqcn\"}}| resolver 'logger' with field 'fqcn'",
        "{\"a\":[{\"b\":{\"$resolver\":\"messageParameter\"}}]}| resolver 'messageParameter'",
        "{\"a\":{\"$resolver\":\"caseConverter\",\"case\":\"upper\",\"input\":{\"$resolver\":\"counter\"}}}| resolver 'counter'",
        "{\"a\":\"${ctx:user}\"}| lookup '${ctx:user}'",
    })
    void namesWhatTheWriterCannotRender(String template, String reason) {
        assertEquals(reason, JsonTemplateSupport.analyse(template, null, false).unsupported);
    }

    @Test
    void theShippedTemplatesRenderOnTheWriter() {
        for (String uri : List.of("EcsLayout.json", "LogstashJsonEventLayoutV1.json", "GelfLayout.json")) {
            SpoolJsonTemplateLayout layout = SpoolJsonTemplateLayout.newBuilder()
                    .setConfiguration(new DefaultConfiguration()).setEventTemplateUri("classpath:" + uri).build();
            assertTrue(layout.rendersFromCapture(), layout.describe());
        }
        JsonTemplateSupport.Verdict plain = JsonTemplateSupport.analyse(
                "{\"h\":\"${hostName}\",\"e\":\"${env:HOME:-x}\",\"l\":{\"$resolver\":\"level\"}}", null, false);
        assertNull(plain.unsupported);
        assertFalse(plain.context, "no mdc: the capture copies no context");
        assertEquals("resolver 'source' with locationInfoEnabled=\"true\"", JsonTemplateSupport.analyse(
                "{\"s\":{\"$resolver\":\"source\",\"field\":\"lineNumber\"}}", null, true).unsupported);
    }

    @Test
    void saysOnceInAnInfoStatusWhyEveryEventRendersOnTheCaller() {
        List<String> infos = new CopyOnWriteArrayList<>();
        StatusListener listener = new StatusListener() {
            @Override
            public void log(StatusData data) {
                String m = data.getMessage().getFormattedMessage();
                if (m.contains(SpoolJsonTemplateLayout.PLUGIN_NAME)) {
                    infos.add(data.getLevel() + " " + m);
                }
            }

            @Override
            public Level getStatusLevel() {
                return Level.INFO;
            }

            @Override
            public void close() {
            }
        };
        StatusLogger.getLogger().registerListener(listener);
        try {
            SpoolJsonTemplateLayout layout = SpoolJsonTemplateLayout.newBuilder()
                    .setConfiguration(new DefaultConfiguration()).setEventTemplateUri("classpath:JsonLayout.json").build();
            assertFalse(layout.rendersFromCapture());
        } finally {
            StatusLogger.getLogger().removeListener(listener);
        }
        assertEquals(1, infos.size(), infos.toString());
        assertTrue(infos.get(0).startsWith("INFO "), infos.get(0));
        assertTrue(infos.get(0).contains("resolver 'endOfBatch'"), infos.get(0));
    }
}
