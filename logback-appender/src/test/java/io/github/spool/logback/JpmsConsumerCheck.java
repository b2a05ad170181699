// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.Context;
import io.github.spool.soak.ModularApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * A modular application on the module path logs through the packaged {@code spool-logback} jar
 * (automatic module {@code io.github.spool.logback}) with {@code SpoolAppender} and
 * {@code SpoolEncoder}: logback instantiates them, the line reaches standard output, logback reports
 * no warning or error. Run with and without {@code jdk.unsupported} in the module graph. Not a
 * {@code *Test}: the pom runs it in the {@code package} phase, after the jars are built.
 */
class JpmsConsumerCheck {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "jdk.unsupported resolved: {0}")
    @ValueSource(booleans = {true, false})
    void modularApplicationLogsThroughSpool(boolean addJdkUnsupported) throws Exception {
        ModularApp app = new ModularApp(dir, List.of(jar("spool.packagedJar"), jar("spool.coreJar"),
                ModularApp.jarOf(LoggerFactory.class), ModularApp.jarOf(LoggerContext.class),
                ModularApp.jarOf(Context.class)));
        app.compile(Map.of(
                "module-info.java", "module app {\n"
                        + "    requires org.slf4j;\n"
                        + "    requires ch.qos.logback.classic;\n"
                        + "    requires ch.qos.logback.core;\n"
                        + "    requires io.github.spool.logback;\n"
                        + "}\n",
                "app/Main.java", "package app;\n"
                        + "import ch.qos.logback.classic.LoggerContext;\n"
                        + "import org.slf4j.LoggerFactory;\n"
                        + "public final class Main {\n"
                        + "    public static void main(String[] args) {\n"
                        + "        LoggerFactory.getLogger(Main.class).info(\"hello from module {}\", Main.class.getModule().getName());\n"
                        + "        LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();\n"
                        + "        Class<?> appender = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender(\"out\").getClass();\n"
                        + "        System.err.println(\"appender \" + appender.getName() + \" in \" + appender.getModule().getName());\n"
                        + "        ctx.stop();\n"
                        + "    }\n"
                        + "}\n"));
        Path config = dir.resolve("logback.xml");
        Files.writeString(config, "<configuration>\n"
                + "  <appender name=\"out\" class=\"" + SpoolAppender.class.getName() + "\">\n"
                + "    <encoder class=\"" + SpoolEncoder.class.getName() + "\">\n"
                + "      <pattern>%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %logger - %msg%n</pattern>\n"
                + "    </encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"info\"><appender-ref ref=\"out\"/></root>\n"
                + "</configuration>\n");
        List<String> options = new ArrayList<>(List.of("-Dlogback.configurationFile=" + config));
        if (addJdkUnsupported) {
            options.add("--add-modules");
            options.add("jdk.unsupported");
        }
        ModularApp.Result r = app.run("app", "app.Main", options);
        assertEquals(0, r.exitCode, r::toString);
        assertTrue(r.stdout.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  app\\.Main - hello from module app\\R"),
                r::toString);
        assertTrue(r.stderr.contains("appender " + SpoolAppender.class.getName() + " in io.github.spool.logback"), r::toString);
        assertFalse(r.stderr.contains("ERROR") || r.stderr.contains("WARN") || r.stderr.contains("Exception"), r::toString);
    }

    private static Path jar(String property) {
        String path = System.getProperty(property);
        assertNotNull(path, "-D" + property + " (set by the pom's packaged-jar execution)");
        return Path.of(path);
    }
}
