/**
 * The Spring Boot auto-configuration of {@link io.github.spool.micrometer.SpoolMetrics}; loaded
 * only by Spring Boot (through {@code META-INF/spring/...AutoConfiguration.imports}).
 */
package io.github.spool.micrometer.spring;
