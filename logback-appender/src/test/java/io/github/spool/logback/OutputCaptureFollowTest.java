// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spring Boot's {@link OutputCaptureExtension} (what Spring Boot users capture log output with in
 * tests) sees {@code SpoolAppender} with {@code follow} exactly as it sees logback's own
 * {@code ConsoleAppender}: the same events through each give byte-identical captured output
 * (issue 12, item 3). Without {@code follow} Spool writes fd 1 and the capture sees nothing of it.
 */
@ExtendWith(OutputCaptureExtension.class)
class OutputCaptureFollowTest {
    private static final String PATTERN = "%-5level [%thread] %logger - %msg%n";

    private static LoggerContext configure(String appender) throws Exception {
        LoggerContext lc = LogbackConfigured.newContext();
        String xml = "<configuration>\n" + appender
                + "<root level='INFO'><appender-ref ref='OUT'/></root>\n</configuration>\n";
        LogbackConfigured.configure(lc, xml);
        return lc;
    }

    private static String logAndCapture(CapturedOutput output, String appender, int events) throws Exception {
        int from = output.getOut().length();
        LoggerContext lc = configure(appender);
        Logger log = lc.getLogger("io.github.spool.capture.Service");
        for (int i = 0; i < events; i++) {
            log.info("order {} accepted: {}", i, "\u00e9t\u00e9 \u2603");
        }
        log.warn("payment failed");
        lc.stop(); // drains Spool's ring: its writer's last batch is through System.out before stop returns
        return output.getOut().substring(from);
    }

    @Test
    void followGivesTheCaptureWhatConsoleAppenderGives(CapturedOutput output) throws Exception {
        String stock = logAndCapture(output, "<appender name='OUT' class='ch.qos.logback.core.ConsoleAppender'>"
                + "<encoder><pattern>" + PATTERN + "</pattern></encoder></appender>\n", 200);
        String spool = logAndCapture(output, "<appender name='OUT' class='io.github.spool.logback.SpoolAppender'>"
                + "<follow>true</follow><encoder class='io.github.spool.logback.SpoolEncoder'><pattern>" + PATTERN
                + "</pattern></encoder></appender>\n", 200);
        assertEquals(201, stock.lines().count(), stock);
        assertEquals(stock, spool);
    }

    @Test
    void withoutFollowTheCaptureSeesNothingOfSpool(CapturedOutput output) throws Exception {
        // Shown on fd 2: fd 1 of a Surefire fork is Surefire's own channel, which raw bytes would
        // corrupt ("Corrupted channel"); fd 2 is not parsed. One event, to keep the build quiet.
        String spool = logAndCapture(output, "<appender name='OUT' class='io.github.spool.logback.SpoolAppender'>"
                + "<target>System.err</target><encoder class='io.github.spool.logback.SpoolEncoder'><pattern>"
                + PATTERN + "</pattern></encoder></appender>\n", 1);
        assertTrue(spool.isEmpty(), spool);
        assertTrue(output.getErr().lines().noneMatch(l -> l.contains("order 0 accepted")), "fd 2 bypasses System.err too");
    }
}
