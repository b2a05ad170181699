package io.github.spool.micrometer;

import io.github.spool.metrics.JmxRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Through log4j2's {@code <Spool>} appender, without Spring Boot: a Prometheus registry's scrape
 * shows the MBean's values after forced discards, and 20 reconfigurations (each new appender
 * starts before the old one stops) leave only the live appender's meters.
 */
class Log4j2MetricsTest {
    private static final String CONTEXT = "metrics-log4j2";
    private static final String APPENDER = "SPOOL4J";
    private static final int LINES = 100_000;

    @TempDir
    Path dir;

    private long meters(PrometheusMeterRegistry registry) {
        return registry.getMeters().stream().filter(m -> APPENDER.equals(m.getId().getTag("appender"))).count();
    }

    @Test
    void prometheusShowsTheMBeansValuesAndFollowsReconfigurations() throws Exception {
        Path config = dir.resolve("log4j2.xml");
        Files.writeString(config, "<Configuration status=\"warn\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"" + APPENDER + "\" target=\"SYSTEM_OUT\" follow=\"true\" bufferSize=\"16 KiB\"\n"
                + "           maxBufferSize=\"64 KiB\" overflowPolicy=\"DISCARD\" discardThreshold=\"INFO\">\n"
                + "      <SpoolLayout pattern=\"%m%n\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"" + APPENDER + "\"/></Root></Loggers>\n"
                + "</Configuration>\n");
        PrintStream stdout = System.out;
        GatedStream out = new GatedStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SpoolMetrics metrics = new SpoolMetrics();
        metrics.bindTo(registry);
        LoggerContext ctx = new LoggerContext(CONTEXT, null, config.toUri());
        try {
            ctx.start();
            Logger log = ctx.getLogger("metrics-log4j2");
            for (int i = 0; i < LINES; i++) {
                log.info("line {}", i);
            }
            out.open();
            log.warn("LAST"); // above the discard threshold: waits for room, never dropped
            ObjectName on = JmxRegistry.objectName(CONTEXT, APPENDER);
            Waits.awaitWritten(on, out, "LAST");

            String scrape = registry.scrape();
            assertTrue(Waits.mbean(on, "EventsDiscarded") > 0, "the stalled stdout forced discards");
            PrometheusText.assertEqualsMBean(scrape, APPENDER, on);
            assertTrue(scrape.contains("context=\"" + CONTEXT + "\""), "tagged by context");

            for (int i = 0; i < 20; i++) {
                ctx.reconfigure();
                log.warn("reconfigured {}", i);
                String line = "reconfigured " + i + "\n";
                Waits.await(() -> out.contains(line) && Waits.mbean(on, "EventsWritten") == 1, () -> line);
                scrape = registry.scrape();
                assertEquals(PrometheusText.METERS_PER_APPENDER, meters(registry), "only the live appender's meters");
                assertEquals(1, PrometheusText.series(scrape, APPENDER, "spool_events_written_total"), scrape);
                assertEquals(1.0, PrometheusText.value(scrape, APPENDER, "spool_events_written_total"),
                        "the new appender's own count");
            }
            assertTrue(ctx.stop(10, TimeUnit.SECONDS));
            assertEquals(0, meters(registry), "a stopped context leaves no meters");
        } finally {
            out.open();
            ctx.stop(10, TimeUnit.SECONDS);
            metrics.close();
            System.setOut(stdout);
        }
    }
}
