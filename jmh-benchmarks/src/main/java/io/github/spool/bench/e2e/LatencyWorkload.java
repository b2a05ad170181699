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

        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        long warmupEvents = (long) (warmup * rate);
        long total = warmupEvents + (long) (seconds * rate);
        long start = System.nanoTime();
        for (long seq = 0; seq < total; seq++) {
            long due = start + seq * interval;
            while (System.nanoTime() < due) {
                Thread.onSpinWait(); // pacing: 20 µs between calls is below any sleep's resolution
            }
            long before = System.nanoTime();
            caller.log(seq);
            long took = System.nanoTime() - before;
            if (seq >= warmupEvents) {
                histogram.recordValue(Math.min(took, histogram.getHighestTrackableValue()));
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
    }
}
