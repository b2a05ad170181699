package io.github.spool.bench.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.bench.e2e.ChildJvm;
import io.github.spool.bench.e2e.Configuration;
import io.github.spool.bench.e2e.Output;
import io.github.spool.bench.e2e.Role;
import io.github.spool.bench.e2e.Scenarios;
import io.github.spool.bench.e2e.Sink;
import io.github.spool.bench.e2e.Subjects;
import io.github.spool.bench.e2e.ThroughputWorkload;
import io.github.spool.bench.report.Comparison;
import io.github.spool.bench.report.Metric;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The json scenario of issue 33: its registry entries and one short Spool run, output parsed as JSON. */
class JsonScenarioTest {

    @Test
    void registryHoldsTheJsonAnchorsCeilingsAndSpool() {
        Set<String> names = Subjects.in(Scenarios.JSON).stream().map(Configuration::name).collect(Collectors.toSet());
        assertEquals(Set.of("logback-nop", "log4j2-null", "logback-json-console", "logback-json-async",
                "spring-json-console", "log4j2-json-console-direct", "log4j2-async-json-console-direct",
                "spool-log4j2-json", "spool-logback-json", "spool-spring-json"), names);
        for (String spool : List.of("spool-log4j2-json", "spool-logback-json", "spool-spring-json")) {
            Configuration c = Subjects.byName(spool);
            assertEquals(Role.SPOOL, c.role());
            assertEquals(Output.STDOUT, c.output());
            assertTrue(c.writesJson(), spool);
        }
        assertEquals(5, Subjects.in(Scenarios.JSON).stream().filter(c -> c.role() == Role.ANCHOR).count());
        assertTrue(Plan.ALL_SCENARIOS.contains(Scenarios.JSON));
        assertTrue(Plan.quick().runs(Scenarios.JSON));
        assertEquals(List.of(1, 4, 16, 64), Plan.full().jsonThreads());
        assertEquals(Metric.EVENTS_PER_SECOND, Comparison.of(Scenarios.JSON).metric());
        assertTrue(Comparison.of(Scenarios.JSON).higherIsBetter());
    }

    @Test
    void spoolJsonRunsVerifyEveryLineAsJson(@TempDir Path work) throws Exception {
        ChildJvm children = new ChildJvm(work);
        for (String name : List.of("spool-logback-json", "spool-log4j2-json", "spool-spring-json")) {
            ChildJvm.Outcome o = children.run(ThroughputWorkload.class, Subjects.byName(name), Sink.FILE,
                    List.of("threads=2", "events=2000"));
            assertTrue(o.verdict() != null && o.verdict().ok(), name + ": " + o.verification());
            assertEquals(2000, o.verdict().lines(), name);
            assertTrue(o.values().containsKey("cpu.run.nanos"), name + ": no CPU figure");
        }
        try (var left = Files.list(work)) {
            assertEquals(0, left.count(), "child files left behind");
        }
    }
}
