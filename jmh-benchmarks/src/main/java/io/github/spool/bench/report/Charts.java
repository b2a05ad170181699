package io.github.spool.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Renders the suite's charts as PNG files with XChart: one bar chart per scenario (median over
 * the repeats; the spread is in the tables and CSV files), and per reader for the stalling sink.
 */
public final class Charts {

    private static final int WIDTH = 1200;
    private static final int HEIGHT = 650;

    private Charts() {
    }

    /**
     * Writes every chart the rows allow.
     *
     * @param rows   every summary row
     * @param outDir where the PNG files go
     * @return the files written
     * @throws IOException if a file cannot be written
     */
    public static List<Path> write(List<Row> rows, Path outDir) throws IOException {
        List<Path> files = new ArrayList<>();
        bySeriesGroup(rows, "console", Metric.EVENTS_PER_SECOND, "events/s (first call to flushed, log scale), higher is better",
                true, outDir.resolve("console"), files);
        bySeriesGroup(rows, "ringlog", Metric.EVENTS_PER_SECOND, "lines/s into a file (log scale), higher is better",
                true, outDir.resolve("ringlog"), files);
        bySeriesGroup(rows, "producers", Metric.EVENTS_PER_SECOND,
                "events/s by producer threads, stdout to a file (log scale), higher is better", true,
                outDir.resolve("producers"), files);
        bySeriesGroup(rows, "json", Metric.EVENTS_PER_SECOND,
                "JSON lines: events/s by producer threads, stdout to a file (log scale), higher is better", true,
                outDir.resolve("json"), files);
        bySeriesGroup(rows, "json", Metric.CPU_NS_PER_EVENT,
                "JSON lines: process CPU ns per event by producer threads (log scale), lower is better", true,
                outDir.resolve("json-cpu"), files);
        bySeriesGroup(rows, "request", Metric.QPS, "requests/s, higher is better", false,
                outDir.resolve("request"), files);
        bySeriesGroup(rows, "server", Metric.P99_US,
                "production-shape server: request p99 µs from the intended send time (log scale), lower is better", true,
                outDir.resolve("server-p99"), files);
        bySeriesGroup(rows, "jmh", Metric.NS_PER_OP, "ns per event (producer), lower is better", true,
                outDir.resolve("jmh-ns-per-op"), files);
        bySeriesGroup(rows, "jmh", Metric.BYTES_PER_OP, "bytes allocated per event (gc.alloc.rate.norm)", false,
                outDir.resolve("jmh-alloc"), files);
        Set<String> stallGroups = new LinkedHashSet<>();
        rows.stream().filter(r -> r.scenario().equals("stall")).forEach(r -> stallGroups.add(r.group()));
        int i = 0;
        for (String group : stallGroups) {
            List<Row> g = rows.stream().filter(r -> r.scenario().equals("stall") && r.group().equals(group)).toList();
            CategoryChart chart = chart("stall: " + group, "call duration, µs (log scale)", true);
            List<String> x = g.stream().map(Row::config).toList();
            for (String[] m : new String[][] {{Metric.P50_US, "p50"}, {Metric.P99_US, "p99"},
                {Metric.P999_US, "p99.9"}, {Metric.MAX_US, "max"}}) {
                List<Double> y = g.stream().map(r -> positive(r.median(m[0]))).toList();
                chart.addSeries(m[1], x, y);
            }
            logBounds(chart, g.stream().flatMap(r -> r.stats().entrySet().stream()
                    .filter(e -> e.getKey().endsWith("_us")).map(e -> e.getValue().median())).toList());
            files.add(save(chart, outDir.resolve("stall-" + (++i))));
        }
        return files;
    }

    /**
     * One bar chart of named series over configurations (scenarios that build their own table, such
     * as rolling files).
     *
     * @param title  the chart's title
     * @param yTitle the y axis's title
     * @param x      the configurations
     * @param series series name to one value per configuration ({@code NaN}: no bar)
     * @param log    logarithmic y axis
     * @param base   the file, without {@code .png}
     * @return the file written
     * @throws IOException if it cannot be written
     */
    public static Path bars(String title, String yTitle, List<String> x, Map<String, List<Double>> series, boolean log,
                            Path base) throws IOException {
        CategoryChart chart = chart(title, yTitle, log);
        List<Double> all = new ArrayList<>();
        series.forEach((name, values) -> {
            List<Double> y = values.stream().map(v -> log ? positive(v) : (Double.isNaN(v) ? null : v)).toList();
            chart.addSeries(name, x, y);
            all.addAll(values);
        });
        if (log) {
            logBounds(chart, all);
        }
        return save(chart, base);
    }

    private static void bySeriesGroup(List<Row> rows, String scenario, String metric, String yTitle, boolean log,
                                      Path file, List<Path> files) throws IOException {
        List<Row> s = rows.stream().filter(r -> r.scenario().equals(scenario) && r.stats().containsKey(metric)).toList();
        if (s.isEmpty()) {
            return;
        }
        Set<String> configs = new LinkedHashSet<>();
        Map<String, Map<String, Double>> series = new LinkedHashMap<>();
        for (Row r : s) {
            configs.add(r.config());
            series.computeIfAbsent(r.group(), k -> new LinkedHashMap<>()).put(r.config(), r.median(metric));
        }
        CategoryChart chart = chart(scenario + ": " + yTitle, yTitle, log);
        List<String> x = new ArrayList<>(configs);
        series.forEach((group, values) -> {
            // a configuration absent from a group is drawn as an empty slot (XChart accepts null)
            List<Double> y = x.stream().map(c -> values.containsKey(c) ? (log ? positive(values.get(c)) : values.get(c))
                    : null).toList();
            chart.addSeries(group, x, y);
        });
        if (log) {
            logBounds(chart, s.stream().map(r -> r.median(metric)).toList());
        }
        files.add(save(chart, file));
    }

    private static CategoryChart chart(String title, String yTitle, boolean log) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).yAxisTitle(yTitle)
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setXAxisLabelRotation(30);
        chart.getStyler().setYAxisLogarithmic(log);
        chart.getStyler().setOverlapped(false);
        return chart;
    }

    /** XChart starts bars at zero unless told otherwise, which a logarithmic axis cannot show. */
    private static void logBounds(CategoryChart chart, List<Double> values) {
        double min = values.stream().filter(v -> v != null && v > 0).mapToDouble(Double::doubleValue).min().orElse(1);
        double max = values.stream().filter(v -> v != null && v > 0).mapToDouble(Double::doubleValue).max().orElse(10);
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
        chart.getStyler().setYAxisMax(Math.pow(10, Math.ceil(Math.log10(max) + 1e-9)));
    }

    private static Double positive(double v) {
        return Double.isNaN(v) ? null : Math.max(v, 0.01);
    }

    private static Path save(CategoryChart chart, Path base) throws IOException {
        BitmapEncoder.saveBitmap(chart, base.toString(), BitmapEncoder.BitmapFormat.PNG);
        return Path.of(base + ".png");
    }
}
