// SPDX-License-Identifier: Apache-2.0
package io.github.spool.bench.suite;

import io.github.spool.bench.e2e.ChildJvm;
import io.github.spool.bench.e2e.RollingWorkload;
import io.github.spool.bench.report.Charts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The rolling-files scenario (issue 15): 4 producers flat out into a file rolling every
 * {@code rollSize} bytes with gzip, each configuration in its own child JVM and fresh directory,
 * rounds interleaved: log4j2 {@code RollingRandomAccessFile} (sync and all-async), logback
 * {@code RollingFileAppender} (plain and behind {@code AsyncAppender}), and the same two
 * configurations converted to Spool, beside the no-logging floor. Reports throughput as a ratio to
 * the best anchor of the same round, and the call-latency tail around rollovers
 * ({@link RollingWorkload}); writes {@code rolling.md} to the output directory.
 *
 * <p>Quick: 1M events, rolling every 1 MB, 1 round. Full: 10M events, every 10 MB, 3 rounds.
 */
public final class RollingScenario implements Scenario {

    static final List<String> SUBJECTS = List.of("none", "log4j2-rraf", "log4j2-async-rraf", "logback-rfa",
            "logback-async-rfa", "spool-log4j2", "spool-logback");
    static final List<String> ANCHORS = List.of("log4j2-rraf", "log4j2-async-rraf", "logback-rfa", "logback-async-rfa");
    static final int PRODUCERS = 4;

    @Override
    public String name() {
        return "rolling";
    }

