package io.github.spool.bench.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.bench.e2e.ChildJvm;
import io.github.spool.bench.e2e.Configuration;
import io.github.spool.bench.e2e.Output;
import io.github.spool.bench.e2e.Role;
import io.github.spool.bench.e2e.Scenarios;
import io.github.spool.bench.e2e.Subjects;
import io.github.spool.bench.report.Comparison;
import io.github.spool.bench.report.Metric;
import io.github.spool.bench.report.Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The production-shape server scenario of issue 34: its registry entries, plan and comparison. */
class ServerScenarioTest {

    @Test
    void registryHoldsTheFloorTheConsolesAndSpoolViaBothAdapters() {
        List<String> names = Subjects.in(Scenarios.SERVER).stream().map(Configuration::name).toList();
        assertEquals(List.of("none", "logback-console", "logback-async", "log4j2-console-direct",
                "log4j2-async-console-direct", "spool-log4j2", "spool-logback"), names);
        // the floor runs first: the open-loop rates are fractions of its maximum
        assertEquals(Role.BASELINE, Subjects.in(Scenarios.SERVER).get(0).role());
        assertEquals(Output.NONE, Subjects.in(Scenarios.SERVER).get(0).output());
        assertEquals(4, Subjects.in(Scenarios.SERVER).stream().filter(c -> c.role() == Role.ANCHOR).count());
        assertTrue(Plan.ALL_SCENARIOS.contains(Scenarios.SERVER));
        assertTrue(Plan.quick().runs(Scenarios.SERVER));
        Comparison c = Comparison.of(Scenarios.SERVER);
        assertEquals(Metric.P99_US, c.metric());
        assertEquals("none", c.reference());
        assertTrue(!c.higherIsBetter());
    }

    @Test
    void aShortSpoolRunGivesLatenciesRatesCpuAndEveryLoggedLine(@TempDir Path work) throws Exception {
        ServerScenario.Timing t = new ServerScenario.Timing(List.of(8), List.of(0.5), 8, 0.5, 0.5, 1, 1);
        ServerScenario.Run run = ServerScenario.runOne(new ChildJvm(work), Subjects.byName("spool-logback"), 8, t,
                Double.NaN);
        List<Sample> samples = run.samples(1);
        assertEquals(1, samples.size());
        Sample s = samples.get(0);
        Map<String, Double> m = s.metrics();
        assertTrue(s.verification().startsWith("OK"), s.verification());
        assertTrue(m.get(Metric.MAX_QPS) > 0, m.toString());
        assertTrue(run.referencePerSecond() > 0, "the closed-loop window after the warm-up");
        assertTrue(m.get(Metric.QPS) > 0, m.toString());
        // half the first window's maximum is sustainable: the open loop reaches its schedule, within a
        // loaded machine's slack (the maximum reported is the last window's, measured warmer)
        assertTrue(m.get(Metric.QPS) > 0.5 * 0.5 * run.referencePerSecond(), m.toString());
        assertTrue(m.get(Metric.P50_US) > 0, m.toString());
        assertTrue(m.get(Metric.P50_US) <= m.get(Metric.P99_US), m.toString());
        assertTrue(m.get(Metric.P99_US) <= m.get(Metric.P999_US), m.toString());
        assertTrue(m.get(Metric.P999_US) <= m.get(Metric.MAX_US), m.toString());
        assertTrue(m.get(Metric.CPU_US_PER_REQUEST) > 0, m.toString());
        // 2 lines a request, a third every 100th: every logged line found in the output
        double requests = run.outcome().number("requests");
        assertTrue(requests > 0);
        assertEquals(m.get(Metric.PRODUCED), m.get(Metric.DELIVERED));
        assertTrue(m.get(Metric.DELIVERED) >= 2 * requests, m.toString());
        try (var left = Files.list(work)) {
            assertEquals(0, left.count(), "child files left behind");
        }
    }
}
