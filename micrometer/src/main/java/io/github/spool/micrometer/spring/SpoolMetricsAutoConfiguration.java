package io.github.spool.micrometer.spring;

import io.github.spool.micrometer.SpoolMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Binds {@link SpoolMetrics} to the application's meter registry when Micrometer is present, as
 * Spring Boot binds its own logback and log4j2 metrics: the {@code spool.*} meters then appear in
 * {@code /actuator/metrics} and {@code /actuator/prometheus} with no setting. A {@link SpoolMetrics}
 * bean of the application's own replaces this one. Spring closes the bean with the context, which
 * stops it following the appenders.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
public class SpoolMetricsAutoConfiguration {

    /** Made by Spring Boot. */
    public SpoolMetricsAutoConfiguration() {
    }

    /** @return the binder Spring Boot binds to the registry */
    @Bean
    @ConditionalOnMissingBean
    public SpoolMetrics spoolMetrics() {
        return new SpoolMetrics();
    }
}
