package io.github.spool.text;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.function.BooleanSupplier;

/**
 * Counts what one step of the caller's work on an event (encoding it, capturing it) allocates on
 * the calling thread once warmed up, with the thread's allocation counter
 * ({@code com.sun.management.ThreadMXBean}); both adapters' allocation tests measure this way. The
 * speed comparison lives in the JMH benchmarks, not here. Test support.
 */
public final class CallerAllocation {

    /** Steps run before measuring, so that the JIT has compiled the path. */
    public static final int WARMUP = 20_000;
    /** Steps measured. */
    public static final int MEASURED = 50_000;
    /**
     * Zero per event. Any allocation per event is at least 16 B x {@link #MEASURED} = 800,000 B; the
     * bound leaves room for one-off bytes that are not the step's (the counter's bookkeeping, a
     * deoptimisation that runs a few steps in the interpreter): 1,152 B once, under load, where
     * the bound was 1,024 (2026-11-28). Still under 0.2 B per event.
     */
    private static final long BOUND = 8 * 1024;

    private CallerAllocation() {
    }

    /**
     * Runs {@code step} {@link #WARMUP} times, each of which must succeed, then {@link #MEASURED}
     * times, and returns what the measured runs allocated on this thread.
     *
     * @param step one event's work; {@code false} if it did not do it (e.g. not captured)
     * @return bytes allocated by the measured runs
     */
    public static long allocated(BooleanSupplier step) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARMUP; i++) {
            assertTrue(step.getAsBoolean(), "the step did its work");
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < MEASURED; i++) {
            step.getAsBoolean();
        }
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    /**
     * Asserts that {@code allocated} bytes over {@code measured} events is nothing per event.
     *
     * @param allocated what the measured events allocated
     * @param measured  how many events were measured
     */
    public static void assertNothingPerEvent(long allocated, int measured) {
        assertTrue(allocated < BOUND, allocated + " bytes over " + measured + " events");
    }
}
