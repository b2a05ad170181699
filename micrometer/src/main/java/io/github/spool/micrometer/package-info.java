/**
 * Micrometer meters for Spool's appenders: {@link io.github.spool.micrometer.SpoolMetrics}, a
 * {@code MeterBinder}, and (sub-package {@code spring}) the Spring Boot auto-configuration that
 * binds it.
 */
package io.github.spool.micrometer;
