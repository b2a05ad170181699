// SPDX-License-Identifier: Apache-2.0
package io.github.spool.soak;

import java.io.File;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The class path a test's child JVM runs with: the test's own, without Spring's jars unless the
 * test is about Spring Boot.
 *
 * <p>Why: an adapter's tests have Spring Boot on their class path for the Spring Boot tests, and
 * Spring Boot's jar registers a log4j2 {@code PropertySource} ({@code SpringBootPropertySource},
 * priority -200, ahead of system properties) that sets {@code log4j.shutdownHookEnabled=false}, since
 * a Spring application stops log4j2 from its own shutdown hook. A plain program with that jar on
 * its class path therefore has no log4j2 shutdown hook at all, whatever its {@code log4j2.xml} or
 * {@code -Dlog4j.shutdownHookEnabled} says; an exit test meant to run with log4j2's hook ran without
 * it, and all-async loggers' queue was drained by no one (found when ForkedLoadTest lost the
 * Disruptor's tail under load, 2026-11-28). Logback registers nothing through Spring's jar, but its
 * children get the same class path so that both adapters' children run what a user without Spring
 * runs.
 */
public final class ChildClassPath {

    private ChildClassPath() {
    }

    /** @return {@code java.class.path} without the entries under {@code org/springframework} */
    public static String withoutSpring() {
        String marker = File.separator + "org" + File.separator + "springframework" + File.separator;
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains(marker))
                .collect(Collectors.joining(File.pathSeparator));
    }
}
