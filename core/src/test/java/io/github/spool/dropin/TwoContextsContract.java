// SPDX-License-Identifier: Apache-2.0
package io.github.spool.dropin;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two logging contexts of one framework (two web applications under its context selector), each
 * with a Spool appender named {@value #APPENDER}: each gets its own MBean, named after its
 * context; reconfiguring or stopping one leaves the other's appender, bean and counts alone. The
 * same for both adapters: an adapter's test extends this and drives its framework. Test support.
 *
 * @param <C> the framework's context type
 */
public abstract class TwoContextsContract<C> {

    /** The appender's name in both contexts. */
    protected static final String APPENDER = "twoctx";
    /** A plain name, and one that must be quoted in an object name. */
    private static final String CTX_A = "shop-a";
    private static final String CTX_B = "web app, /shop:b";

    @TempDir
    protected Path dir;

    /**
     * Starts a context named {@code name} whose appender {@value #APPENDER} writes {@code %m%n}
     * lines to {@code file}, the root logger at INFO.
     *
     * @param name the context's name
     * @param file the log file
     * @return the started context
     * @throws Exception if it cannot start
     */
    protected abstract C start(String name, Path file) throws Exception;

    /**
     * Reconfigures {@code ctx} the framework's way, with the same configuration.
     *
     * @param ctx  a context
     * @param file its log file
     * @throws Exception if it fails
     */
    protected abstract void reconfigure(C ctx, Path file) throws Exception;

    /**
     * @param ctx a context
     * @return its appender {@value #APPENDER}
     */
    protected abstract Object appender(C ctx);

    /**
     * @param appender an appender {@link #appender} returned
     * @return whether it is stopped
     */
    protected abstract boolean isStopped(Object appender);

    /**
     * Logs {@code n} events {@code "<tag> <i>"} at INFO.
     *
     * @param ctx a context
     * @param tag the events' tag
     * @param n   how many
     */
    protected abstract void log(C ctx, String tag, int n);

    /**
     * Stops {@code ctx}, draining its appender.
     *
     * @param ctx a context
     */
    protected abstract void stop(C ctx);

    @Test
    void sameNamedAppendersOfTwoContextsRunStopAndReconfigureIndependently() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Path fileA = dir.resolve("a.log");
        Path fileB = dir.resolve("b.log");
        C a = start(CTX_A, fileA);
        C b = start(CTX_B, fileB);
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

            Object before = appender(a);
            reconfigure(a, fileA);
            Object after = appender(a);
            assertNotSame(before, after, "reconfiguring built a new appender");
            assertTrue(isStopped(before));
            assertEquals(Set.of(beanA, beanB), LeakProbe.beansOf(APPENDER), "one bean per context after reconfiguring A");
            assertEquals(0L, server.getAttribute(beanA, "EventsWritten"), "A's bean is its new appender's");
            assertEquals(5L, server.getAttribute(beanB, "EventsWritten"), "B's bean untouched");

            log(a, "a", 2);
            log(b, "b", 1);
            awaitWritten(server, beanA, 2);
            awaitWritten(server, beanB, 6);

            stop(a);
            assertEquals(Set.of(beanB), LeakProbe.beansOf(APPENDER), "stopping A removes only A's bean");
            assertFalse(LeakProbe.writerThreads(APPENDER).isEmpty(), "B's writer still runs");
            log(b, "b", 1);
            awaitWritten(server, beanB, 7);
        } finally {
            stop(a);
            stop(b);
        }
        assertEquals(Set.of(), LeakProbe.beansOf(APPENDER));
        for (Thread t : LeakProbe.writerThreads(APPENDER)) {
            t.join(10_000); // stop() returned once the ring drained; the thread ends right after
            assertFalse(t.isAlive(), t + " still runs after both contexts stopped");
        }
        assertEquals(5, Files.readAllLines(fileA).size(), "A: 3 before and 2 after its reconfiguration");
        assertEquals(7, Files.readAllLines(fileB).size(), "B: every event, across A's reconfiguration and stop");
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
