// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.metrics.JmxRegistry;
import io.github.spool.soak.LeakProbe;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code LoggerContext}s (two web applications under log4j2's default context selector) each
 * with a {@code <Spool>} appender named {@code out}: each gets its own MBean, named after its
 * context; reconfiguring or stopping one leaves the other's appender, bean and counts alone.
 */
class TwoContextsTest {

    private static final String APPENDER = "twoctx";
    /** A plain name, and one that must be quoted in an object name. */
    private static final String CTX_A = "shop-a";
    private static final String CTX_B = "web app, /shop:b";

    @TempDir
    Path dir;

    @Test
    void sameNamedAppendersOfTwoContextsRunStopAndReconfigureIndependently() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Path fileA = dir.resolve("a.log");
        Path fileB = dir.resolve("b.log");
        LoggerContext a = start(CTX_A, fileA);
        LoggerContext b = start(CTX_B, fileB);
        try {
            ObjectName beanA = JmxRegistry.objectName(CTX_A, APPENDER);
            ObjectName beanB = JmxRegistry.objectName(CTX_B, APPENDER);
            assertEquals(new ObjectName("io.github.spool:type=Appender,context=shop-a,name=" + APPENDER), beanA);
            assertEquals(CTX_B, ObjectName.unquote(beanB.getKeyProperty("context")));
            assertEquals(Set.of(beanA, beanB), LeakProbe.beansOf(APPENDER));

            log(a, "a", 3);
            log(b, "b", 5);
            awaitWritten(server, beanA, 3);
            awaitWritten(server, beanB, 5);

            SpoolAppender before = a.getConfiguration().getAppender(APPENDER);
            a.reconfigure();
            SpoolAppender after = a.getConfiguration().getAppender(APPENDER);
            assertNotSame(before, after, "reconfigure built a new appender");
            assertTrue(before.isStopped());
            assertEquals(Set.of(beanA, beanB), LeakProbe.beansOf(APPENDER), "one bean per context after reconfiguring A");
            assertEquals(0L, server.getAttribute(beanA, "EventsWritten"), "A's bean is its new appender's");
            assertEquals(5L, server.getAttribute(beanB, "EventsWritten"), "B's bean untouched");

            log(a, "a", 2);
            log(b, "b", 1);
            awaitWritten(server, beanA, 2);
            awaitWritten(server, beanB, 6);

            assertTrue(a.stop(10, TimeUnit.SECONDS));
            assertEquals(Set.of(beanB), LeakProbe.beansOf(APPENDER), "stopping A removes only A's bean");
            assertFalse(LeakProbe.writerThreads(APPENDER).isEmpty(), "B's writer still runs");
            log(b, "b", 1);
            awaitWritten(server, beanB, 7);
        } finally {
            a.stop(10, TimeUnit.SECONDS);
            b.stop(10, TimeUnit.SECONDS);
        }
        assertEquals(Set.of(), LeakProbe.beansOf(APPENDER));
        for (Thread t : LeakProbe.writerThreads(APPENDER)) {
            t.join(10_000); // stop() returned once the ring drained; the thread ends right after
            assertFalse(t.isAlive(), t + " still runs after both contexts stopped");
        }
        assertEquals(5, Files.readAllLines(fileA).size(), "A: 3 before and 2 after its reconfiguration");
        assertEquals(7, Files.readAllLines(fileB).size(), "B: every event, across A's reconfiguration and stop");
    }

    private LoggerContext start(String name, Path file) throws Exception {
        Path config = dir.resolve(file.getFileName() + ".xml");
        Files.writeString(config, "<Configuration status=\"warn\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"" + APPENDER + "\" fileName=\"" + file + "\">\n"
                + "      <SpoolLayout pattern=\"%m%n\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"" + APPENDER + "\"/></Root></Loggers>\n"
                + "</Configuration>\n");
        LoggerContext ctx = new LoggerContext(name, null, config.toUri());
        ctx.start();
        return ctx;
    }

    private static void log(LoggerContext ctx, String tag, int n) {
        for (int i = 0; i < n; i++) {
            ctx.getLogger("two").info("{} {}", tag, i);
        }
    }

    private static void awaitWritten(MBeanServer server, ObjectName bean, long expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long seen;
        while ((seen = (Long) server.getAttribute(bean, "EventsWritten")) != expected) {
            assertTrue(seen < expected && System.nanoTime() < deadline, bean + ": EventsWritten " + seen + ", expected " + expected);
            Thread.sleep(5); // polling a counter the writer thread advances; no event to wait on
        }
    }
}
