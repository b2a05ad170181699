package io.github.spool.micrometer;

import ch.qos.logback.classic.LoggerContext;
import io.github.spool.metrics.JmxRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.metrics.MetricsEndpoint;
import org.springframework.boot.actuate.metrics.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.actuate.metrics.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.management.ObjectName;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * End to end through logback: a Spring Boot 3.5 application with Actuator, the Prometheus registry,
 * spool-logback and this artifact, and no setting for metrics. The Actuator endpoints' own beans
 * answer (no web server: {@link PrometheusScrapeEndpoint#scrape} is what {@code /actuator/prometheus}
 * returns, {@link MetricsEndpoint} is {@code /actuator/metrics}).
 */
class SpringBootMetricsTest {
    private static final String APPENDER = "SPOOL";
    private static final int LINES = 100_000;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }

    private static ConfigurableApplicationContext startApp() {
        return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("logging.config=classpath:spool-metrics-logback.xml",
                        "spring.main.banner-mode=off",
                        "management.endpoints.web.exposure.include=metrics,prometheus")
                .run();
    }

    private static String scrape(ConfigurableApplicationContext app) {
        byte[] body = app.getBean(PrometheusScrapeEndpoint.class).scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null).getBody();
        return new String(body, StandardCharsets.UTF_8);
    }

    @Test
    void prometheusShowsTheMBeansValuesAndFollowsRestarts() throws Exception {
        PrintStream stdout = System.out;
        GatedStream out = new GatedStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        ConfigurableApplicationContext app = null;
        try {
            app = startApp();
            Logger log = LoggerFactory.getLogger("metrics-e2e");
            for (int i = 0; i < LINES; i++) {
                log.info("line {}", i);
            }
            out.open();
            log.warn("LAST"); // above the discard threshold: waits for room, never dropped
            String context = ((LoggerContext) LoggerFactory.getILoggerFactory()).getName();
            ObjectName on = JmxRegistry.objectName(context, APPENDER);
            Waits.awaitWritten(on, out, "LAST");

            String scrape = scrape(app);
            long discarded = Waits.mbean(on, "EventsDiscarded");
            assertTrue(discarded > 0, "the stalled stdout forced discards");
            PrometheusText.assertEqualsMBean(scrape, APPENDER, on);
            assertTrue(scrape.contains("context=\"" + context + "\""), "tagged by context");

            MetricsEndpoint metrics = app.getBean(MetricsEndpoint.class);
            assertTrue(metrics.listNames().getNames().contains("spool.events.discarded"), "in /actuator/metrics");
            MetricsEndpoint.MetricDescriptor d = metrics.metric("spool.events.discarded", List.of("appender:" + APPENDER));
            assertNotNull(d);
            assertEquals(discarded, d.getMeasurements().get(0).getValue());

            // 20 context restarts: each reinitialises logback (a new SPOOL appender) and binds a
            // new registry; the closed context's binder leaves its registry and follows no more.
            for (int i = 0; i < 20; i++) {
                MeterRegistry old = app.getBean(PrometheusMeterRegistry.class);
                app.close();
                assertTrue(old.find("spool.events.written").meters().isEmpty(), "closed binder removed its meters");
                app = startApp();
                log.info("restart {}", i);
                scrape = scrape(app);
                assertEquals(1, PrometheusText.series(scrape, APPENDER, "spool_events_written_total"), "restart " + i + ":\n" + scrape);
                assertEquals(6, PrometheusText.series(scrape, APPENDER, "spool_events_discarded_total"), "one series per level");
                assertEquals(0.0, PrometheusText.value(scrape, APPENDER, "spool_events_discarded_total"), "a new appender's own counts");
                assertEquals(PrometheusText.METERS_PER_APPENDER, app.getBean(PrometheusMeterRegistry.class).getMeters().stream()
                        .filter(m -> APPENDER.equals(m.getId().getTag("appender"))).count(), "only the live appender's meters");
            }
        } finally {
            out.open();
            if (app != null) {
                app.close();
            }
            System.setOut(stdout);
        }
    }
}
