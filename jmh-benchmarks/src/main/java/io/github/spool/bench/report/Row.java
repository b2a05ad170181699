package io.github.spool.bench.report;

import io.github.spool.bench.e2e.Role;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The repeats of one configuration in one group, reduced to median, minimum and maximum per
 * metric: one row of a comparison table.
 *
 * @param scenario     scenario name
 * @param group        the group's conditions
 * @param config       configuration name
 * @param role         its role
 * @param stats        statistics per metric over the repeats
 * @param verification verification over the repeats: {@code OK n/n}, {@code n/a ...} or {@code FAILED ...}
 * @param facts        facts reported by the runs (versions)
 */
public record Row(String scenario, String group, String config, Role role, Map<String, Stats> stats,
                  String verification, Map<String, String> facts) {

    /**
     * @param metric a metric name
     * @return its median over the repeats, {@code NaN} when not measured
     */
    public double median(String metric) {
        Stats s = stats.get(metric);
        return s == null ? Double.NaN : s.median();
    }

    /**
     * Groups samples into rows, in the order the samples first appeared.
     *
     * @param samples every sample of a suite run
     * @return one row per (scenario, group, configuration)
     */
    public static List<Row> of(List<Sample> samples) {
        Map<List<String>, List<Sample>> byKey = new LinkedHashMap<>();
        for (Sample s : samples) {
            byKey.computeIfAbsent(List.of(s.scenario(), s.group(), s.config()), k -> new ArrayList<>()).add(s);
        }
        List<Row> rows = new ArrayList<>();
        for (List<Sample> repeats : byKey.values()) {
            Sample first = repeats.get(0);
            Map<String, List<Double>> values = new LinkedHashMap<>();
            for (Sample s : repeats) {
                s.metrics().forEach((k, v) -> {
                    if (!Double.isNaN(v)) {
                        values.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
                    }
                });
            }
            Map<String, Stats> stats = new LinkedHashMap<>();
            values.forEach((k, v) -> stats.put(k, Stats.of(v)));
            Map<String, String> facts = new LinkedHashMap<>();
            repeats.forEach(s -> facts.putAll(s.facts()));
            rows.add(new Row(first.scenario(), first.group(), first.config(), first.role(), stats,
                    verification(repeats), facts));
        }
        return rows;
    }

    /**
     * @param rows      rows
     * @param predicate which to keep
     * @return the rows that match, in order
     */
    public static List<Row> filter(List<Row> rows, Predicate<Row> predicate) {
        return rows.stream().filter(predicate).toList();
    }

    private static String verification(List<Sample> repeats) {
        List<Sample> failed = repeats.stream().filter(s -> !s.verifiedOrNotApplicable()).toList();
        if (!failed.isEmpty()) {
            return "FAILED " + failed.size() + "/" + repeats.size() + ": " + failed.get(0).verification();
        }
        String first = repeats.get(0).verification();
        if (first.startsWith("n/a")) {
            return first;
        }
        return "OK " + repeats.size() + "/" + repeats.size();
    }
}
