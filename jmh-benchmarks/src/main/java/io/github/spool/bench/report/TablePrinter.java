package io.github.spool.bench.report;

import io.github.spool.bench.e2e.Role;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders the suite's comparison table as text (for the terminal) or Markdown (for
 * {@code docs/benchmarks.md}): one section per scenario and group, one row per configuration,
 * median [min – max] over the repeats and ratios to the anchors of the same run.
 */
public final class TablePrinter {

    private final boolean markdown;

    /** @param markdown whether to render Markdown tables instead of aligned text */
    public TablePrinter(boolean markdown) {
        this.markdown = markdown;
    }

    /**
     * @param rows every row of a suite run
     * @return the whole table
     */
    public String render(List<Row> rows) {
        Map<List<String>, List<Row>> groups = new LinkedHashMap<>();
        for (Row r : rows) {
            groups.computeIfAbsent(List.of(r.scenario(), r.group()), k -> new ArrayList<>()).add(r);
        }
        StringBuilder sb = new StringBuilder();
        groups.forEach((key, group) -> section(sb, key.get(0), key.get(1), group));
        return sb.toString();
    }

    private void section(StringBuilder sb, String scenario, String group, List<Row> rows) {
        Comparison c = Comparison.of(scenario);
        Row best = c.bestAnchor(rows);
        Row ref = c.referenceRow(rows);
        List<String[]> lines = new ArrayList<>();
        switch (scenario) {
            case "stall" -> {
                lines.add(new String[] {"configuration", "role", "p50 µs", "p99 µs", "p99.9 µs", "max µs",
                    "delivered/produced", "stop ms", "output"});
                for (Row r : rows) {
                    lines.add(new String[] {r.config(), role(r), Format.micros(r.median(Metric.P50_US)),
                        Format.micros(r.median(Metric.P99_US)), Format.micros(r.median(Metric.P999_US)),
                        Format.micros(r.median(Metric.MAX_US)),
                        Format.count(r.median(Metric.DELIVERED)) + "/" + Format.count(r.median(Metric.PRODUCED)),
                        Format.micros(r.median(Metric.STOP_MS)), output(r)});
                }
            }
            case "request" -> {
                lines.add(new String[] {"configuration", "role", "requests/s median [min – max]", "QPS loss vs none",
                    "log call µs (mean)", "writer CPU µs/request", "output"});
                for (Row r : rows) {
                    double ratio = ref == null ? Double.NaN : r.median(Metric.QPS) / ref.median(Metric.QPS);
                    lines.add(new String[] {r.config(), role(r), spread(r, Metric.QPS),
                        Double.isNaN(ratio) ? "-" : String.format("%.1f%%", (1 - ratio) * 100),
                        hundredths(r.median(Metric.CALL_US_MEAN)), hundredths(r.median(Metric.WRITER_CPU_US)), output(r)});
                }
            }
            case "server" -> {
                lines.add(new String[] {"configuration", "role", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "p99 x none",
                    "requests/s", "max requests/s median [min – max]", "max x none", "CPU µs/request", "output"});
                for (Row r : rows) {
                    double maxRatio = ref == null ? Double.NaN : r.median(Metric.MAX_QPS) / ref.median(Metric.MAX_QPS);
                    double p99Ratio = ref == null ? Double.NaN : r.median(Metric.P99_US) / ref.median(Metric.P99_US);
                    lines.add(new String[] {r.config(), role(r), Format.micros(r.median(Metric.P50_US)),
                        Format.micros(r.median(Metric.P99_US)), Format.micros(r.median(Metric.P999_US)),
                        Format.micros(r.median(Metric.MAX_US)), times(p99Ratio), Format.count(r.median(Metric.QPS)),
                        spread(r, Metric.MAX_QPS), times(maxRatio), decimal(r.median(Metric.CPU_US_PER_REQUEST)), output(r)});
                }
            }
            case "jmh" -> {
                lines.add(new String[] {"configuration", "role", "ns/op", "± error", "B/op", "x best anchor"});
                for (Row r : rows) {
                    lines.add(new String[] {r.config(), role(r), decimal(r.median(Metric.NS_PER_OP)),
                        decimal(r.median(Metric.NS_PER_OP_ERROR)), decimal(r.median(Metric.BYTES_PER_OP)), Format.ratio(c.ratio(r, best))});
                }
            }
            case "json" -> {
                lines.add(new String[] {"configuration", "role", "events/s median [min – max]", "x best anchor",
                    "CPU ns/event median [min – max]", "CPU x best anchor", "output"});
                for (Row r : rows) {
                    double cpu = r.median(Metric.CPU_NS_PER_EVENT);
                    double cpuRatio = best == null ? Double.NaN : cpu / best.median(Metric.CPU_NS_PER_EVENT);
                    lines.add(new String[] {r.config(), role(r), spread(r, Metric.EVENTS_PER_SECOND),
                        Format.ratio(c.ratio(r, best)), spread(r, Metric.CPU_NS_PER_EVENT),
                        Double.isNaN(cpuRatio) ? "-" : String.format(java.util.Locale.ROOT, "%.2fx", cpuRatio), output(r)});
                }
            }
            case "producers" -> {
                // Issue 34's CPU goals: above the framework's own ceiling (log4j2 <Null>, logback
                // NOP), and against its cheaper console anchor of the same run.
                lines.add(new String[] {"configuration", "role", "events/s median [min – max]", "x best anchor",
                    "CPU ns/event median [min – max]", "CPU above the framework's ceiling",
                    "CPU x the framework's cheaper anchor", "output"});
                for (Row r : rows) {
                    double cpu = r.median(Metric.CPU_NS_PER_EVENT);
                    Row ceiling = ceilingOf(rows, r.config());
                    Row cheaper = cheaperAnchorOf(rows, r.config());
                    lines.add(new String[] {r.config(), role(r), spread(r, Metric.EVENTS_PER_SECOND),
                        Format.ratio(c.ratio(r, best)), spread(r, Metric.CPU_NS_PER_EVENT),
                        ceiling == null || ceiling == r ? "-"
                                : String.format(java.util.Locale.ROOT, "%+.0f ns", cpu - ceiling.median(Metric.CPU_NS_PER_EVENT)),
                        cheaper == null || cheaper == r ? "-"
                                : String.format(java.util.Locale.ROOT, "%.2fx", cpu / cheaper.median(Metric.CPU_NS_PER_EVENT)),
                        output(r)});
                }
            }
            default -> {
                String refName = ref == null ? "reference" : ref.config();
                lines.add(new String[] {"configuration", "role", "events/s median [min – max]", "x " + refName,
                    "x best anchor", "output"});
                for (Row r : rows) {
                    lines.add(new String[] {r.config(), role(r), spread(r, Metric.EVENTS_PER_SECOND),
                        Format.ratio(c.ratio(r, ref)), Format.ratio(c.ratio(r, best)), output(r)});
                }
            }
        }
        String title = scenario + " | " + group + (best == null ? "" : " | best anchor: " + best.config());
        if (markdown) {
            sb.append("\n#### ").append(title).append("\n\n");
            sb.append("| ").append(String.join(" | ", lines.get(0))).append(" |\n");
            sb.append("|").append("---|".repeat(lines.get(0).length)).append("\n");
            for (String[] l : lines.subList(1, lines.size())) {
                sb.append("| ").append(String.join(" | ", l)).append(" |\n");
            }
        } else {
            sb.append("\n== ").append(title).append('\n');
            int[] width = new int[lines.get(0).length];
            for (String[] l : lines) {
                for (int i = 0; i < l.length; i++) {
                    width[i] = Math.max(width[i], l[i].length());
                }
            }
            for (String[] l : lines) {
                StringBuilder line = new StringBuilder("  ");
                for (int i = 0; i < l.length; i++) {
                    line.append(String.format("%-" + width[i] + "s", l[i])).append("  ");
                }
                sb.append(line.toString().stripTrailing()).append('\n');
            }
        }
    }

