package io.github.spool.bench.suite;

import io.github.spool.bench.e2e.ChildJvm;
import io.github.spool.bench.e2e.Configuration;
import io.github.spool.bench.e2e.RequestWorkload;
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
 * The request-handler scenario: {@link RequestWorkload} (loopback echo server, one log call per
 * request, stdout to a file) for no logging and every logging configuration; QPS loss in % is
 * computed against no logging in the report.
 */
public final class RequestScenario implements Scenario {

    @Override
    public String name() {
        return Scenarios.REQUEST;
    }

    @Override
    public void run(Context context) throws InterruptedException {
        Plan plan = context.plan();
        List<Configuration> configurations = Subjects.in(Scenarios.REQUEST);
        String group = String.format("echo server, %d connections, %d µs work per request, stdout=file, %.1f s window",
                plan.requestConnections(), plan.requestWorkMicros(), plan.requestSeconds());
        int total = plan.repeats() * configurations.size();
        int done = 0;
        for (int repeat = 1; repeat <= plan.repeats(); repeat++) {
            for (Configuration c : configurations) {
                done++;
                String label = String.format("request %d/%d %s | repeat %d", done, total, c.name(), repeat);
                try {
                    ChildJvm.Outcome o = context.children().run(RequestWorkload.class, c, Sink.FILE,
                            List.of("connections=" + plan.requestConnections(), "work=" + plan.requestWorkMicros(),
                                    "warmup=" + plan.requestWarmup(),
                                    "seconds=" + plan.requestSeconds()));
                    Map<String, Double> m = new LinkedHashMap<>();
                    m.put(Metric.QPS, o.number("qps"));
                    m.put(Metric.PRODUCED, o.number("events"));
                    m.put(Metric.CALL_US_MEAN, o.number("call.nanos.mean") / 1000);
                    m.put(Metric.WRITER_CPU_US, o.number("cpu.writer.ms") * 1000 / Math.max(1, o.number("events")));
                    if (o.verdict() != null) {
                        m.put(Metric.DELIVERED, (double) o.verdict().lines());
                    }
                    Map<String, String> facts = ThroughputScenario.facts(o);
                    context.add(new Sample(name(), group, c.name(), c.role(), repeat, m, o.verification(), facts));
                    context.progress().say(String.format("%s: %s requests/s, output %s%s", label,
                            Format.count(m.get(Metric.QPS)), o.verification(), facts.isEmpty() ? "" : ", " + facts));
                } catch (IOException | RuntimeException e) {
                    context.fail(label + ": " + e.getMessage());
                }
            }
        }
    }
}