    @Override
    public void run(Context context) throws InterruptedException {
        boolean full = context.plan().mode().equals("full");
        long events = full ? 10_000_000 : 1_000_000;
        long rollSize = full ? 10L << 20 : 1L << 20;
        int rounds = full ? 3 : 1;
        // The paced run: a rate the file keeps up with, so that a slow call shows the rollover.
        long pacedRate = full ? 100_000 : 50_000;
        long pacedEvents = full ? 3_000_000 : 500_000;
        long pacedRollSize = full ? 10L << 20 : 256L << 10;
        List<Map<String, Map<String, String>>> results = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Map<String, Map<String, String>> r = new LinkedHashMap<>();
            for (String subject : SUBJECTS) {
                String label = String.format("rolling %s, round %d/%d, %,d events, %d producers, roll every %d MiB",
                        subject, round, rounds, events, PRODUCERS, rollSize >> 20);
                try {
                    Map<String, String> out = runChild(subject, events / PRODUCERS, rollSize, 0);
                    Map<String, String> paced = runChild(subject, pacedEvents / PRODUCERS, pacedRollSize, pacedRate);
                    paced.forEach((k, v) -> out.put("paced." + k, v));
                    r.put(subject, out);
                    context.progress().say(label + ": " + out);
                    if (!subject.equals("none") && !("ok".equals(out.get("verified")) && "ok".equals(out.get("paced.verified")))) {
                        context.fail(label + ": output " + out.get("verified") + " / " + out.get("paced.verified"));
                    }
                } catch (IOException | RuntimeException e) {
                    context.fail(label + ": " + e.getMessage());
                }
            }
            results.add(r);
        }
        String table = table(results, events, rollSize, pacedRate, pacedEvents, pacedRollSize);
        context.progress().say("\n" + table);
        try {
            Files.createDirectories(context.outDir());
            Files.writeString(context.outDir().resolve("rolling.md"), table, StandardCharsets.UTF_8);
            chart(results, context.outDir());
        } catch (IOException | RuntimeException e) {
            context.fail("rolling: cannot write rolling.md or its charts: " + e);
        }
    }

    /** rolling-latency.png (paced: p99, p99.99, max call near a rollover) and rolling-throughput.png (flat out). */
    static void chart(List<Map<String, Map<String, String>>> rounds, Path outDir) throws IOException {
        List<String> x = SUBJECTS.stream().filter(s -> !s.equals("none")).toList();
        Map<String, List<Double>> latency = new LinkedHashMap<>();
        for (String[] m : new String[][] {{"paced.p99", "p99"}, {"paced.p9999", "p99.99"},
            {"paced.maxNearRollover", "longest call near a rollover"}}) {
            latency.put(m[1], x.stream().map(s -> median(values(rounds, s, m[0])) / 1e3).toList());
        }
        Charts.bars("rolling files, paced: call duration (µs, log scale), lower is better", "µs", x, latency, true,
                outDir.resolve("rolling-latency"));
        Map<String, List<Double>> rate = new LinkedHashMap<>();
        rate.put("events/s", x.stream().map(s -> median(values(rounds, s, "eventsPerSecond"))).toList());
        Charts.bars("rolling files, flat out: events/s until stopped, higher is better", "events/s", x, rate, false,
                outDir.resolve("rolling-throughput"));
    }

    private static List<Double> values(List<Map<String, Map<String, String>>> rounds, String subject, String key) {
        List<Double> v = new ArrayList<>();
        for (Map<String, Map<String, String>> r : rounds) {
            Map<String, String> o = r.get(subject);
            if (o != null && o.get(key) != null) {
                v.add(Double.parseDouble(o.get(key)));
            }
        }
        return v;
    }

    private static Map<String, String> runChild(String subject, long eventsPerProducer, long rollSize, long rate)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("spool-rolling-" + subject + "-");
        try {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(ChildJvm.JVM_OPTIONS);
            command.add("-Dspool.shutdownTimeoutMillis=60000");
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(RollingWorkload.class.getName());
            command.add(subject);
            command.add("dir=" + dir);
            command.add("events=" + eventsPerProducer);
            command.add("producers=" + PRODUCERS);
            command.add("rollSize=" + rollSize);
            command.add("rate=" + rate);
            Path stdout = Files.createTempFile("spool-rolling-", ".out");
            Path stderr = Files.createTempFile("spool-rolling-", ".err");
            Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            if (!p.waitFor(15, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException(subject + ": timed out");
            }
            List<String> lines = Files.readAllLines(stdout);
            String err = Files.readString(stderr);
            Files.delete(stdout);
            Files.delete(stderr);
            if (p.exitValue() != 0) {
                throw new IOException(subject + ": exit " + p.exitValue() + ": " + err.lines().limit(20).toList());
            }
            Map<String, String> out = new LinkedHashMap<>();
            for (String l : lines) {
                int eq = l.indexOf('=');
                if (eq > 0 && l.indexOf(' ') < 0 || (eq > 0 && l.startsWith("verified="))) {
                    out.put(l.substring(0, eq), l.substring(eq + 1));
                }
            }
            return out;
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** Medians over rounds; throughput as a ratio to the round's best anchor, taken per round then the median. */
    static String table(List<Map<String, Map<String, String>>> rounds, long events, long rollSize, long pacedRate,
                        long pacedEvents, long pacedRollSize) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("Rolling files, %d producers, gzip, median of %d round(s). Flat out: %,d events rolling every "
                + "%d KiB. Paced: %,d events at %,d events/s rolling every %d KiB (the first fifth unrecorded); "
                + "call durations in µs.%n%n", PRODUCERS, rounds.size(), events, rollSize >> 10, pacedEvents, pacedRate,
                pacedRollSize >> 10));
        b.append("| configuration | flat out: events/s | × best anchor | CPU ns/event | paced: p99 | p99.99 | max call "
                + "| max call near a rollover (worst round) | calls > 1 ms | rollovers | output |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (String s : SUBJECTS) {
            List<Double> rate = new ArrayList<>();
            List<Double> ratio = new ArrayList<>();
            List<Double> cpu = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            List<Double> p9999 = new ArrayList<>();
            List<Double> max = new ArrayList<>();
            List<Double> near = new ArrayList<>();
            List<Double> slow = new ArrayList<>();
            List<Double> rolls = new ArrayList<>();
            String verified = s.equals("none") ? "n/a" : "ok";
            for (Map<String, Map<String, String>> r : rounds) {
                Map<String, String> o = r.get(s);
                if (o == null || o.get("eventsPerSecond") == null || o.get("paced.p99") == null) {
                    verified = "FAILED";
                    continue;
                }
                double best = 0;
                for (String a : ANCHORS) {
                    Map<String, String> ao = r.get(a);
                    if (ao != null && ao.get("eventsPerSecond") != null) {
                        best = Math.max(best, Double.parseDouble(ao.get("eventsPerSecond")));
                    }
                }
                double e = Double.parseDouble(o.get("eventsPerSecond"));
                rate.add(e);
                ratio.add(best > 0 ? e / best : Double.NaN);
                cpu.add(Double.parseDouble(o.getOrDefault("cpuNanosPerEvent", "NaN")));
                p99.add(Double.parseDouble(o.get("paced.p99")) / 1e3);
                p9999.add(Double.parseDouble(o.get("paced.p9999")) / 1e3);
                max.add(Double.parseDouble(o.get("paced.max")) / 1e3);
                near.add(Double.parseDouble(o.get("paced.maxNearRollover")) / 1e3);
                slow.add(Double.parseDouble(o.get("paced.callsOver1ms")));
                rolls.add(Double.parseDouble(o.get("paced.rollovers")));
                if (!s.equals("none") && !("ok".equals(o.get("verified")) && "ok".equals(o.get("paced.verified")))) {
                    verified = "FAILED " + o.get("verified") + " / " + o.get("paced.verified");
                }
            }
            double worstNear = near.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
            b.append(String.format("| %s | %,.0f | %s | %.0f | %.1f | %.1f | %,.0f | %,.0f (%,.0f) | %.0f | %.0f | %s |%n", s,
                    median(rate), s.equals("none") ? "(floor)" : String.format("%.2f", median(ratio)), median(cpu),
                    median(p99), median(p9999), median(max), median(near), worstNear, median(slow), median(rolls), verified));
        }
        return b.toString();
    }

    private static double median(List<Double> v) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
