package io.github.spool.bench.e2e;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * CPU time spent so far by the whole process and by Spool's writer threads, read just before a
 * workload stops its subject (a writer thread's time is gone once it ends). On a 2-core machine
 * the writer's CPU is CPU the application does not get, so the request and latency scenarios
 * report it beside their figures.
 */
final class CpuFacts {

    private CpuFacts() {
    }

    /** @return the process's CPU time so far in nanoseconds, or -1 where the JVM does not tell */
    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean
                ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : -1;
    }

    /** @return {@code cpu.process.ms} and {@code cpu.writer.ms} (0 when no Spool writer runs) */
    static Map<String, String> snapshot() {
        Map<String, String> facts = new LinkedHashMap<>();
        long nanos = processCpuNanos();
        if (nanos >= 0) {
            facts.put("cpu.process.ms", String.format("%.1f", nanos / 1e6));
        }
        long writer = threadCpuNanos(name -> name.startsWith("spool-writer"));
        facts.put("cpu.writer.ms", String.format("%.1f", writer / 1e6));
        return facts;
    }

    /**
     * @param names which threads, by name
     * @return the CPU time so far of the live threads so named, nanoseconds
     */
    static long threadCpuNanos(Predicate<String> names) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && names.test(t.getThreadName())) {
                sum += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
            }
        }
        return sum;
    }

    /**
     * @param threadName a thread's name
     * @return whether it takes events off a queue: Spool's writer, log4j2's async logger thread,
     *         logback's async worker
     */
    static boolean isConsumer(String threadName) {
        return threadName.startsWith("spool-writer") || threadName.contains("AsyncLogger")
                || threadName.startsWith("AsyncAppender-Worker");
    }
}
