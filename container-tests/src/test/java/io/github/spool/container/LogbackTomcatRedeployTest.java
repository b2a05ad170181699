// SPDX-License-Identifier: Apache-2.0
package io.github.spool.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.Context;
import io.github.spool.Spool;
import io.github.spool.container.logback.LogServlet;
import io.github.spool.container.logback.WebAppListener;
import io.github.spool.logback.SpoolAppender;
import io.github.spool.logback.SpoolEncoder;
import io.github.spool.soak.Redeploy;
import io.github.spool.soak.TomcatRedeploy;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Ten deployments and undeployments of a web application on an embedded Tomcat (forked JVM, core's
 * {@link TomcatRedeploy}): its {@code WEB-INF/lib} brings SLF4J, logback and Spool, it logs through
 * {@code SpoolAppender} with {@code SpoolEncoder} on Tomcat's request threads, and stops logback
 * when undeployed. Tomcat's own leak detection (its thread-local check included: the run opens
 * {@code java.lang} to it) must report nothing of Spool's, and "find leaks" no application.
 */
class LogbackTomcatRedeployTest {

    private static final int CYCLES = 10;
    private static final int EVENTS = 200;

    @TempDir
    Path dir;

    @Test
    void tomcatFindsNoLeakOfSpoolOverTenRedeploys() throws Exception {
        Path app = TomcatRedeploy.explodedWebApp(dir.resolve("app"), WebAppListener.class, LogServlet.class, "logback.xml",
                "<configuration>\n"
                + "  <appender name=\"web\" class=\"" + SpoolAppender.class.getName() + "\">\n"
                + "    <bufferSize>64KB</bufferSize>\n"
                + "    <maxBufferSize>1MB</maxBufferSize>\n"
                + "    <encoder class=\"" + SpoolEncoder.class.getName() + "\">\n"
                + "      <pattern>%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger - %msg%n</pattern>\n"
                + "    </encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"info\"><appender-ref ref=\"web\"/></root>\n"
                + "</configuration>\n",
                // the packaged spool-logback and spool-core jars, SLF4J, logback
                SpoolAppender.class, Spool.class, LoggerFactory.class, LoggerContext.class, Context.class);
        Redeploy.Run run = TomcatRedeploy.fork(app, List.of(), CYCLES, "log?cycle=%d&events=" + EVENTS);
        assertEquals(0, run.exitCode, run::toString);
        for (int c = 0; c < CYCLES; c++) {
            int cycle = c;
            assertEquals(EVENTS, run.linesOfCycle(cycle), () -> "lines of cycle " + cycle + " in " + run);
            assertTrue(run.stderr.contains("cycle " + cycle + ": logged " + EVENTS + " appender=" + SpoolAppender.class.getName()),
                    run::toString);
        }
        List<String> warnings = run.stderr.lines().filter(l -> l.startsWith("tomcat-warning: ")).collect(Collectors.toList());
        System.out.println("Tomcat's warnings over " + CYCLES + " redeploys: " + warnings);
        assertEquals(List.of(), warnings.stream().filter(w -> w.toLowerCase(Locale.ROOT).contains("spool")).collect(Collectors.toList()),
                "Tomcat's leak warnings naming Spool");
        assertTrue(run.stderr.contains("findleaks: []"), run::toString);
    }
}
