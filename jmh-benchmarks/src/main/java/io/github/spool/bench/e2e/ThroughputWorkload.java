package io.github.spool.bench.e2e;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Child-JVM program of the console and RingLog scenarios (tinylog's fair method): {@code threads}
 * producers log {@code events} events in total as fast as they can; the time runs from the first
 * call until the logging system is stopped and everything is flushed.
 *
 * <p>Usage: {@code ThroughputWorkload <configuration> threads=1 events=1000000 result=<file>}.
 * Results: {@code nanos.total} (first call to stopped), {@code nanos.produce} (first call to the
 * last producer's last call), {@code produced.<i>} per producer, {@code cpu.run.nanos} (process CPU over
 * {@code nanos.total}).
 */
public final class ThroughputWorkload {

    private ThroughputWorkload() {
    }

    /**
     * Runs the workload.
     *
     * @param args {@code <configuration> key=value...}
     * @throws Exception if the run fails; the exit status is then non-zero
     */
    public static void main(String[] args) throws Exception {
        WorkloadArgs a = WorkloadArgs.parse(args);
        int threads = (int) a.longValue("threads", 1);
        long events = a.longValue("events", 1_000_000);
        long perThread = events / threads;
        Subject subject = a.configuration().factory().get();
        subject.start();

        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] producers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int index = t;
            producers[t] = new Thread(() -> {
                try {
                    Subject.Caller caller = subject.caller(index);
                    ready.countDown();
                    go.await();
                    for (long seq = 0; seq < perThread; seq++) {
                        caller.log(seq);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, EventLine.threadName(t));
        }
        for (Thread p : producers) {
            p.start();
        }
        ready.await();
        // process CPU from the first call until stopped, drain included: what the JSON goal compares
        long cpuStart = CpuFacts.processCpuNanos();
        long start = System.nanoTime();
        go.countDown();
        for (Thread p : producers) {
            p.join();
        }
        long produced = System.nanoTime();
        java.util.Map<String, String> cpu = CpuFacts.snapshot();
        subject.stop();
        long stopped = System.nanoTime();
        long cpuStopped = CpuFacts.processCpuNanos();
        if (failure.get() != null) {
            throw new IllegalStateException("a producer failed", failure.get());
        }

        a.put("threads", threads);
        a.put("events", perThread * threads);
        a.put("nanos.produce", produced - start);
        a.put("nanos.total", stopped - start);
        for (int t = 0; t < threads; t++) {
            a.put("produced." + t, perThread);
        }
        a.putAll(subject.facts());
        a.putAll(cpu);
        if (cpuStart >= 0) {
            a.put("cpu.run.nanos", cpuStopped - cpuStart);
        }
        a.writeResults();
    }
}
