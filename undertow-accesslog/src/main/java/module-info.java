// SPDX-License-Identifier: Apache-2.0
/**
 * Spool for Undertow access logs: the {@code %{spoolTime}} exchange attributes and
 * {@code SpoolAccessLogReceiver}, and Spring Boot's {@code SpoolAccessLogCustomizer}.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // Undertow and Spring Boot are automatic modules
module io.github.spool.undertow {
    // SpoolAccessLogReceiver's public methods name core's Spool, SpoolConfig and stats, and
    // implement Undertow's AccessLogReceiver.
    requires transitive io.github.spool.core;
    requires transitive undertow.core;
    // Optional: only SpoolAccessLogCustomizer (package spring) uses them, and only a Spring Boot
    // application on Undertow loads it.
    requires static undertow.servlet;
    requires static spring.beans;
    requires static spring.boot;
    requires static spring.boot.autoconfigure;
    requires static spring.core;

    exports io.github.spool.undertow;
    exports io.github.spool.undertow.spring;

    // Undertow's ExchangeAttributeParser finds %{spoolTime} through ServiceLoader; on the module
    // path a named module's META-INF/services file is ignored, hence this clause beside it.
    provides io.undertow.attribute.ExchangeAttributeBuilder
            with io.github.spool.undertow.SpoolTimeAttribute.Builder;
}
