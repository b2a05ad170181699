/**
 * Spring Boot 3.5 on Undertow: {@link io.github.spool.undertow.spring.SpoolAccessLogCustomizer}
 * routes {@code server.undertow.accesslog} through Spool. Needs Spring Boot and undertow-servlet
 * on the class path; nothing else in {@code spool-undertow} does.
 */
package io.github.spool.undertow.spring;
