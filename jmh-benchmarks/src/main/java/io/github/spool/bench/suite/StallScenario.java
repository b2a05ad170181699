package io.github.spool.bench.suite;

import io.github.spool.bench.e2e.ChildJvm;
import io.github.spool.bench.e2e.Configuration;
import io.github.spool.bench.e2e.LatencyWorkload;
import io.github.spool.bench.e2e.Scenarios;
import io.github.spool.bench.e2e.Sink;
import io.github.spool.bench.e2e.Subjects;
import io.github.spool.bench.report.Format;
import io.github.spool.bench.report.Metric;
import io.github.spool.bench.report.Sample;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stalling-sink scenario: {@link LatencyWorkload} at a fixed rate with stdout piped into a
 * reader that never stalls, one that stalls 20 ms every 100 ms, and an overloaded reader (16 KiB
 * per 10 ms); call durations and events delivered versus produced, with {@code none} (no logging
 * call) as the machine's floor.
 */
public final class StallScenario implements Scenario {

    /** A reader that never stalls (the latency of the calls alone), a stalling one, an overloaded one. */
    private static final List<Sink> READERS = List.of(Sink.PIPE, Sink.STALLING_PIPE, Sink.OVERLOADED_PIPE);
    /**
     * The heap touched before the run, as in a server that has run a while: otherwise allocating
     * configurations meet each heap page's first touch inside the 5 s window ({@link LatencyWorkload}).
     */
    public static final List<String> LATENCY_JVM_OPTIONS = List.of("-XX:+AlwaysPreTouch");
    /**
     * Seconds of calls before the recorded window: 2 s (100,000 calls at 50,000/s), not 0.5 s.
     * After 0.5 s the JIT was still compiling log4j2's paths on 2 vCPUs: Spool via log4j2 had
     * single calls of 0.13–2.9 ms in the first 0.2 s of the window while it did (docs/benchmarks.md,
     * "the cell switch in the interpreter"). The window is meant to show a server that has run a
     * while; every configuration gets the same warm-up.
     */
    static final double WARMUP_SECONDS = 2;

    @Override
    public String name() {
        return Scenarios.STALL;
    }

    @Override
    public void run(Context context) throws InterruptedException {
        Plan plan = context.plan();
        List<Configuration> configurations = Subjects.in(Scenarios.STALL);
        int total = plan.stallRepeats() * READERS.size() * configurations.size();
        int done = 0;
        for (int repeat = 1; repeat <= plan.stallRepeats(); repeat++) {
            for (Sink reader : READERS) {
                String group = String.format("%s reader, 1 producer at %,d events/s for %.1f s", reader.label(),
                        plan.stallRate(), plan.stallSeconds());
                for (Configuration c : configurations) {
                    done++;
                    String label = String.format("stall %d/%d %s | %s | repeat %d", done, total, c.name(), group, repeat);
                    try {
                        ChildJvm.Outcome o = context.children().run(LatencyWorkload.class, c, reader,
                                LATENCY_JVM_OPTIONS, List.of("rate=" + plan.stallRate(), "seconds=" + plan.stallSeconds(),
                                        "warmup=" + WARMUP_SECONDS));
                        Map<String, Double> m = new LinkedHashMap<>();
                        m.put(Metric.P50_US, o.number("p50") / 1e3);
                        m.put(Metric.P99_US, o.number("p99") / 1e3);
                        m.put(Metric.P999_US, o.number("p999") / 1e3);
                        m.put(Metric.MAX_US, o.number("max") / 1e3);
                        m.put(Metric.PRODUCED, o.number("events"));
                        m.put(Metric.DELIVERED, o.verdict() == null ? Double.NaN : (double) o.verdict().lines());
                        m.put(Metric.STOP_MS, o.number("nanos.stop") / 1e6);
                        Map<String, String> facts = ThroughputScenario.facts(o);
                        context.add(new Sample(name(), group, c.name(), c.role(), repeat, m, o.verification(), facts));
                        context.progress().say(String.format(
                                "%s: p50 %s µs, p99 %s µs, p99.9 %s µs, max %s µs, stop %s ms, output %s%s", label,
                                Format.micros(m.get(Metric.P50_US)), Format.micros(m.get(Metric.P99_US)),
                                Format.micros(m.get(Metric.P999_US)), Format.micros(m.get(Metric.MAX_US)),
                                Format.micros(m.get(Metric.STOP_MS)), o.verification(),
                                facts.isEmpty() ? "" : ", " + facts));
                    } catch (IOException | RuntimeException e) {
                        context.fail(label + ": " + e.getMessage());
                    }
                }
            }
        }
    }
}
