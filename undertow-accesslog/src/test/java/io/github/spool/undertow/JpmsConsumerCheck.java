// SPDX-License-Identifier: Apache-2.0
package io.github.spool.undertow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.soak.ModularApp;
import io.undertow.attribute.ExchangeAttributes;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A modular application on a module path uses the packaged {@code spool-undertow} jar, the named
 * module {@code io.github.spool.undertow}: Undertow's attribute parser finds
 * {@code %{spoolTime,...}} through the module's {@code provides} clause (a named module's
 * {@code META-INF/services} file is not read), and {@code SpoolAccessLogReceiver} writes a line to
 * a file. Undertow's jars are automatic modules, so no {@code jlink} image here. Not a
 * {@code *Test}: the pom runs it in the {@code package} phase, after the jars are built.
 */
class JpmsConsumerCheck {

    @TempDir
    Path dir;

    @Test
    void theJarIsANamedModuleThatProvidesTheAttributeBuilder() {
        ModularApp.assertExplicitModules(Map.of("spool.packagedJar", "io.github.spool.undertow"));
        ModuleDescriptor module = ModularApp.descriptorOf(ModularApp.packagedJar("spool.packagedJar"));
        assertTrue(module.provides().stream().anyMatch(p -> p.service().equals("io.undertow.attribute.ExchangeAttributeBuilder")
                && p.providers().equals(List.of(SpoolTimeAttribute.Builder.class.getName()))), module::toString);
        assertEquals(Map.of(), ModularApp.splitPackages(List.of(ModularApp.packagedJar("spool.packagedJar"), ModularApp.packagedJar("spool.coreJar"))));
    }

    @Test
    void modularApplicationLogsThroughSpool() throws Exception {
        ModularApp app = new ModularApp(dir, List.of(ModularApp.packagedJar("spool.packagedJar"), ModularApp.packagedJar("spool.coreJar"),
                ModularApp.jarOf(ExchangeAttributes.class), ModularApp.jarOf(org.jboss.logging.Logger.class),
                ModularApp.jarOf(org.xnio.Xnio.class), ModularApp.jarOf(org.wildfly.common.Assert.class),
                ModularApp.jarOf(org.wildfly.client.config.ClientConfiguration.class)));
        app.compile(Map.of(
                "module-info.java", "module app {\n"
                        + "    requires io.github.spool.undertow;\n"
                        + "}\n",
                "app/Main.java", "package app;\n"
                        + "import io.github.spool.SpoolConfig;\n"
                        + "import io.github.spool.undertow.SpoolAccessLogReceiver;\n"
                        + "import io.undertow.attribute.ExchangeAttribute;\n"
                        + "import io.undertow.attribute.ExchangeAttributes;\n"
                        + "import java.nio.file.Path;\n"
                        + "import java.util.concurrent.TimeUnit;\n"
                        + "public final class Main {\n"
                        + "    public static void main(String[] args) throws Exception {\n"
                        + "        ExchangeAttribute time = ExchangeAttributes.parser(Main.class.getClassLoader())\n"
                        + "                .parseSingleToken(\"%{spoolTime,yyyy-MM-dd HH:mm:ss.SSS}\");\n"
                        + "        System.err.println(\"attribute \" + time.getClass().getName() + \" in \" + time.getClass().getModule().getName());\n"
                        + "        SpoolAccessLogReceiver receiver = SpoolAccessLogReceiver.start(\n"
                        + "                SpoolConfig.builder(SpoolAccessLogReceiver.DEFAULT_NAME).file(Path.of(args[0])).build());\n"
                        + "        receiver.logMessage(time.readAttribute(null) + \" GET /hello 200\");\n"
                        + "        System.err.println(\"stopped \" + receiver.stop(10, TimeUnit.SECONDS));\n"
                        + "    }\n"
                        + "}\n"));
        Path log = dir.resolve("access.log");
        ModularApp.Result r = app.run("app", "app.Main", List.of(), List.of(log.toString()));
        assertEquals(0, r.exitCode, r::toString);
        assertTrue(r.stderr.contains("attribute " + SpoolTimeAttribute.class.getName() + " in io.github.spool.undertow"), r::toString);
        assertTrue(r.stderr.contains("stopped true"), r::toString);
        assertFalse(r.stderr.contains("ERROR") || r.stderr.contains("WARN") || r.stderr.contains("Exception"), r::toString);
        String line = Files.readString(log);
        assertTrue(line.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} GET /hello 200\\R"), line);
    }
}
