package io.github.spool.bench.suite;

import io.github.spool.bench.e2e.Role;
import io.github.spool.bench.report.Metric;
import io.github.spool.bench.report.Sample;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the producer micro-benchmarks ({@code io.github.spool.bench.jmh}) with {@code -prof gc}
 * for each thread count of the plan, writes JMH's JSON per thread count, and turns each result
 * into a {@link Sample} (ns/op, its error, B/op).
 */
public final class JmhScenario implements Scenario {

    @Override
    public String name() {
        return "jmh";
    }

    @Override
    public void run(Context context) {
        Plan plan = context.plan();
        if (plan.mode().equals("quick") && !Boolean.getBoolean("jmh.ignoreLock")) {
            // JMH refuses to run while another JMH holds /tmp/jmh.lock. A quick run only checks the
            // suite, so it goes ahead on a shared machine; a full run keeps the lock and fails instead,
            // because numbers taken beside another benchmark are not worth publishing.
            System.setProperty("jmh.ignoreLock", "true");
            context.progress().say("jmh: quick mode ignores JMH's machine-wide lock (another JMH may be running)");
        }
        for (int threads : plan.jmhThreads()) {
            String json = context.outDir().resolve("jmh-threads-" + threads + ".json").toString();
            context.progress().say("jmh: producer benchmarks, " + threads + " thread(s), -prof gc -> " + json);
            Options options = new OptionsBuilder()
                    .include("io\\.github\\.spool\\.bench\\.jmh\\..*Benchmark")
                    .forks(plan.jmhForks())
                    .warmupIterations(plan.jmhWarmups())
                    .warmupTime(TimeValue.seconds(plan.jmhWarmupSeconds()))
                    .measurementIterations(plan.jmhIterations())
                    .measurementTime(TimeValue.seconds(plan.jmhSeconds()))
                    .threads(threads)
                    .addProfiler(GCProfiler.class)
                    .resultFormat(ResultFormatType.JSON)
                    .result(json)
                    .shouldFailOnError(true)
                    .build();
            try {
                Collection<RunResult> results = new Runner(options).run();
                for (RunResult r : results) {
                    context.add(sample(r, threads));
                }
            } catch (RunnerException | RuntimeException e) {
                context.fail("jmh " + threads + " thread(s): " + e.getMessage());
            }
        }
    }

    private Sample sample(RunResult r, int threads) {
        String benchmark = r.getParams().getBenchmark();
        String framework = benchmark.contains("Log4j2") ? "log4j2" : benchmark.contains("Logback") ? "logback" : "other";
        String config = r.getParams().getParam("config");
        String name = config.startsWith("spool") ? config : framework + "-" + config;
        Role role = config.startsWith("spool") ? Role.SPOOL
                : config.equals("null") || config.equals("nop") ? Role.CEILING : Role.ANCHOR;
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(Metric.NS_PER_OP, r.getPrimaryResult().getScore());
        m.put(Metric.NS_PER_OP_ERROR, r.getPrimaryResult().getScoreError());
        Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
        m.put(Metric.BYTES_PER_OP, alloc == null ? Double.NaN : alloc.getScore());
        String group = threads + " thread" + (threads == 1 ? "" : "s") + ", sink " + r.getParams().getParam("sink");
        return new Sample(name(), group, name, role, 1, m, "n/a (JMH)", Map.of());
    }
}
