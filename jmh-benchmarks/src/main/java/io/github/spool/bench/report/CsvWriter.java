package io.github.spool.bench.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Writes the raw samples (one line per run) and the summary rows (one line per metric of a row) as CSV. */
public final class CsvWriter {

    private CsvWriter() {
    }

    /**
     * @param samples every sample
     * @param file    the CSV file to write
     * @throws IOException if it cannot be written
     */
    public static void samples(List<Sample> samples, Path file) throws IOException {
        Set<String> metrics = new LinkedHashSet<>();
        samples.forEach(s -> metrics.addAll(s.metrics().keySet()));
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("scenario,group,config,role,repeat," + String.join(",", metrics) + ",verification,facts\n");
            for (Sample s : samples) {
                StringBuilder line = new StringBuilder();
                line.append(q(s.scenario())).append(',').append(q(s.group())).append(',').append(q(s.config()))
                        .append(',').append(s.role()).append(',').append(s.repeat());
                for (String m : metrics) {
                    Double v = s.metrics().get(m);
                    line.append(',').append(v == null || v.isNaN() ? "" : number(v));
                }
                line.append(',').append(q(s.verification())).append(',').append(q(s.facts().toString()));
                w.write(line.append('\n').toString());
            }
        }
    }

    /**
     * @param rows every summary row
     * @param file the CSV file to write
     * @throws IOException if it cannot be written
     */
    public static void summary(List<Row> rows, Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("scenario,group,config,role,metric,median,min,max,repeats,verification\n");
            for (Row r : rows) {
                for (var e : r.stats().entrySet()) {
                    Stats s = e.getValue();
                    w.write(String.join(",", q(r.scenario()), q(r.group()), q(r.config()), r.role().name(),
                            e.getKey(), number(s.median()), number(s.min()), number(s.max()),
                            Integer.toString(s.count()), q(r.verification())) + "\n");
                }
            }
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String q(String text) {
        return '"' + text.replace("\"", "\"\"") + '"';
    }
}
