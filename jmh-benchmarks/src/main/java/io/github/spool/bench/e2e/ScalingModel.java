package io.github.spool.bench.e2e;

import io.github.spool.bench.report.Stats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scaling model of docs/benchmarks.md (issue 34): what a configuration would do with more
 * cores, predicted from the costs it measures here, and checked against {@code taskset}.
 *
 * <p>Every configuration runs {@link ThroughputWorkload} (after a warm-up, stdout to a file) pinned
 * to one core and to two. From a run come the CPU per event of the whole process ({@code T}) and
 * the serial part of it ({@code S}): the one thread that takes events off a queue (Spool's writer,
 * log4j2's async logger thread, logback's async worker), or for a synchronous appender the
 * producers' kernel time (its write calls, made under the appender's lock: a lower bound of the
 * time under it). With {@code N} cores and producers enough to keep them busy:
 *
 * <pre>  events/s(N) = min(N / T, 1 / S)</pre>
 *
 * <p>— all cores doing the per-event work, until the serial thread is the bottleneck. The check:
 * the one-core costs predict the two-core run. They do not where the costs change with a second
 * core (cache lines moving between cores, a contended lock), so the extrapolation uses the
 * two-core costs, and a configuration that left the two cores partly idle ({@code X × T}, the
 * median over its runs, below 85% of them while four producers were ready: its serial part, a
 * lock's hand-offs included, is the bound) is predicted flat at what it measured. More cores' contention is not in the costs, so every prediction is an upper bound.
 *
 * <p>Usage: {@code ScalingModel out=DIR [configs=a,b] [threads=4] [events=4000000] [warmup=2000000]
 * [repeats=3] [cpus=0;0,1]}, or {@code ScalingModel out=DIR from=runs.csv} to redo the table from a
 * run's figures. Prints the table and writes {@code scaling.md} and {@code runs.csv}.
 */
public final class ScalingModel {

    static final List<String> DEFAULT_CONFIGS = List.of("spool-log4j2", "spool-logback", "log4j2-async-console-direct",
            "log4j2-console-direct", "logback-async", "logback-console");
    static final int[] PREDICTED_CORES = {4, 8, 16, 32};

    private ScalingModel() {
    }

    /**
     * One run's figures.
     *
     * @param eventsPerSecond timed events ÷ time from the first timed call until stopped
     * @param cpuPerEvent     process CPU of the timed part (drain included) ÷ events, ns
     * @param serialPerEvent  the serial thread's CPU, or the producers' kernel time, ÷ events, ns
     * @param serialIsConsumer whether {@code serialPerEvent} is a consumer thread's
     */
    record Run(double eventsPerSecond, double cpuPerEvent, double serialPerEvent, boolean serialIsConsumer) {

        static Run of(ChildJvm.Outcome o) {
            double events = o.number("events");
            double consumer = o.number("cpu.consumer.nanos") / events;
            boolean queued = consumer > 0;
            return new Run(events / (o.number("nanos.total") / 1e9), o.number("cpu.timed.nanos") / events,
                    queued ? consumer : o.number("cpu.producers.sys.nanos") / events, queued);
        }
    }

    /**
     * The model's prediction.
     *
     * @param cores       cores busy with the application
     * @param cpuPerEvent {@code T}, ns
     * @param serial      {@code S}, ns
     * @return events/s
     */
    static double predict(int cores, double cpuPerEvent, double serial) {
        return Math.min(cores * 1e9 / cpuPerEvent, serial > 0 ? 1e9 / serial : Double.POSITIVE_INFINITY);
    }

    /**
     * The extrapolation from a run on {@code measuredCores}: flat at the measured rate when the run
     * left its cores partly idle (serial-bound), else {@link #predict}.
     *
     * @param cores          cores to predict for
     * @param measuredCores  cores of the run
     * @param busyCores      cores' worth of CPU the run used ({@link #busyCores})
     * @param measured       the run's events/s
     * @param cpuPerEvent    the run's {@code T}, ns
     * @param serial         the run's {@code S}, ns
     * @return events/s
     */
    static double extrapolate(int cores, int measuredCores, double busyCores, double measured, double cpuPerEvent,
                              double serial) {
        return serialBound(measuredCores, busyCores) ? measured : predict(cores, cpuPerEvent, serial);
    }

    /**
     * @return whether a run kept less than 85% of its cores busy while more producers than cores
     *         were ready to log: they waited on its serial part (a lock, a full queue)
     */
    static boolean serialBound(int cores, double busyCores) {
        return busyCores < 0.85 * cores;
    }

    /** @return cores' worth of CPU a run used: events/s × CPU per event */
    static double busyCores(double eventsPerSecond, double cpuPerEvent) {
        return eventsPerSecond * cpuPerEvent / 1e9;
    }

    /**
     * Runs the measurements and prints the model.
     *
     * @param args see the class documentation
     * @throws Exception if a child fails
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> a = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected key=value, got " + arg);
            }
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        Path out = Path.of(a.getOrDefault("out", "scaling"));
        Files.createDirectories(out);
        List<String> configs = a.containsKey("configs") ? List.of(a.get("configs").split(",")) : DEFAULT_CONFIGS;
        List<String> cpuSets = List.of(a.getOrDefault("cpus", "0;0,1").split(";"));
        int threads = Integer.parseInt(a.getOrDefault("threads", "4"));
        String events = a.getOrDefault("events", "4000000");
        String warmup = a.getOrDefault("warmup", "2000000");
        int repeats = Integer.parseInt(a.getOrDefault("repeats", "3"));

        Map<String, List<Run>> runs = new LinkedHashMap<>();
        if (a.containsKey("from")) {
            configs = new ArrayList<>();
            cpuSets = new ArrayList<>();
            List<String> lines = Files.readAllLines(Path.of(a.get("from")), StandardCharsets.UTF_8);
            for (String line : lines.subList(1, lines.size())) {
                // configuration,"cpus",repeat,events/s,T,S,consumer,"verification"
                String[] f = line.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");
                String cpus = f[1].replace("\"", "");
                if (!configs.contains(f[0])) {
                    configs.add(f[0]);
                }
                if (!cpuSets.contains(cpus)) {
                    cpuSets.add(cpus);
                }
                runs.computeIfAbsent(f[0] + "@" + cpus, k -> new ArrayList<>()).add(new Run(Double.parseDouble(f[3]),
                        Double.parseDouble(f[4]), Double.parseDouble(f[5]), Boolean.parseBoolean(f[6])));
            }
        } else {
            Files.writeString(out.resolve("runs.csv"), measure(configs, cpuSets, threads, events, warmup, repeats, out, runs),
                    StandardCharsets.UTF_8);
        }
        String table = table(configs, cpuSets, runs, threads);
        Files.writeString(out.resolve("scaling.md"), table, StandardCharsets.UTF_8);
        System.out.print(table);
    }

    /** Runs every configuration on every CPU set, repeats interleaved; fills {@code runs}, returns the CSV. */
    private static String measure(List<String> configs, List<String> cpuSets, int threads, String events, String warmup,
                                  int repeats, Path out, Map<String, List<Run>> runs) throws Exception {
        StringBuilder csv = new StringBuilder("configuration,cpus,repeat,events_per_s,cpu_ns_per_event,serial_ns_per_event,"
                + "serial_is_consumer,verification\n");
        Path work = Files.createTempDirectory(out, "children");
        for (int r = 1; r <= repeats; r++) {
            for (String cpus : cpuSets) {
                ChildJvm children = new ChildJvm(work, List.of("taskset", "-c", cpus));
                for (String name : configs) {
                    ChildJvm.Outcome o = children.run(ThroughputWorkload.class, Subjects.byName(name), Sink.FILE,
                            List.of("threads=" + threads, "events=" + events, "warmup=" + warmup));
                    if (!o.acceptable()) {
                        throw new IllegalStateException(name + " on cpus " + cpus + ": " + o.verification());
                    }
                    Run run = Run.of(o);
                    runs.computeIfAbsent(name + "@" + cpus, k -> new ArrayList<>()).add(run);
                    csv.append(String.join(",", name, '"' + cpus + '"', Integer.toString(r),
                            String.format(Locale.ROOT, "%.0f", run.eventsPerSecond()), String.format(Locale.ROOT, "%.1f", run.cpuPerEvent()),
                            String.format(Locale.ROOT, "%.1f", run.serialPerEvent()), Boolean.toString(run.serialIsConsumer()),
                            '"' + o.verification() + '"')).append('\n');
                    System.err.printf(Locale.ROOT, "repeat %d, cpus %s, %s: %.2fM events/s, %.0f ns CPU/event, serial %.0f ns (%s), %s%n",
                            r, cpus, name, run.eventsPerSecond() / 1e6, run.cpuPerEvent(), run.serialPerEvent(),
                            run.serialIsConsumer() ? "consumer" : "producers' kernel time", o.verification());
                }
            }
        }
        Files.deleteIfExists(work);
        return csv.toString();
    }

    static String table(List<String> configs, List<String> cpuSets, Map<String, List<Run>> runs, int threads) {
        String one = cpuSets.get(0);
        String two = cpuSets.get(cpuSets.size() - 1);
        int twoCores = two.split(",").length;
        StringBuilder t = new StringBuilder();
        t.append(String.format(Locale.ROOT, "%d producers; medians of the repeats [min-max]; events/s in millions; T = CPU ns per event,"
                + " S = serial ns per event.%n%n", threads));
        t.append("| configuration | 1 core: events/s · T · S | ").append(twoCores).append(" cores: events/s · T · S · busy cores"
                + " | ").append(twoCores).append(" cores predicted from the 1-core costs | bound at ").append(twoCores)
                .append(" cores |");
        for (int n : PREDICTED_CORES) {
            t.append(' ').append(n).append(" cores |");
        }
        t.append("\n|---|---|---|---:|---|");
        t.append("---:|".repeat(PREDICTED_CORES.length)).append('\n');
        for (String name : configs) {
            List<Run> r1 = runs.get(name + "@" + one);
            List<Run> r2 = runs.get(name + "@" + two);
            Stats t1 = stats(r1, Run::cpuPerEvent);
            Stats s1 = stats(r1, Run::serialPerEvent);
            Stats x1 = stats(r1, Run::eventsPerSecond);
            Stats x2 = stats(r2, Run::eventsPerSecond);
            Stats t2 = stats(r2, Run::cpuPerEvent);
            Stats s2 = stats(r2, Run::serialPerEvent);
            double check = predict(twoCores, t1.median(), s1.median());
            double busy = stats(r2, r -> busyCores(r.eventsPerSecond(), r.cpuPerEvent())).median();
            boolean serialBound = serialBound(twoCores, busy);
            t.append(String.format(Locale.ROOT, "| %s%s | %s · %.0f · %.0f | %s · %.0f · %.0f · %.2f | %.2f (%.2fx measured) | %s |", name,
                    r1.get(0).serialIsConsumer() ? "" : " (S: its write calls)", millions(x1), t1.median(), s1.median(),
                    millions(x2), t2.median(), s2.median(), busy, check / 1e6,
                    check / x2.median(), serialBound ? "serial part (cores idle)"
                            : 1e9 / s2.median() < twoCores * 1e9 / t2.median() ? "serial thread" : "CPU"));
            for (int n : PREDICTED_CORES) {
                t.append(String.format(Locale.ROOT, " %.2f |",
                        extrapolate(n, twoCores, busy, x2.median(), t2.median(), s2.median()) / 1e6));
            }
            t.append('\n');
        }
        return t.toString();
    }

    private static Stats stats(List<Run> runs, java.util.function.ToDoubleFunction<Run> f) {
        return Stats.of(runs.stream().map(r -> f.applyAsDouble(r)).toList());
    }

    private static String millions(Stats s) {
        return String.format(Locale.ROOT, "%.2f [%.2f-%.2f]", s.median() / 1e6, s.min() / 1e6, s.max() / 1e6);
    }
}
