// SPDX-License-Identifier: Apache-2.0
/**
 * Spool for logback: {@code SpoolAppender}, {@code SpoolEncoder}, {@code SpoolJsonEncoder}, and
 * the Spring Boot include files under {@code io/github/spool/logback/spring/}. logback's
 * configurator instantiates the classes by name and calls their public setters, which the
 * exports allow; Spool registers no logback service.
 */
@SuppressWarnings("requires-automatic") // Spring Boot's jars are automatic modules
module io.github.spool.logback {
    // The appender's and encoders' public methods name core's, logback's and SLF4J's types.
    requires transitive io.github.spool.core;
    requires transitive ch.qos.logback.classic;
    requires transitive ch.qos.logback.core;
    requires transitive org.slf4j;
    // Optional: SpoolJsonEncoder's spring-* formats use Spring Boot's structured logging when
    // the application has it, and never load these classes otherwise.
    requires static spring.boot;
    requires static spring.core;

    exports io.github.spool.logback;
    // PackagingDataSwitch, named in base.xml and instantiated by logback.
    exports io.github.spool.logback.spring;
    // The include files (base.xml, console-appender.xml, ...): a named module's resources are
    // found by name through a class loader only in packages it opens.
    opens io.github.spool.logback.spring;
}
