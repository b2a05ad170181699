package io.github.spool.bench;

import io.github.spool.bench.e2e.ChildJvm;
import io.github.spool.bench.e2e.Sink;
import io.github.spool.bench.e2e.Versions;
import io.github.spool.bench.report.Charts;
import io.github.spool.bench.report.CsvWriter;
import io.github.spool.bench.report.Machine;
import io.github.spool.bench.report.Row;
import io.github.spool.bench.report.TablePrinter;
import io.github.spool.bench.suite.AccessLogScenario;
import io.github.spool.bench.suite.Context;
import io.github.spool.bench.suite.JmhScenario;
import io.github.spool.bench.suite.Plan;
import io.github.spool.bench.suite.Progress;
import io.github.spool.bench.suite.RequestScenario;
import io.github.spool.bench.suite.RollingScenario;
import io.github.spool.bench.suite.ServerScenario;
import io.github.spool.bench.suite.Scenario;
import io.github.spool.bench.suite.StallScenario;
import io.github.spool.bench.suite.ThroughputScenario;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The whole benchmark suite in one command ({@code ./bench.sh quick|full}, or
 * {@code java -jar benchmarks.jar quick|full}): prints the machine, runs every scenario (each
 * configuration in its own child JVM, output verified), prints one comparison table and writes
 * the raw results (CSV, JMH JSON), a Markdown table and PNG charts under
 * {@code docs/benchmarks/<mode>/}.
 *
 * <p>Options: {@code --scenarios console,ringlog,stall,request,rolling,accesslog,producers,json,server,jmh},
 * {@code --repeats N}, {@code --json-threads 1,4,16,64},
 * {@code --out DIR}. Exit status 1 when any run failed or any output failed verification.
 */
public final class Suite {

    private Suite() {
    }

    /**
     * Runs the suite.
     *
     * @param args {@code quick|full [--scenarios a,b] [--repeats N] [--out DIR] [--console-events N]
     *             [--console-threads 1,4] [--console-sinks file,pipe,devnull] [--json-threads 1,4,16,64]}
     * @throws Exception if the suite cannot run at all
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].startsWith("-")) {
            System.err.println("usage: Suite quick|full [--scenarios " + String.join(",", Plan.ALL_SCENARIOS)
                    + "] [--repeats N] [--out DIR] [--console-events N] [--console-threads 1,4]"
                    + " [--console-sinks file,pipe,devnull] [--json-threads 1,4,16,64]");
            System.exit(2);
        }
        Plan plan = Plan.named(args[0]);
        Path out = Path.of("docs", "benchmarks", plan.mode());
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--scenarios" -> plan = plan.withScenarios(Set.of(args[++i].split(",")));
                case "--repeats" -> plan = plan.withRepeats(Integer.parseInt(args[++i]));
                case "--out" -> out = Path.of(args[++i]);
                case "--console-events" -> plan = plan.withConsole(Long.parseLong(args[++i].replace("_", "")),
                        plan.consoleThreads(), plan.consoleSinks());
                case "--console-threads" -> plan = plan.withConsole(plan.consoleEvents(), ints(args[++i]), plan.consoleSinks());
                case "--json-threads" -> plan = plan.withJsonThreads(ints(args[++i]));
                case "--console-sinks" -> plan = plan.withConsole(plan.consoleEvents(), plan.consoleThreads(), sinks(args[++i]));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.exit(run(plan, out) ? 0 : 1);
    }

    private static List<Integer> ints(String csv) {
        List<Integer> list = new ArrayList<>();
        for (String s : csv.split(",")) {
            list.add(Integer.parseInt(s.trim()));
        }
        return list;
    }

    private static List<Sink> sinks(String csv) {
        List<Sink> list = new ArrayList<>();
        for (String s : csv.split(",")) {
            Sink found = null;
            for (Sink k : Sink.values()) {
                if (k.label().equals(s.trim())) {
                    found = k;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("unknown sink " + s + "; known: file, pipe, devnull");
            }
            list.add(found);
        }
        return list;
    }

    /**
     * Runs the plan and writes its results.
     *
     * @param plan what to run
     * @param out  where to write the results
     * @return whether every run succeeded with verified output
     * @throws IOException          if results cannot be written
     * @throws InterruptedException if interrupted
     */
    public static boolean run(Plan plan, Path out) throws IOException, InterruptedException {
        Files.createDirectories(out);
        Progress progress = new Progress(System.out);
        Map<String, String> machine = Machine.describe();
        String versions = "log4j " + Versions.log4j() + ", LMAX Disruptor " + Versions.disruptor() + ", logback "
                + Versions.logback() + ", JMH " + Versions.jmh();
        String header = "Spool benchmark suite, mode " + plan.mode() + "\n" + Machine.format(machine)
                + "versions: " + versions + "\n";
        System.out.print(header);
        Files.writeString(out.resolve("machine.txt"), header, StandardCharsets.UTF_8);

        Path work = Files.createTempDirectory("spool-bench-");
        Context context = new Context(plan, new ChildJvm(work), progress, out);
        List<Scenario> scenarios = List.of(ThroughputScenario.console(), ThroughputScenario.ringLog(),
                new StallScenario(), new RequestScenario(), new RollingScenario(), new AccessLogScenario(), ThroughputScenario.producers(),
                ThroughputScenario.json(), new ServerScenario(), new JmhScenario());
        try {
            for (Scenario s : scenarios) {
                if (plan.runs(s.name())) {
                    progress.say("scenario " + s.name());
                    s.run(context);
                }
            }
        } finally {
            deleteTree(work);
        }

        List<Row> rows = Row.of(context.samples());
        String table = new TablePrinter(false).render(rows);
        System.out.println();
        System.out.println("Comparison (median [min – max] over repeats; ratios to anchors measured in this run):");
        System.out.print(table);
        Files.writeString(out.resolve("results.md"), "# Benchmark results, mode " + plan.mode() + "\n\n```\n"
                + header + "```\n" + new TablePrinter(true).render(rows), StandardCharsets.UTF_8);
        CsvWriter.samples(context.samples(), out.resolve("samples.csv"));
        CsvWriter.summary(rows, out.resolve("summary.csv"));
        List<Path> charts = Charts.write(rows, out);
        progress.say("wrote " + out.resolve("results.md") + ", samples.csv, summary.csv, " + charts.size()
                + " charts" + (plan.runs("jmh") ? ", JMH JSON" : "") + " under " + out);
        if (!context.failures().isEmpty()) {
            System.out.println("\nFAILURES (" + context.failures().size() + "):");
            context.failures().forEach(f -> System.out.println("  " + f));
            return false;
        }
        return true;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
