// SPDX-License-Identifier: Apache-2.0
package io.github.spool.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.Spool;
import io.github.spool.container.log4j2.LogServlet;
import io.github.spool.container.log4j2.WebAppListener;
import io.github.spool.log4j2.SpoolAppender;
import io.github.spool.log4j2.SpoolClock;
import io.github.spool.soak.Redeploy;
import io.github.spool.soak.TomcatRedeploy;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ten deployments and undeployments of a web application on an embedded Tomcat (forked JVM, core's
 * {@link TomcatRedeploy}): its {@code WEB-INF/lib} brings log4j2 and Spool, it logs through
 * {@code <Spool>} with {@code SpoolLayout} and {@code SpoolClock} on Tomcat's request threads, and
 * stops log4j2 when undeployed. Tomcat's own leak detection must report nothing of Spool's: no
 * warning at undeploy that names Spool (threads, thread-locals), and no application left behind by
 * "find leaks" (class loaders of undeployed applications that garbage collection cannot reclaim).
 */
class Log4j2TomcatRedeployTest {

    private static final int CYCLES = 10;
    private static final int EVENTS = 200;

    @TempDir
    Path dir;

    @Test
    void tomcatFindsNoLeakOfSpoolOverTenRedeploys() throws Exception {
        Path app = webApp();
        // spool.clock=cached: the clock's refresher thread must run (and end) here on any host.
        Redeploy.Run run = TomcatRedeploy.fork(app, List.of("-Dlog4j.Clock=" + SpoolClock.class.getName(), "-Dspool.clock=cached"), CYCLES,
                "log?cycle=%d&events=" + EVENTS);
        assertEquals(0, run.exitCode, run::toString);
        for (int c = 0; c < CYCLES; c++) {
            int cycle = c;
            assertEquals(EVENTS, run.linesOfCycle(cycle), () -> "lines of cycle " + cycle + " in " + run);
            assertTrue(run.stderr.contains("cycle " + cycle + ": logged " + EVENTS + " clock=" + SpoolClock.class.getName()), run::toString);
        }
        List<String> warnings = run.stderr.lines().filter(l -> l.startsWith("tomcat-warning: ")).collect(Collectors.toList());
        System.out.println("Tomcat's warnings over " + CYCLES + " redeploys: " + warnings);
        assertEquals(List.of(), warnings.stream().filter(w -> w.toLowerCase(Locale.ROOT).contains("spool")).collect(Collectors.toList()),
                "Tomcat's leak warnings naming Spool");
        assertTrue(run.stderr.contains("findleaks: []"), run::toString);
    }

    private Path webApp() throws Exception {
        return TomcatRedeploy.explodedWebApp(dir.resolve("app"), WebAppListener.class, LogServlet.class, "webapp-log4j2.xml",
                "<Configuration status=\"warn\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"web\" target=\"SYSTEM_OUT\" bufferSize=\"64 KiB\" maxBufferSize=\"1 MiB\">\n"
                + "      <SpoolLayout pattern=\"%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger - %msg%n\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"web\"/></Root></Loggers>\n"
                + "</Configuration>\n",
                // the packaged spool-log4j2 and spool-core jars, log4j-api, log4j-core
                SpoolAppender.class, Spool.class, LogManager.class, LoggerContext.class);
    }
}
