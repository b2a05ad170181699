package io.github.spool.bench.e2e;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Child-JVM program of the stalling-sink scenario: one producer logs at a fixed rate and records
 * the duration of every call in an HdrHistogram (after an unrecorded warm-up at the same rate).
 *
 * <p>Usage: {@code LatencyWorkload <configuration> rate=50000 seconds=5 warmup=0.5 result=<file>}.
 * Results: call-duration percentiles in nanoseconds ({@code p50}, {@code p99}, {@code p999},
 * {@code max}), {@code produced.0}, and {@code nanos.stop} (how long stopping took: the backlog).
 *
 * <p>Durations are those of the calls themselves, not corrected for coordinated omission: a call
 * that stalls delays the next ones, which are then issued back to back to catch up with the rate.
 *
 * <p>Three things keep the machine's and the JVM's start-up out of the figures, the same for every
 * configuration: the gaps between calls vary at random (seeded) between 0.5 and 1.5 times the
 * mean, because at an exact 20 µs period the calls fall in step with the kernel's 250 Hz timer
 * tick and one run in a few got the tick (20–30 µs on a 2 vCPU VM) inside every 200th call — a
 * p99.9 of 25 µs against 7 µs for the same configuration in the next run; the start-up's
 * garbage is collected ({@code System.gc()}) before the warm-up, so whether the first young pause
 * falls in the recorded window no longer depends on how much a configuration allocated while it
 * started (31 to 51 MB measured), while pauses caused by the calls' own allocation still count;
 * and the suite runs this workload with {@code -XX:+AlwaysPreTouch}, so an allocating
 * configuration does not meet the first touch of each page of the heap (150–300 µs calls, gone
 * with pre-touch, in logback's own {@code NOPAppender} configuration too) as a long-running
 * server would not. docs/benchmarks.md, "the cell switch", has the evidence.
 *
 * <p>{@code slow=<nanos>} (diagnosis, off by default) also keeps the start ({@code System.nanoTime},
 * i.e. CLOCK_MONOTONIC, comparable with {@code perf record -k CLOCK_MONOTONIC}), duration and
 * sequence number of up to 10,000 recorded calls at least that long, and writes them with the
 * producer's Linux thread id to {@code <result>.slow}.
 */
public final class LatencyWorkload {

    private LatencyWorkload() {
    }

    /**
     * Runs the workload.
     *
     * @param args {@code <configuration> key=value...}
     * @throws Exception if the run fails; the exit status is then non-zero
     */
    public static void main(String[] args) throws Exception {
        WorkloadArgs a = WorkloadArgs.parse(args);
        long rate = a.longValue("rate", 50_000);
        double seconds = a.doubleValue("seconds", 5);
        double warmup = a.doubleValue("warmup", 0.5);
        Subject subject = a.configuration().factory().get();
        subject.start();
        Thread.currentThread().setName(EventLine.threadName(0));
        Subject.Caller caller = subject.caller(0);
        Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);

        long slow = a.longValue("slow", Long.MAX_VALUE);
        long[] slowStart = new long[slow == Long.MAX_VALUE ? 0 : 10_000];
        long[] slowTook = new long[slowStart.length];
        long[] slowSeq = new long[slowStart.length];
        int slowCount = 0;
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        java.util.SplittableRandom gaps = new java.util.SplittableRandom(20261126L);
        long warmupEvents = (long) (warmup * rate);
        long total = warmupEvents + (long) (seconds * rate);
        System.gc(); // the start-up's garbage, before the warm-up (see the class comment)
        long start = System.nanoTime();
        long due = start;
        for (long seq = 0; seq < total; seq++) {
            due += gaps.nextLong(interval / 2, interval + interval / 2 + 1);
            while (System.nanoTime() < due) {
                Thread.onSpinWait(); // pacing: 20 µs between calls is below any sleep's resolution
            }
            long before = System.nanoTime();
            caller.log(seq);
            long took = System.nanoTime() - before;
            if (seq >= warmupEvents) {
                histogram.recordValue(Math.min(took, histogram.getHighestTrackableValue()));
                if (took >= slow && slowCount < slowStart.length) {
                    slowStart[slowCount] = before;
                    slowTook[slowCount] = took;
                    slowSeq[slowCount++] = seq;
                }
            }
        }
        long produced = System.nanoTime();
        java.util.Map<String, String> cpu = CpuFacts.snapshot();
        subject.stop();
        long stopped = System.nanoTime();

        a.put("rate", rate);
        a.put("events", total);
        a.put("produced.0", total);
        a.put("recorded", histogram.getTotalCount());
        a.put("achieved.rate", String.format("%.0f", total / ((produced - start) / 1e9)));
        a.put("p50", histogram.getValueAtPercentile(50));
        a.put("p90", histogram.getValueAtPercentile(90));
        a.put("p99", histogram.getValueAtPercentile(99));
        a.put("p999", histogram.getValueAtPercentile(99.9));
        a.put("p9999", histogram.getValueAtPercentile(99.99));
        a.put("max", histogram.getMaxValue());
        a.put("nanos.stop", stopped - produced);
        a.putAll(subject.facts());
        a.putAll(cpu);
        a.writeResults();
        if (slowStart.length > 0) {
            writeSlowCalls(a, slowStart, slowTook, slowSeq, slowCount);
        }
    }

    private static void writeSlowCalls(WorkloadArgs a, long[] start, long[] took, long[] seq, int count)
            throws java.io.IOException {
        StringBuilder sb = new StringBuilder("# tid ")
                .append(java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/thread-self")).getFileName())
                .append("\n# start_ns took_ns seq\n");
        for (int i = 0; i < count; i++) {
            sb.append(start[i]).append(' ').append(took[i]).append(' ').append(seq[i]).append('\n');
        }
        java.nio.file.Files.writeString(java.nio.file.Path.of(a.resultFile() + ".slow"), sb);
    }
}
