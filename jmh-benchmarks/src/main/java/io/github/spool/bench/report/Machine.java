package io.github.spool.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Describes the machine a suite run measured on: cores, CPU model, memory, JDK, kernel, clock
 * source and load. Printed at the start of every run and written beside the results, because
 * every number depends on it (the cached clock pays off on HPET/Xen clock sources, not on TSC).
 */
public final class Machine {

    private static final Path CLOCK_SOURCE = Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");

    private Machine() {
    }

    /** @return name to value, in print order */
    public static Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        m.put("cpu", cpuModel());
        m.put("cores (availableProcessors)", Integer.toString(Runtime.getRuntime().availableProcessors()));
        m.put("memory", firstMatching(Path.of("/proc/meminfo"), "MemTotal:").replaceAll("\\s+", " "));
        m.put("jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("clock source", read(CLOCK_SOURCE));
        m.put("load average at start", read(Path.of("/proc/loadavg")));
        m.put("child JVM options", String.join(" ", io.github.spool.bench.e2e.ChildJvm.JVM_OPTIONS)
                + "; the stall scenario adds " + String.join(" ", io.github.spool.bench.suite.StallScenario.LATENCY_JVM_OPTIONS));
        return m;
    }

    /**
     * @param description from {@link #describe()}
     * @return one {@code name: value} line each
     */
    public static String format(Map<String, String> description) {
        StringBuilder sb = new StringBuilder();
        description.forEach((k, v) -> sb.append(k).append(": ").append(v).append('\n'));
        return sb.toString();
    }

    private static String cpuModel() {
        String model = firstMatching(Path.of("/proc/cpuinfo"), "model name");
        int colon = model.indexOf(':');
        return colon < 0 ? model : model.substring(colon + 1).trim();
    }

    private static String firstMatching(Path file, String prefix) {
        try {
            List<String> lines = Files.readAllLines(file);
            return lines.stream().filter(l -> l.startsWith(prefix)).findFirst().orElse("unknown");
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown (" + file + " not readable)";
        }
    }
}
