// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.log4j2.leak.Log4j2App;
import io.github.spool.soak.Redeploy;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Twenty deploy/undeploy cycles of a log4j2 application in its own class loader, logging from
 * container threads it does not own (core's {@link Redeploy}, in a forked JVM): after each
 * undeploy the application's class loader is collected and no Spool MBean is left; afterwards
 * threads, heap and metaspace are flat. The same run with log4j2's own {@code Console} appender is
 * the control: what passes there must pass with {@code <Spool>}, {@code SpoolLayout} and
 * {@code SpoolClock}. log4j2 runs as in a web application ({@code log4j2.isWebapp}: no shutdown
 * hook of its own, no thread-locals).
 */
class RedeployLeakTest {

    private static final int CYCLES = 20;
    private static final int EVENTS = 200;

    @TempDir
    Path dir;

    @Test
    void spoolAppenderAndClockLeaveNothingAfterUndeploy() throws Exception {
        // spool.clock=cached: the refresher thread, the part of the clock that could leak, must run
        // here whatever this host's clock source makes the default.
        Redeploy.Run run = run("spool", "-Dlog4j.Clock=" + SpoolClock.class.getName(), "-Dspool.clock=cached");
        assertTrue(run.stderr.contains("leak-app clock=" + SpoolClock.class.getName() + " appenders=" + SpoolAppender.class.getName()),
                run::toString);
    }

    @Test
    void consoleAppenderControl() throws Exception {
        Redeploy.Run run = run("console", "-Dlog4j2.clock=SystemClock", "-Dspool.clock=cached");
        assertTrue(run.stderr.contains("appenders=org.apache.logging.log4j.core.appender.ConsoleAppender"), run::toString);
    }

    private Redeploy.Run run(String appender, String clockOption, String spoolClockOption) throws Exception {
        Redeploy.Run run = Redeploy.fork(dir, List.of("-Dleak.appender=" + appender, clockOption, spoolClockOption,
                        "-Dlog4j2.isWebapp=true"),
                Log4j2App.class.getName(), CYCLES, EVENTS);
        assertEquals(0, run.exitCode, run::toString);
        for (int cycle = 0; cycle < CYCLES + 2; cycle++) {
            assertEquals(EVENTS, run.linesOfCycle(cycle), "lines of cycle " + cycle);
        }
        System.out.println(run.stderr.lines().filter(l -> l.startsWith("redeploy:")).findFirst().orElse("no figures"));
        return run;
    }
}
