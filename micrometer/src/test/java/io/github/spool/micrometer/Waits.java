package io.github.spool.micrometer;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.management.ObjectName;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bounded waits for what the writer thread advances, which has no event to wait on. */
final class Waits {
    private Waits() {
    }

    static void await(BooleanSupplier condition, Supplier<String> what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, () -> "timed out waiting for " + what.get());
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** Waits until the appender's writer has written every line {@code out} holds, and {@code last} is among them. */
    static void awaitWritten(ObjectName on, GatedStream out, String last) {
        await(() -> out.contains(last), () -> "the last line");
        await(() -> mbean(on, "EventsWritten") == out.eventLines(),
                () -> "the writer's counters: " + mbean(on, "EventsWritten") + " written, " + out.eventLines()
                        + " lines; the stream ends with:\n" + out.tail());
    }

    /** @return an attribute of the appender's MBean */
    static long mbean(ObjectName on, String attribute) {
        try {
            return ((Number) ManagementFactory.getPlatformMBeanServer().getAttribute(on, attribute)).longValue();
        } catch (Exception e) {
            throw new AssertionError(on + " " + attribute, e);
        }
    }
}
