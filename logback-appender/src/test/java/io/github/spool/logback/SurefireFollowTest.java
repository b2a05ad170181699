// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import io.github.spool.io.StandardStreams;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.io.FileDescriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Under Surefire (a forked test JVM whose {@code System.out} is Surefire's channel to the build)
 * {@code follow} sends Spool's lines through that channel instead of onto fd 1, where they would
 * corrupt it: Surefire then warns "Corrupted channel by directly writing to native stream in forked
 * JVM" (its maintainers ask frameworks not to write to {@code FileDescriptor.out}). The lines land
 * in this test's captured output; {@code .ci/run} fails the build if the warning ever appears.
 */
class SurefireFollowTest {

    @Test
    void followWritesThroughSurefiresChannel() throws Exception {
        Assumptions.assumeFalse(StandardStreams.isOriginal(System.out, FileDescriptor.out),
                "System.out is the JVM's own: not under a Surefire fork");
        LoggerContext lc = new LoggerContext();
        lc.setMDCAdapter(new LogbackMDCAdapter());
        String xml = "<configuration><appender name='OUT' class='io.github.spool.logback.SpoolAppender'>"
                + "<follow>true</follow><encoder class='io.github.spool.logback.SpoolEncoder'>"
                + "<pattern>%-5level %logger - %msg%n</pattern></encoder></appender>"
                + "<root level='INFO'><appender-ref ref='OUT'/></root></configuration>";
        lc.setName("surefire-follow");
        LogbackConfigured.configure(lc, xml);
        Logger log = lc.getLogger("io.github.spool.surefire");
        for (int i = 0; i < 20; i++) {
            log.info("through Surefire's channel {}", i);
        }
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = server.queryNames(new ObjectName("io.github.spool:type=Appender,name=OUT,*"), null);
        ObjectName name = names.stream().filter(n -> n.toString().contains("surefire-follow")).findFirst().orElseThrow();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while ((Long) server.getAttribute(name, "EventsWritten") < 20 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(20L, server.getAttribute(name, "EventsWritten"), "every line written");
        assertEquals(0L, server.getAttribute(name, "WriteErrors"));
        assertEquals(0L, server.getAttribute(name, "EventsLost"));
        lc.stop();
    }
}
