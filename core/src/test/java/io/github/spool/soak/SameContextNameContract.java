package io.github.spool.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two logging contexts with the same name (issue 31, item 12) — two web applications that leave
 * logback's context unnamed are both {@code default} — each with a Spool appender of the same
 * name: each gets its own MBean, the first in the documented form
 * {@code io.github.spool:type=Appender,context=<context>,name=<name>} and the second with an
 * {@code id} key; reconfiguring one keeps its own name; stopping (undeploying) either leaves the
 * other's bean and counts alone. Each adapter's test says how to start a context. Test support.
 */
public abstract class SameContextNameContract {
    /** The appender's name in both contexts. */
    protected static final String APPENDER = "samename";

    @TempDir
    protected Path dir;

    /** A started logging context with one Spool appender {@link #APPENDER} writing to a file. */
    protected interface Context {
        /** Logs {@code n} lines at INFO. */
        void log(int n);

        /** Reconfigures the context from its configuration, as a reload does. */
        void reconfigure() throws Exception;

        /** Stops the context (an undeploy). */
        void stop();
    }

    /**
     * Starts a context the framework names as it does by default ({@code default} in logback, the
     * same explicit name for every context in log4j2), with a Spool appender {@link #APPENDER}
     * writing to {@code file}.
     *
     * @param file the appender's file
     * @return the started context
     * @throws Exception if it cannot start
     */
    protected abstract Context start(Path file) throws Exception;

    /** @return the context name both contexts share */
    protected abstract String contextName();

    @Test
    void twoContextsOfOneNameKeepTheirOwnBeans() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Path fileA = dir.resolve("a.log");
        Path fileB = dir.resolve("b.log");
        Context a = start(fileA);
        Context b = start(fileB);
        ObjectName first = new ObjectName("io.github.spool:type=Appender,context=" + contextName() + ",name=" + APPENDER);
        ObjectName second = new ObjectName(first + ",id=2");
        try {
            assertEquals(Set.of(first, second), LeakProbe.beansOf(APPENDER), "one bean per context, the first as documented");
            a.log(3);
            b.log(5);
            awaitWritten(server, first, 3);
            awaitWritten(server, second, 5);

            a.reconfigure();
            assertEquals(Set.of(first, second), LeakProbe.beansOf(APPENDER), "a reconfiguration keeps the context's name");
            a.log(2);
            awaitWritten(server, first, 2);
            assertEquals(5L, server.getAttribute(second, "EventsWritten"), "the other context's bean untouched");

            a.stop();
            assertEquals(Set.of(second), LeakProbe.beansOf(APPENDER), "undeploying the first removes only its bean");
            b.log(1);
            awaitWritten(server, second, 6);
        } finally {
            a.stop();
            b.stop();
        }
        assertEquals(Set.of(), LeakProbe.beansOf(APPENDER));
        assertEquals(5, Files.readAllLines(fileA).size());
        assertEquals(6, Files.readAllLines(fileB).size());
    }

    private static void awaitWritten(MBeanServer server, ObjectName bean, long expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long seen;
        while ((seen = (Long) server.getAttribute(bean, "EventsWritten")) != expected) {
            assertTrue(seen < expected && System.nanoTime() < deadline, bean + ": EventsWritten " + seen + ", expected " + expected);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling a counter; no event to wait on
        }
    }
}
