// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.logback.leak.LogbackApp;
import io.github.spool.soak.Redeploy;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Twenty deploy/undeploy cycles of a logback application in its own class loader, logging from
 * container threads it does not own (core's {@link Redeploy}, in a forked JVM): after each
 * undeploy the application's class loader is collected (so no pool thread keeps a thread-local
 * value of Spool's) and no Spool MBean is left; afterwards threads, heap and metaspace are flat.
 * The same run with logback's own {@code ConsoleAppender} is the control.
 */
class RedeployLeakTest {

    private static final int CYCLES = 20;
    private static final int EVENTS = 200;

    @TempDir
    Path dir;

    @Test
    void spoolAppenderLeavesNothingAfterUndeploy() throws Exception {
        Redeploy.Run run = run("spool");
        assertTrue(run.stderr.contains("leak-app appenders=" + SpoolAppender.class.getName()), run::toString);
    }

    @Test
    void consoleAppenderControl() throws Exception {
        Redeploy.Run run = run("console");
        assertTrue(run.stderr.contains("leak-app appenders=ch.qos.logback.core.ConsoleAppender"), run::toString);
    }

    private Redeploy.Run run(String appender) throws Exception {
        Redeploy.Run run = Redeploy.fork(dir, List.of("-Dleak.appender=" + appender), LogbackApp.class.getName(), CYCLES, EVENTS);
        assertEquals(0, run.exitCode, run::toString);
        for (int c = 0; c < CYCLES + 2; c++) {
            int cycle = c;
            assertEquals(EVENTS, run.linesOfCycle(cycle), () -> "lines of cycle " + cycle + " in " + run);
        }
        System.out.println(run.stderr.lines().filter(l -> l.startsWith("redeploy:")).findFirst().orElse("no figures"));
        return run;
    }
}
