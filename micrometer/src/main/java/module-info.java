// SPDX-License-Identifier: Apache-2.0
/**
 * Spool's Micrometer meters: {@code SpoolMetrics}, a {@code MeterBinder} for every running Spool
 * appender, and the Spring Boot auto-configuration that registers it. Spring Boot finds the
 * auto-configuration through {@code META-INF/spring/...AutoConfiguration.imports}, a resource
 * outside any package and so readable on the module path.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // Micrometer and Spring Boot are automatic modules
module io.github.spool.micrometer {
    requires io.github.spool.core;
    // SpoolMetrics implements MeterBinder and takes Micrometer's tags.
    requires transitive micrometer.core;
    // Optional: only the auto-configuration uses them, and only Spring Boot loads it.
    requires static spring.boot;
    requires static spring.boot.autoconfigure;
    requires static spring.context;

    exports io.github.spool.micrometer;
    // The auto-configuration, instantiated by Spring through its public constructor.
    exports io.github.spool.micrometer.spring;
}
