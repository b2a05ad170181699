package io.github.spool.bench.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.bench.e2e.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The producers table's CPU columns (issue 34): each Spool row against its own framework's rows. */
class TablePrinterTest {

    private static Sample sample(String config, Role role, double eventsPerSecond, double cpu) {
        return new Sample("producers", "stdout=file, 4 producers", config, role, 1,
                Map.of(Metric.EVENTS_PER_SECOND, eventsPerSecond, Metric.CPU_NS_PER_EVENT, cpu), "OK", Map.of());
    }

    @Test
    void spoolRowsShowTheirCpuAboveTheirFrameworksCeilingAndAgainstItsCheaperAnchor() {
        List<Sample> samples = new ArrayList<>();
        samples.add(sample("log4j2-null", Role.CEILING, 4e6, 500));
        samples.add(sample("logback-nop", Role.CEILING, 9e6, 150));
        samples.add(sample("log4j2-console-direct", Role.ANCHOR, 1e6, 2600));
        samples.add(sample("log4j2-async-console-direct", Role.ANCHOR, 1.3e6, 2400));
        samples.add(sample("logback-console", Role.ANCHOR, 1.2e6, 2000));
        samples.add(sample("spool-log4j2", Role.SPOOL, 2.5e6, 700));
        samples.add(sample("spool-logback", Role.SPOOL, 5e6, 450));
        String table = new TablePrinter(true).render(Row.of(samples));
        // 700 - 500 above log4j2's <Null>, 700 / 2400 of its cheaper anchor (the async one here)
        assertTrue(table.contains("| spool-log4j2 |"), table);
        String log4j2 = table.lines().filter(l -> l.startsWith("| spool-log4j2 |")).findFirst().orElseThrow();
        assertTrue(log4j2.contains("+200 ns") && log4j2.contains(String.format(Locale.ROOT, "%.2fx", 700.0 / 2400)), log4j2);
        String logback = table.lines().filter(l -> l.startsWith("| spool-logback |")).findFirst().orElseThrow();
        assertTrue(logback.contains("+300 ns") && logback.contains(String.format(Locale.ROOT, "%.2fx", 450.0 / 2000)), logback);
        // a ceiling is not measured against itself
        String ceiling = table.lines().filter(l -> l.startsWith("| log4j2-null |")).findFirst().orElseThrow();
        assertTrue(ceiling.contains("| - |") && !ceiling.contains(" ns |"), ceiling);
    }
}
