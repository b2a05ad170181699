/**
 * What Spool's Spring Boot include files ({@code io/github/spool/logback/spring/*.xml}) need beyond
 * logback's and Spring Boot's own classes: {@link io.github.spool.logback.spring.PackagingDataSwitch}.
 */
package io.github.spool.logback.spring;
