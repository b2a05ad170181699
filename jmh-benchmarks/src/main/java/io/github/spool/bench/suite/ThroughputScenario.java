package io.github.spool.bench.suite;

import io.github.spool.bench.e2e.ChildJvm;
import io.github.spool.bench.e2e.Configuration;
import io.github.spool.bench.e2e.Output;
import io.github.spool.bench.e2e.Scenarios;
import io.github.spool.bench.e2e.Sink;
import io.github.spool.bench.e2e.Subjects;
import io.github.spool.bench.e2e.ThroughputWorkload;
import io.github.spool.bench.report.Format;
import io.github.spool.bench.report.Metric;
import io.github.spool.bench.report.Sample;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The console and RingLog scenarios: {@link ThroughputWorkload} for every configuration, every
 * producer count and (console) every stdout sink, repeats interleaved round-robin so that a slow
 * phase of the shared machine hits every configuration alike.
 */
public final class ThroughputScenario implements Scenario {

    /** Producer threads of the producers scenario. */
    static final List<Integer> PRODUCER_COUNTS = List.of(1, 4, 16, 64);

    private final String name;

    private ThroughputScenario(String name) {
        this.name = name;
    }

    /** @return the console scenario (stdout to a file, a pipe, {@code /dev/null}) */
    public static ThroughputScenario console() {
        return new ThroughputScenario(Scenarios.CONSOLE);
    }

    /**
     * @return the producers scenario (issue 17): 1, 4, 16 and 64 producer threads, stdout to a
     *         file, the frameworks' ceilings and console anchors beside Spool; each run first logs a
     *         fifth of its events as a warm-up at the same thread count, and its CPU per event is
     *         the timed part's (issue 34)
     */
    public static ThroughputScenario producers() {
        return new ThroughputScenario(Scenarios.PRODUCERS);
    }

    /**
     * @return the json scenario (issue 33): the producers scenario with JSON layouts and encoders,
     *         process CPU per event beside events/s
     */
    public static ThroughputScenario json() {
        return new ThroughputScenario(Scenarios.JSON);
    }

    /** @return the RingLog scenario (1 and 5 threads into a file) */
    public static ThroughputScenario ringLog() {
        return new ThroughputScenario(Scenarios.RINGLOG);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void run(Context context) throws InterruptedException {
        Plan plan = context.plan();
        boolean producers = name.equals(Scenarios.PRODUCERS) || name.equals(Scenarios.JSON);
        // the producers scenario is the console one with stdout to a file only and many threads
        boolean console = name.equals(Scenarios.CONSOLE) || producers;
        long events = producers ? (plan.mode().equals("full") ? 10_000_000 : 200_000)
                : console ? plan.consoleEvents() : plan.ringEvents();
        List<Integer> threadCounts = name.equals(Scenarios.JSON) ? plan.jsonThreads() : producers ? PRODUCER_COUNTS : console ? plan.consoleThreads() : plan.ringThreads();
        List<Sink> sinks = producers ? List.of(Sink.FILE) : console ? plan.consoleSinks() : List.of(Sink.FILE);
        List<Configuration> configurations = Subjects.in(name);
        int total = 0;
        for (int threads : threadCounts) {
            for (Sink sink : sinks) {
                total += runnable(configurations, sink, console).size();
            }
        }
        total *= plan.repeats();
        int done = 0;
        for (int repeat = 1; repeat <= plan.repeats(); repeat++) {
            for (int threads : threadCounts) {
                for (Sink sink : sinks) {
                    String group = console
                            ? String.format("stdout=%s, %d producer%s, %,d events", sink.label(), threads,
                                    threads == 1 ? "" : "s", events)
                            : String.format("%d thread%s x %,d lines into a file", threads, threads == 1 ? "" : "s",
                                    events / threads);
                    for (Configuration c : runnable(configurations, sink, console)) {
                        done++;
                        String label = String.format("%s %d/%d %s | %s | repeat %d", name, done, total, c.name(), group,
                                repeat);
                        runOne(context, c, sink, threads, events, group, repeat, label);
                    }
                }
            }
        }
    }

    /** Configurations that do not write to stdout run once, in the file group: their stdout is unused. */
    private static List<Configuration> runnable(List<Configuration> configurations, Sink sink, boolean console) {
        if (!console) {
            return configurations;
        }
        return configurations.stream().filter(c -> c.output() == Output.STDOUT || sink == Sink.FILE).toList();
    }

    private void runOne(Context context, Configuration c, Sink sink, int threads, long events, String group,
                        int repeat, String label) throws InterruptedException {
        try {
            List<String> args = new ArrayList<>(List.of("threads=" + threads, "events=" + events));
            boolean warmed = name.equals(Scenarios.PRODUCERS);
            if (warmed) {
                // Issue 34's CPU per event is a cost after warm-up: without it the JIT added
                // 300-900 ns per event to every configuration of a 2M-event run.
                args.add("warmup=" + events / 5);
            }
            ChildJvm.Outcome o = context.children().run(ThroughputWorkload.class, c, sink, args);
            double produced = o.number("events");
            Map<String, Double> metrics = new LinkedHashMap<>();
            metrics.put(Metric.EVENTS_PER_SECOND, produced / (o.number("nanos.total") / 1e9));
            metrics.put(Metric.PRODUCE_PER_SECOND, produced / (o.number("nanos.produce") / 1e9));
            metrics.put(Metric.PRODUCED, produced);
            if (warmed) {
                metrics.put(Metric.CPU_NS_PER_EVENT, o.number("cpu.timed.nanos") / produced);
            } else if (o.values().containsKey("cpu.run.nanos")) {
                metrics.put(Metric.CPU_NS_PER_EVENT, o.number("cpu.run.nanos") / produced);
            }
            if (o.verdict() != null) {
                metrics.put(Metric.DELIVERED, (double) o.verdict().lines());
            }
            Map<String, String> facts = facts(o);
            context.add(new Sample(name, group, c.name(), c.role(), repeat, metrics, o.verification(), facts));
            context.progress().say(String.format("%s: %s events/s (producers %s/s), output %s%s%s", label,
                    Format.count(metrics.get(Metric.EVENTS_PER_SECOND)),
                    Format.count(metrics.get(Metric.PRODUCE_PER_SECOND)), o.verification(),
                    facts.isEmpty() ? "" : ", " + facts, o.stderr().isEmpty() ? "" : ", stderr: " + firstLine(o.stderr())));
        } catch (IOException | RuntimeException e) {
            context.fail(label + ": " + e.getMessage());
        }
    }

    static Map<String, String> facts(ChildJvm.Outcome o) {
        Map<String, String> facts = new LinkedHashMap<>();
        for (String k : List.of("disruptor", "log4j", "logback")) {
            if (o.values().containsKey(k)) {
                facts.put(k, o.values().get(k));
            }
        }
        return facts;
    }

    static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl) + " ...";
    }
}