    /** @return "log4j2" or "logback" by the configuration's name, or {@code null} */
    static String framework(String config) {
        return config.contains("log4j2") ? "log4j2" : config.contains("logback") ? "logback" : null;
    }

    /** @return the framework's ceiling row (the appender that writes nothing), or {@code null} */
    static Row ceilingOf(List<Row> rows, String config) {
        String f = framework(config);
        return rows.stream().filter(r -> r.role() == Role.CEILING && f != null && f.equals(framework(r.config())))
                .findFirst().orElse(null);
    }

    /** @return the framework's anchor with the least CPU per event, or {@code null} */
    static Row cheaperAnchorOf(List<Row> rows, String config) {
        String f = framework(config);
        return rows.stream().filter(r -> r.role() == Role.ANCHOR && f != null && f.equals(framework(r.config()))
                        && !Double.isNaN(r.median(Metric.CPU_NS_PER_EVENT)))
                .min(java.util.Comparator.comparingDouble(r -> r.median(Metric.CPU_NS_PER_EVENT))).orElse(null);
    }

    private static String spread(Row r, String metric) {
        Stats s = r.stats().get(metric);
        if (s == null) {
            return "-";
        }
        return Format.count(s.median()) + " [" + Format.count(s.min()) + " – " + Format.count(s.max()) + "]";
    }

    private static String hundredths(double v) {
        return Double.isNaN(v) ? "-" : String.format(java.util.Locale.ROOT, "%.2f", v);
    }

    /** A plain quotient (the server's p99 and maximum against no logging), where 1.15x means 15% more. */
    private static String times(double v) {
        return Double.isNaN(v) ? "-" : String.format(java.util.Locale.ROOT, "%.2fx", v);
    }

    private static String decimal(double v) {
        return Double.isNaN(v) ? "-" : String.format(java.util.Locale.ROOT, "%.1f", v);
    }

    private static String role(Row r) {
        return r.role().name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String output(Row r) {
        String disruptor = r.facts().get("disruptor");
        return r.verification() + (disruptor == null ? "" : " (Disruptor " + disruptor + ")");
    }
}
