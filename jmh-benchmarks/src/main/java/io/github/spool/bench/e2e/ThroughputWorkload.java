package io.github.spool.bench.e2e;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
 *
 * <p>With {@code warmup=N} the producers first log {@code N} events in total (at the same thread
 * count, sequence numbers continuing into the timed ones), the process settles, and only then does
 * the timed part start; the results then also split its CPU (the scaling model's inputs,
 * docs/benchmarks.md): {@code cpu.timed.nanos} (process CPU from the timed start until the process
 * settled after the last call: drain included, stop excluded), {@code cpu.producers.nanos} and
 * {@code cpu.producers.sys.nanos} (the producer threads' CPU and its kernel part: a synchronous
 * appender's write calls, made under its lock), and {@code cpu.consumer.nanos} (the threads that
 * take events off a queue: Spool's writer, log4j2's async logger thread, logback's async worker).
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
        long warmPerThread = a.longValue("warmup", 0) / threads;
        long[] producerCpu = new long[threads];
        long[] producerUser = new long[threads];
        CountDownLatch warmed = new CountDownLatch(threads);
        CountDownLatch timed = new CountDownLatch(1);
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
                    for (long seq = 0; seq < warmPerThread; seq++) {
                        caller.log(seq);
                    }
                    if (warmPerThread > 0) {
                        warmed.countDown();
                        timed.await();
                    }
                    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
                    long cpu0 = mx.getCurrentThreadCpuTime();
                    long user0 = mx.getCurrentThreadUserTime();
                    for (long seq = warmPerThread; seq < warmPerThread + perThread; seq++) {
                        caller.log(seq);
                    }
                    producerCpu[index] = mx.getCurrentThreadCpuTime() - cpu0;
                    producerUser[index] = mx.getCurrentThreadUserTime() - user0;
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, EventLine.threadName(t));
        }
        for (Thread p : producers) {
            p.start();
        }
        ready.await();
        long consumer0 = 0;
        if (warmPerThread > 0) {
            go.countDown();
            warmed.await();
            settle();
            consumer0 = CpuFacts.threadCpuNanos(CpuFacts::isConsumer);
        }
        // process CPU from the first call until stopped, drain included: what the JSON goal compares
        long cpuStart = CpuFacts.processCpuNanos();
        long start = System.nanoTime();
        go.countDown();
        timed.countDown();
        for (Thread p : producers) {
            p.join();
        }
        long produced = System.nanoTime();
        if (warmPerThread > 0) {
            // Inside nanos.total: the quiet polls add at least 40 ms to a warmed run's time
            // (docs/benchmarks.md says so beside the producers scenario).
            settle();
            a.put("cpu.timed.nanos", CpuFacts.processCpuNanos() - cpuStart);
            a.put("cpu.consumer.nanos", CpuFacts.threadCpuNanos(CpuFacts::isConsumer) - consumer0);
            a.put("cpu.producers.nanos", java.util.Arrays.stream(producerCpu).sum());
            // user time comes in clock ticks (10 ms), the total in nanoseconds: never below 0 per thread
            long sys = 0;
            for (int t = 0; t < threads; t++) {
                sys += Math.max(0, producerCpu[t] - producerUser[t]);
            }
            a.put("cpu.producers.sys.nanos", sys);
        }
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
            a.put("produced." + t, warmPerThread + perThread);
        }
        a.putAll(subject.facts());
        a.putAll(cpu);
        if (cpuStart >= 0) {
            a.put("cpu.run.nanos", cpuStopped - cpuStart);
        }
        a.writeResults();
    }

    /**
     * Waits until the process is quiet: two 20 ms polls in a row under 5% of a core (the writer
     * has drained, the JIT is done), at most 10 s. Polling, because no framework says when its
     * queue is empty; it adds at least 40 ms to the run's time.
     */
    private static void settle() throws InterruptedException {
        long last = CpuFacts.processCpuNanos();
        int quiet = 0;
        for (int i = 0; i < 500 && quiet < 2; i++) {
            Thread.sleep(20);
            long now = CpuFacts.processCpuNanos();
            quiet = now - last < 1_000_000 ? quiet + 1 : 0;
            last = now;
        }
    }
}
