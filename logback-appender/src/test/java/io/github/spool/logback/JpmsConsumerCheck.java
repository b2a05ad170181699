// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.Context;
import io.github.spool.soak.ModularApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * A modular application logs through SLF4J and the packaged {@code spool-logback} jar, the named
 * module {@code io.github.spool.logback}, with {@code SpoolAppender}, {@code SpoolEncoder} and
 * {@code SpoolJsonEncoder}: logback instantiates and configures them by name, the lines reach
 * standard output and a file, logback reports no warning or error, and the Spring Boot include
 * files stay readable by name. Run on a module path and from a {@code jlink}ed runtime image
 * (every module in the graph explicit, no class path at all). Not a {@code *Test}: the pom runs it
 * in the {@code package} phase, after the jars are built.
 */
class JpmsConsumerCheck {

    @TempDir
    Path dir;

    @Test
    void theJarsAreNamedModulesWithoutSplitPackages() {
        ModularApp.assertExplicitModules(Map.of("spool.packagedJar", "io.github.spool.logback", "spool.coreJar", "io.github.spool.core"));
        assertEquals(Map.of(), ModularApp.splitPackages(modulePath()));
    }

    @ParameterizedTest(name = "jlinked image: {0}")
    @ValueSource(booleans = {false, true})
    void modularApplicationLogsThroughSpool(boolean linked) throws Exception {
        ModularApp app = new ModularApp(dir, modulePath());
        app.compileApp("io.github.spool.logback", List.of("ch.qos.logback.classic.LoggerContext", "org.slf4j.LoggerFactory"), """
                LoggerFactory.getLogger(Main.class).info("hello from module {}", Main.class.getModule().getName());
                LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
                var root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
                for (String name : new String[] {"out", "json"}) {
                    var appender = (io.github.spool.logback.SpoolAppender) root.getAppender(name);
                    System.err.println(name + " " + appender.getClass().getName() + " in " + appender.getClass().getModule().getName()
                            + " with " + appender.getEncoder().getClass().getName());
                }
                System.err.println("include " + (ClassLoader.getSystemResource("io/github/spool/logback/spring/base.xml") != null));
                ctx.stop();
                """);
        Path config = dir.resolve("logback.xml");
        Path json = dir.resolve("json.log");
        Files.writeString(config, "<configuration>\n"
                + "  <appender name=\"out\" class=\"" + SpoolAppender.class.getName() + "\">\n"
                + "    <encoder class=\"" + SpoolEncoder.class.getName() + "\">\n"
                + "      <pattern>%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %logger - %msg%n</pattern>\n"
                + "    </encoder>\n"
                + "  </appender>\n"
                + "  <appender name=\"json\" class=\"" + SpoolAppender.class.getName() + "\">\n"
                + "    <file>" + json + "</file>\n"
                + "    <encoder class=\"" + SpoolJsonEncoder.class.getName() + "\"/>\n"
                + "  </appender>\n"
                + "  <root level=\"info\"><appender-ref ref=\"out\"/><appender-ref ref=\"json\"/></root>\n"
                + "</configuration>\n");
        List<String> options = List.of("-Dlogback.configurationFile=" + config);
        ModularApp.Result r = linked
                ? app.runImage(app.link("app"), "app", "app.Main", options)
                : app.run("app", "app.Main", options);
        assertEquals(0, r.exitCode, r::toString);
        assertTrue(r.stdout.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  app\\.Main - hello from module app\\R"),
                r::toString);
        assertTrue(r.stderr.contains("out " + SpoolAppender.class.getName() + " in io.github.spool.logback with "
                + SpoolEncoder.class.getName()), r::toString);
        assertTrue(r.stderr.contains("json " + SpoolAppender.class.getName() + " in io.github.spool.logback with "
                + SpoolJsonEncoder.class.getName()), r::toString);
        assertTrue(r.stderr.contains("include true"), r::toString);
        assertFalse(r.stderr.contains("ERROR") || r.stderr.contains("WARN") || r.stderr.contains("Exception"), r::toString);
        String line = Files.readString(json);
        assertTrue(line.contains("\"message\":\"hello from module app\"") && line.contains("\"level\":\"INFO\""), line);
    }

    /** The adapter, core, SLF4J and logback: all explicit modules. */
    private static List<Path> modulePath() {
        return List.of(ModularApp.packagedJar("spool.packagedJar"), ModularApp.packagedJar("spool.coreJar"), ModularApp.jarOf(LoggerFactory.class),
                ModularApp.jarOf(LoggerContext.class), ModularApp.jarOf(Context.class));
    }
}
