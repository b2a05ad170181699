package io.github.spool.bench.report;

import io.github.spool.bench.e2e.Role;
import java.util.List;

/**
 * How a scenario's rows are compared: its primary metric, whether more is better, and the
 * reference row the ratios divide by (the seed's baseline), beside the best anchor of the group.
 *
 * @param scenario       scenario name
 * @param metric         primary metric
 * @param higherIsBetter whether a larger value is better (throughput) or worse (time per op)
 * @param reference      configuration the "x reference" ratio divides by, or {@code null}
 */
public record Comparison(String scenario, String metric, boolean higherIsBetter, String reference) {

    /**
     * @param scenario a scenario name
     * @return its comparison
     */
    public static Comparison of(String scenario) {
        return switch (scenario) {
            case "console" -> new Comparison(scenario, Metric.EVENTS_PER_SECOND, true, "println");
            case "ringlog" -> new Comparison(scenario, Metric.EVENTS_PER_SECOND, true, "file-per-line");
            case "request" -> new Comparison(scenario, Metric.QPS, true, "none");
            case "producers", "json" -> new Comparison(scenario, Metric.EVENTS_PER_SECOND, true, null);
            case "stall" -> new Comparison(scenario, Metric.P999_US, false, null);
            case "server" -> new Comparison(scenario, Metric.P99_US, false, "none");
            default -> new Comparison(scenario, Metric.NS_PER_OP, false, null);
        };
    }

    /**
     * How much better {@code row} is than {@code other} on the primary metric: above 1 is better.
     *
     * @param row   the row
     * @param other the row it is compared with
     * @return the speed-up ratio, {@code NaN} if either is missing
     */
    public double ratio(Row row, Row other) {
        if (other == null) {
            return Double.NaN;
        }
        double a = row.median(metric);
        double b = other.median(metric);
        return higherIsBetter ? a / b : b / a;
    }

    /**
     * @param group the rows of one group
     * @return the anchor with the best primary metric, or {@code null} if the group has no anchor
     */
    public Row bestAnchor(List<Row> group) {
        Row best = null;
        for (Row r : group) {
            if (r.role() != Role.ANCHOR || Double.isNaN(r.median(metric))) {
                continue;
            }
            if (best == null || ratio(r, best) > 1) {
                best = r;
            }
        }
        return best;
    }

    /**
     * @param group the rows of one group
     * @return the reference row, or {@code null}
     */
    public Row referenceRow(List<Row> group) {
        return reference == null ? null
                : group.stream().filter(r -> r.config().equals(reference)).findFirst().orElse(null);
    }
}
