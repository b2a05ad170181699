// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.soak.ModularApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A modular application on the module path logs through the packaged {@code spool-log4j2} jar
 * (automatic module {@code io.github.spool.log4j2}) with {@code <Spool>}, {@code <SpoolLayout>} and
 * {@code SpoolClock}: the plugins are found, the line reaches standard output, nothing is reported
 * on the status logger. Run with and without {@code jdk.unsupported} in the module graph (core
 * must work either way: it only uses that module when present). Not a {@code *Test}: the pom runs
 * it in the {@code package} phase, after the jars are built ({@code -Dspool.packagedJar},
 * {@code -Dspool.coreJar}).
 */
class JpmsConsumerCheck {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "jdk.unsupported resolved: {0}")
    @ValueSource(booleans = {true, false})
    void modularApplicationLogsThroughSpool(boolean addJdkUnsupported) throws Exception {
        ModularApp app = new ModularApp(dir, List.of(jar("spool.packagedJar"), jar("spool.coreJar"),
                ModularApp.jarOf(LogManager.class), ModularApp.jarOf(LoggerContext.class)));
        app.compile(Map.of(
                "module-info.java", "module app {\n"
                        + "    requires org.apache.logging.log4j;\n"
                        + "    requires org.apache.logging.log4j.core;\n"
                        + "    requires io.github.spool.log4j2;\n"
                        + "}\n",
                "app/Main.java", "package app;\n"
                        + "import org.apache.logging.log4j.LogManager;\n"
                        + "import org.apache.logging.log4j.core.LoggerContext;\n"
                        + "import org.apache.logging.log4j.core.util.ClockFactory;\n"
                        + "public final class Main {\n"
                        + "    public static void main(String[] args) {\n"
                        + "        LogManager.getLogger(Main.class).info(\"hello from module {}\", Main.class.getModule().getName());\n"
                        + "        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);\n"
                        + "        Class<?> appender = ctx.getConfiguration().getAppender(\"out\").getClass();\n"
                        + "        System.err.println(\"appender \" + appender.getName() + \" in \" + appender.getModule().getName());\n"
                        + "        System.err.println(\"clock \" + ClockFactory.getClock().getClass().getName());\n"
                        + "        LogManager.shutdown();\n"
                        + "    }\n"
                        + "}\n"));
        Path config = dir.resolve("log4j2.xml");
        Files.writeString(config, "<Configuration status=\"warn\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"out\" target=\"SYSTEM_OUT\">\n"
                + "      <SpoolLayout pattern=\"%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %logger - %msg%n\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"out\"/></Root></Loggers>\n"
                + "</Configuration>\n");
        List<String> options = new ArrayList<>(List.of("-Dlog4j2.configurationFile=" + config,
                "-Dlog4j.Clock=" + SpoolClock.class.getName()));
        if (addJdkUnsupported) {
            options.add("--add-modules");
            options.add("jdk.unsupported");
        }
        ModularApp.Result r = app.run("app", "app.Main", options);
        assertEquals(0, r.exitCode, r::toString);
        assertTrue(r.stdout.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  app\\.Main - hello from module app\\R"),
                r::toString);
        assertTrue(r.stderr.contains("appender " + SpoolAppender.class.getName() + " in io.github.spool.log4j2"), r::toString);
        assertTrue(r.stderr.contains("clock " + SpoolClock.class.getName()), r::toString);
        assertFalse(r.stderr.contains("ERROR") || r.stderr.contains("WARN") || r.stderr.contains("Exception"), r::toString);
    }

    private static Path jar(String property) {
        String path = System.getProperty(property);
        assertNotNull(path, "-D" + property + " (set by the pom's packaged-jar execution)");
        return Path.of(path);
    }
}
