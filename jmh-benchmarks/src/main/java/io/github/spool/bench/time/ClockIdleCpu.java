package io.github.spool.bench.time;

import io.github.spool.time.CachedClock;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Idle CPU cost of each clock's refresher thread: CPU time ({@link ThreadMXBean#getThreadCpuTime})
 * over a window in which nobody reads the clock, as a share of one core. Two phases of
 * {@code seconds} each (default 10): (1) idle, every clock started and then left alone; (2) Spool's
 * clock kept awake by one read every 100 ms (so its idle-stop cannot help; the cost of refreshing
 * itself). All clocks run at once: their threads are idle, so they barely compete.
 *
 * <p>Run: {@code java -cp jmh-benchmarks/target/benchmarks.jar io.github.spool.bench.time.ClockIdleCpu [seconds]}
 */
public final class ClockIdleCpu {

    private ClockIdleCpu() {
    }

    /**
     * Measures and prints one line per clock thread and phase.
     *
     * @param args optional window length in seconds
     * @throws Exception if interrupted
     */
    public static void main(String[] args) throws Exception {
        final long seconds = args.length > 0 ? Long.parseLong(args[0]) : 10;
        final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("thread CPU time not supported");
        }
        mx.setThreadCpuTimeEnabled(true);
        // Start every clock and read each once (Spool's clock starts awake and stays so for its
        // idle window after the last read).
        CachedClock.get().currentTimeMillis();
        org.apache.logging.log4j.core.util.CachedClock.instance().currentTimeMillis();
        org.apache.logging.log4j.core.util.CoarseCachedClock.instance().currentTimeMillis();
        ScheduledExecutorClock.get().currentTimeMillis();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));

        System.out.println("clocksource: " + clockSource() + ", JDK " + System.getProperty("java.version"));
        System.out.println("phase 1: nobody reads any clock for " + seconds + " s");
        report(mx, measure(mx, seconds, false), seconds);
        System.out.println("phase 2: Spool's clock read every 100 ms (kept awake) for " + seconds + " s");
        report(mx, measure(mx, seconds, true), seconds);
    }

    private static Map<String, Long> cpuByThread(ThreadMXBean mx) {
        Map<String, Long> cpu = new LinkedHashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String name = t.getName();
            if (name.equals(CachedClock.THREAD_NAME) || name.equals(ScheduledExecutorClock.THREAD_NAME)
                || name.contains("CachedClock") || name.contains("Clock")) {
                cpu.merge(name, mx.getThreadCpuTime(t.getId()), Long::sum);
            }
        }
        return cpu;
    }

    private static Map<String, Long> measure(ThreadMXBean mx, long seconds, boolean keepSpoolAwake) {
        Map<String, Long> before = cpuByThread(mx);
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long sink = 0;
        while (System.nanoTime() < end) {
            if (keepSpoolAwake) {
                sink += CachedClock.get().currentTimeMillis();
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        Map<String, Long> after = cpuByThread(mx);
        Map<String, Long> delta = new LinkedHashMap<>();
        after.forEach((name, cpu) -> delta.put(name, cpu - before.getOrDefault(name, 0L)));
        if (sink == 42) {
            System.out.println(); // keep the reads
        }
        return delta;
    }

    private static void report(ThreadMXBean mx, Map<String, Long> delta, long seconds) {
        delta.forEach((name, nanos) -> System.out.printf("  %-40s %8.1f ms CPU in %d s = %.3f%% of a core%n",
            name, nanos / 1e6, seconds, 100.0 * nanos / TimeUnit.SECONDS.toNanos(seconds)));
    }

    private static String clockSource() {
        try {
            return new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of(
                "/sys/devices/system/clocksource/clocksource0/current_clocksource"))).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
