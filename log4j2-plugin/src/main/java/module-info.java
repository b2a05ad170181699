// SPDX-License-Identifier: Apache-2.0
/**
 * Spool for log4j2: the {@code <Spool>} appender, {@code <SpoolLayout>},
 * {@code <SpoolJsonTemplateLayout>} and {@code SpoolClock}. log4j2 finds the plugins through the
 * generated {@code META-INF/org/apache/logging/log4j/core/config/plugins/Log4j2Plugins.dat}, a
 * resource outside any package and so readable on the module path; log4j2 2.x discovers plugins
 * through no service, so the module provides none.
 */
@SuppressWarnings("module") // "log4j2" ends in a digit: the name is fixed, after the framework's
module io.github.spool.log4j2 {
    // The plugins' public methods name core's SpoolConfig, log4j-core's types (which bring
    // log4j-api along) and JsonTemplateLayout's.
    requires transitive io.github.spool.core;
    requires transitive org.apache.logging.log4j.core;
    requires transitive org.apache.logging.log4j.layout.template.json;

    exports io.github.spool.log4j2;
    // log4j-core builds the plugins through their builders, whose @PluginBuilderAttribute fields
    // are private and set by reflection.
    opens io.github.spool.log4j2 to org.apache.logging.log4j.core;
}
