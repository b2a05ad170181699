// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.soak.ModularApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.layout.template.json.JsonTemplateLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A modular application logs through the packaged {@code spool-log4j2} jar, the named module
 * {@code io.github.spool.log4j2}, with {@code <Spool>}, {@code <SpoolLayout>},
 * {@code <SpoolJsonTemplateLayout>} and {@code SpoolClock}: log4j2 finds the plugins and builds them
 * (their builders' private fields set through the module's {@code opens}), the lines reach standard
 * output and a file, nothing is reported on the status logger. Run on a module path and from a
 * {@code jlink}ed runtime image (every module in the graph explicit, no class path at all). Not a
 * {@code *Test}: the pom runs it in the {@code package} phase, after the jars are built
 * ({@code -Dspool.packagedJar}, {@code -Dspool.coreJar}).
 */
class JpmsConsumerCheck {

    @TempDir
    Path dir;

    @Test
    void theJarsAreNamedModulesWithoutSplitPackages() {
        ModularApp.assertExplicitModules(Map.of("spool.packagedJar", "io.github.spool.log4j2", "spool.coreJar", "io.github.spool.core"));
        assertEquals(Map.of(), ModularApp.splitPackages(modulePath()));
    }

    @ParameterizedTest(name = "jlinked image: {0}")
    @ValueSource(booleans = {false, true})
    void modularApplicationLogsThroughSpool(boolean linked) throws Exception {
        ModularApp app = new ModularApp(dir, modulePath());
        app.compileApp("io.github.spool.log4j2", List.of("org.apache.logging.log4j.LogManager",
                "org.apache.logging.log4j.core.LoggerContext", "org.apache.logging.log4j.core.util.ClockFactory"), """
                LogManager.getLogger(Main.class).info("hello from module {}", Main.class.getModule().getName());
                LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
                for (String name : new String[] {"out", "json"}) {
                    var appender = ctx.getConfiguration().getAppender(name);
                    System.err.println(name + " " + appender.getClass().getName() + " in " + appender.getClass().getModule().getName()
                            + " with " + appender.getLayout().getClass().getName());
                }
                System.err.println("clock " + ClockFactory.getClock().getClass().getName());
                LogManager.shutdown();
                """);
        Path config = dir.resolve("log4j2.xml");
        Path json = dir.resolve("json.log");
        Files.writeString(config, "<Configuration status=\"warn\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"out\" target=\"SYSTEM_OUT\">\n"
                + "      <SpoolLayout pattern=\"%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %logger - %msg%n\"/>\n"
                + "    </Spool>\n"
                + "    <Spool name=\"json\" fileName=\"" + json + "\">\n"
                + "      <SpoolJsonTemplateLayout eventTemplateUri=\"classpath:JsonLayout.json\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"out\"/><AppenderRef ref=\"json\"/></Root></Loggers>\n"
                + "</Configuration>\n");
        List<String> options = List.of("-Dlog4j2.configurationFile=" + config,
                "-Dlog4j.Clock=" + SpoolClock.class.getName());
        // java.naming: log4j-core warns at startup when its JNDI lookup cannot load (its
        // requires static), what a jlink user of log4j2 adds whatever the appenders.
        ModularApp.Result r = linked
                ? app.runImage(app.link("app", "java.naming"), "app", "app.Main", options)
                : app.run("app", "app.Main", options);
        assertEquals(0, r.exitCode, r::toString);
        assertTrue(r.stdout.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  app\\.Main - hello from module app\\R"),
                r::toString);
        assertTrue(r.stderr.contains("out " + SpoolAppender.class.getName() + " in io.github.spool.log4j2 with "
                + SpoolLayout.class.getName()), r::toString);
        assertTrue(r.stderr.contains("json " + SpoolAppender.class.getName() + " in io.github.spool.log4j2 with "
                + SpoolJsonTemplateLayout.class.getName()), r::toString);
        assertTrue(r.stderr.contains("clock " + SpoolClock.class.getName()), r::toString);
        assertFalse(r.stderr.contains("ERROR") || r.stderr.contains("WARN") || r.stderr.contains("Exception"), r::toString);
        String line = Files.readString(json);
        assertTrue(line.contains("\"message\":\"hello from module app\"") && line.contains("\"level\":\"INFO\""), line);
    }

    /** The adapter, core and the log4j2 jars they require: all explicit modules. */
    private static List<Path> modulePath() {
        return List.of(ModularApp.packagedJar("spool.packagedJar"), ModularApp.packagedJar("spool.coreJar"), ModularApp.jarOf(LogManager.class),
                ModularApp.jarOf(LoggerContext.class), ModularApp.jarOf(JsonTemplateLayout.class));
    }
}
