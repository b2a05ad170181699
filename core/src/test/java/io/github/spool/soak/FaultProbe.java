package io.github.spool.soak;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;
import javax.management.MBeanServer;

/**
 * What a forked fault-injection child (each adapter's {@code FaultMain}) observes of its appender,
 * named {@code out}, through Spool's MBean: counters, the time to recover after a fault is
 * lifted, the writer meeting EAGAIN, and the test's "stall is over" byte on standard input. Shared
 * so that both adapters measure recovery the same way.
 */
public final class FaultProbe {

    /** The name of the appender whose MBean is read. */
    public static final String APPENDER = "out";

    private FaultProbe() {
    }

    /**
     * @param attribute an attribute of the MBean of {@link #APPENDER}
     * @return its value
     * @throws Exception if the MBean cannot be read
     */
    public static long get(String attribute) throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        return ((Number) server.getAttribute(LeakProbe.beanOf(APPENDER), attribute)).longValue();
    }

    /** @return whether an MBean of {@link #APPENDER} is registered, in any logging context */
    public static boolean isRegistered() {
        return !LeakProbe.beansOf(APPENDER).isEmpty();
    }

    /**
     * The fault was lifted at {@code liftedNanos}: logs one event and polls the MBean until the
     * appender has written it.
     *
     * @param liftedNanos when the fault ended ({@link System#nanoTime()})
     * @param logOne      logs one event
     * @return microseconds from the lift to the event written (the time to recover), or -1 if it
     *     was not written within 10 s of the lift
     * @throws Exception if the MBean cannot be read
     */
    public static long firstWriteAfter(long liftedNanos, Runnable logOne) throws Exception {
        long written = get("EventsWritten");
        logOne.run();
        long deadline = liftedNanos + TimeUnit.SECONDS.toNanos(10);
        while (get("EventsWritten") == written) {
            if (System.nanoTime() - deadline > 0) {
                return -1;
            }
            Thread.yield();
        }
        return TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - liftedNanos);
    }

    /**
     * Starts a daemon thread that polls the MBean (at most 20 s) and prints {@code spool-eagain} on
     * standard error once two write calls in a row wrote nothing: the first of them returned 0,
     * EAGAIN (a call is counted before the write, its bytes after it; no other call of this run
     * writes nothing).
     */
    public static void watchForEagain() {
        Thread t = new Thread(() -> {
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                long calls = get("WriteCalls");
                long bytes = get("BytesWritten");
                while (System.nanoTime() - deadline < 0) {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100)); // polling a condition, bounded
                    long c = get("WriteCalls");
                    long b = get("BytesWritten");
                    if (b != bytes) {
                        calls = c;
                        bytes = b;
                    } else if (c >= calls + 2) {
                        System.err.println("spool-eagain");
                        return;
                    }
                }
            } catch (Exception e) {
                System.err.println("eagain watch failed: " + e);
            }
        }, "eagain-watch");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Starts a daemon thread that waits for the test's byte on standard input (the stall is over)
     * and hands {@code lifted} the event being logged then, or the next one: the first event
     * whose call ends after the stall. Without the byte nothing is handed over.
     *
     * @param current the event being logged now
     * @param lifted  receives that event once the byte arrives
     */
    public static void watchForLift(IntSupplier current, IntConsumer lifted) {
        Thread t = new Thread(() -> {
            try {
                if (System.in.read() >= 0) {
                    lifted.accept(current.getAsInt());
                }
            } catch (java.io.IOException e) {
                // no lift reported
            }
        }, "lift-watch");
        t.setDaemon(true);
        t.start();
    }
}
