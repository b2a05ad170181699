package io.github.spool.bench.report;

import io.github.spool.bench.e2e.Role;
import java.util.Map;

/**
 * One measurement: one configuration, one repeat, in one group of one scenario.
 *
 * @param scenario     scenario name ({@code console}, {@code ringlog}, {@code stall}, {@code request}, {@code jmh})
 * @param group        the conditions shared by the rows compared with each other, e.g. {@code stdout=file, 1 producer}
 * @param config       configuration name
 * @param role         its role in the comparison
 * @param repeat       1-based repeat number
 * @param metrics      measured values by metric name (see {@link Metric})
 * @param verification one-line verification summary of its output
 * @param facts        versions and similar facts worth printing (e.g. {@code disruptor=3.4.4})
 */
public record Sample(String scenario, String group, String config, Role role, int repeat, Map<String, Double> metrics,
                     String verification, Map<String, String> facts) {

    /** @return whether the output was verified complete or is unverifiable by design */
    public boolean verifiedOrNotApplicable() {
        return verification.startsWith("OK") || verification.startsWith("n/a");
    }
}
