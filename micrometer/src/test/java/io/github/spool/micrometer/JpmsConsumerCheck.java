// SPDX-License-Identifier: Apache-2.0
package io.github.spool.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.Context;
import io.github.spool.soak.ModularApp;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Spool's five published jars are named modules with the names the docs give, and no package is
 * in two of them; a modular application on a module path binds {@code SpoolMetrics} (module
 * {@code io.github.spool.micrometer}) to a Micrometer registry and sees the meters of a logback
 * {@code SpoolAppender}. Micrometer's jars are automatic modules, so no {@code jlink} image here.
 * Not a {@code *Test}: the pom runs it in the {@code package} phase, after the jars are built.
 */
class JpmsConsumerCheck {

    @TempDir
    Path dir;

    @Test
    void spoolsJarsAreNamedModulesWithoutSplitPackages() {
        Map<String, String> expected = Map.of("spool.packagedJar", "io.github.spool.micrometer",
                "spool.coreJar", "io.github.spool.core", "spool.log4j2Jar", "io.github.spool.log4j2",
                "spool.logbackJar", "io.github.spool.logback", "spool.undertowJar", "io.github.spool.undertow");
        ModularApp.assertExplicitModules(expected);
        List<Path> jars = new ArrayList<>();
        expected.keySet().forEach(property -> jars.add(ModularApp.packagedJar(property)));
        assertEquals(Map.of(), ModularApp.splitPackages(jars));
    }

    @Test
    void modularApplicationSeesTheMeters() throws Exception {
        List<Path> modulePath = new ArrayList<>(List.of(ModularApp.packagedJar("spool.packagedJar"),
                ModularApp.packagedJar("spool.coreJar"), ModularApp.packagedJar("spool.logbackJar"),
                ModularApp.jarOf(LoggerFactory.class), ModularApp.jarOf(LoggerContext.class), ModularApp.jarOf(Context.class),
                ModularApp.jarOf(MeterRegistry.class)));
        // micrometer-core's own dependencies (commons, observation, HdrHistogram, LatencyUtils)
        for (String name : List.of("io.micrometer.common.KeyValue", "io.micrometer.observation.Observation",
                "org.HdrHistogram.Histogram", "org.LatencyUtils.LatencyStats")) {
            modulePath.add(ModularApp.jarOf(Class.forName(name)));
        }
        ModularApp app = new ModularApp(dir, modulePath);
        app.compile(Map.of(
                "module-info.java", "module app {\n"
                        + "    requires io.github.spool.logback;\n"
                        + "    requires io.github.spool.micrometer;\n"
                        + "}\n",
                "app/Main.java", "package app;\n"
                        + "import ch.qos.logback.classic.LoggerContext;\n"
                        + "import io.github.spool.micrometer.SpoolMetrics;\n"
                        + "import io.micrometer.core.instrument.simple.SimpleMeterRegistry;\n"
                        + "import org.slf4j.LoggerFactory;\n"
                        + "public final class Main {\n"
                        + "    public static void main(String[] args) {\n"
                        + "        LoggerFactory.getLogger(Main.class).info(\"hello from module {}\", Main.class.getModule().getName());\n"
                        + "        SimpleMeterRegistry registry = new SimpleMeterRegistry();\n"
                        + "        try (SpoolMetrics metrics = new SpoolMetrics()) {\n"
                        + "            metrics.bindTo(registry);\n"
                        + "            System.err.println(\"meter \" + registry.find(\"spool.events.written\").tag(\"appender\", \"out\").meter().getId());\n"
                        + "        }\n"
                        + "        ((LoggerContext) LoggerFactory.getILoggerFactory()).stop();\n"
                        + "    }\n"
                        + "}\n"));
        Path config = dir.resolve("logback.xml");
        Files.writeString(config, "<configuration>\n"
                + "  <appender name=\"out\" class=\"io.github.spool.logback.SpoolAppender\">\n"
                + "    <encoder class=\"io.github.spool.logback.SpoolEncoder\"><pattern>%level %msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"info\"><appender-ref ref=\"out\"/></root>\n"
                + "</configuration>\n");
        ModularApp.Result r = app.run("app", "app.Main", List.of("-Dlogback.configurationFile=" + config));
        assertEquals(0, r.exitCode, r::toString);
        assertEquals("INFO hello from module app" + System.lineSeparator(), r.stdout, r::toString);
        assertTrue(r.stderr.contains("meter MeterId{name='spool.events.written'"), r::toString);
        assertTrue(r.stderr.contains("tag(appender=out)"), r::toString);
        assertFalse(r.stderr.contains("ERROR") || r.stderr.contains("WARN") || r.stderr.contains("Exception"), r::toString);
    }
}
