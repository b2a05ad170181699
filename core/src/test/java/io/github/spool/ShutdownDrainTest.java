// SPDX-License-Identifier: Apache-2.0
package io.github.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The {@code spool-shutdown} hook is registered only while an appender is open: the JVM would
 * otherwise keep it, and through it Spool's class loader (a web application's), until exit.
 */
class ShutdownDrainTest {

    @Test
    void hookIsRemovedWithTheLastAppenderAndAddedAgainWithTheNext() {
        assertEquals(List.of(), ShutdownDrain.openForTest(), "appenders left open by earlier tests");
        Spool a = start("drain-a");
        Thread hook = ShutdownDrain.hookForTest();
        assertNotNull(hook);
        assertEquals(ShutdownDrain.HOOK_NAME, hook.getName());
        Spool b = start("drain-b");
        assertSame(hook, ShutdownDrain.hookForTest(), "one hook for all appenders");

        assertTrue(a.stop(5, TimeUnit.SECONDS));
        assertSame(hook, ShutdownDrain.hookForTest(), "kept while drain-b is open");
        assertTrue(b.stop(5, TimeUnit.SECONDS));
        assertNull(ShutdownDrain.hookForTest());
        // The JVM no longer has it: removing it again finds nothing.
        assertFalse(Runtime.getRuntime().removeShutdownHook(hook));

        Spool c = start("drain-c");
        Thread again = ShutdownDrain.hookForTest();
        assertNotNull(again);
        assertNotSame(hook, again);
        assertTrue(c.stop(5, TimeUnit.SECONDS));
        assertNull(ShutdownDrain.hookForTest());
        assertFalse(Runtime.getRuntime().removeShutdownHook(again));
    }

    @Test
    void spoolThreadsTakeNothingFromTheThreadThatCreatesThem() throws Exception {
        InheritableThreadLocal<String> inherited = new InheritableThreadLocal<>();
        inherited.set("from the creator");
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader app = new URLClassLoader("some-web-app", new URL[0], previous)) {
            Thread.currentThread().setContextClassLoader(app);
            String[] seen = new String[1];
            Thread t = SpoolThreads.newThread(() -> seen[0] = inherited.get(), "spool-test-thread", true);
            assertSame(ClassLoader.getSystemClassLoader(), t.getContextClassLoader());
            assertTrue(t.isDaemon());
            t.start();
            t.join(5_000);
            assertFalse(t.isAlive());
            assertNull(seen[0], "no inherited thread-locals");
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
            inherited.remove();
        }
    }

    private static Spool start(String name) {
        return Spool.start(SpoolConfig.builder(name).statusListener(new RecordedStatus()).build(), new TestSink());
    }
}
