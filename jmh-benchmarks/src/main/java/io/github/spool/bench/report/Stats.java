package io.github.spool.bench.report;

import java.util.Arrays;
import java.util.Collection;

/**
 * Median, minimum and maximum over the repeats of one configuration.
 *
 * @param median the median (mean of the two middle values for an even count)
 * @param min    the smallest value
 * @param max    the largest value
 * @param count  number of values
 */
public record Stats(double median, double min, double max, int count) {

    /**
     * @param values the values, at least one
     * @return their statistics
     */
    public static Stats of(Collection<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) {
            return new Stats(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        int mid = v.length / 2;
        double median = v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
        return new Stats(median, v[0], v[v.length - 1], v.length);
    }

    @Override
    public String toString() {
        return median + " " + Arrays.toString(new double[] {min, max});
    }
}
