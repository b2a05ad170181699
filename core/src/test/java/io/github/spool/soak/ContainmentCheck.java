package io.github.spool.soak;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The parent side of {@link ContainmentChild}: forks an adapter's program in one mode and checks
 * what the issue asks of it — the application keeps logging, nothing hangs, memory stays under
 * the cap, the counters add up with the output. Shared by both adapters. Test support.
 */
public final class ContainmentCheck {

    private ContainmentCheck() {
    }

    /**
     * @param main      the adapter's program (configures its framework, calls {@link ContainmentChild#run})
     * @param mode      a {@link ContainmentChild} mode
     * @param jvmArgs   extra JVM options (the framework's configuration file among them)
     * @param dir       where the child's output goes
     * @throws Exception if the child cannot be run
     */
    public static void check(Class<?> main, String mode, List<String> jvmArgs, Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String tag = mode + jvmArgs.hashCode();
        Path out = dir.resolve(tag + ".out");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx512m", "-Dcontainment.out=" + out));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", ChildClassPath.withoutSpring(), main.getName(), mode));
        Path err = dir.resolve(tag + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean ended = p.waitFor(150, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String errText = Files.readString(err, StandardCharsets.UTF_8);
        assertTrue(ended, () -> mode + ": the child hung\n" + errText);
        assertEquals(0, p.exitValue(), () -> mode + ": " + errText);
        Map<String, Long> facts = new HashMap<>();
        for (String l : errText.split("\n")) {
            if (l.startsWith("containment-facts ")) {
                for (String kv : l.substring(18).split(" ")) {
                    String v = kv.substring(kv.indexOf('=') + 1);
                    if (v.chars().allMatch(Character::isDigit)) {
                        facts.put(kv.substring(0, kv.indexOf('=')), Long.parseLong(v));
                    }
                }
            }
        }
        System.out.println("figures " + main.getSimpleName() + " " + mode + " " + jvmArgs + ": " + facts);
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        long written = facts.get("EventsWritten");
        switch (mode) {
            case "stackoverflow":
                for (int i = 0; i < 10; i++) {
                    String prefix = "mark " + i + ".";
                    assertTrue(lines.stream().anyMatch(l -> l.startsWith(prefix)), "logging goes on after overflow " + i);
                }
                assertEquals(10L, facts.get("overflows"));
                for (String l : lines) {
                    assertTrue(l.matches("deep \\d+|mark \\d\\.\\d+"), () -> "torn or foreign line: " + l);
                }
                assertEquals(written, lines.size(), "the output is exactly the events counted as written");
                break;
            case "interrupt":
                assertEquals(20_000, lines.stream().filter(l -> l.startsWith("seq ")).count(), "every line reached fd 1");
                assertTrue(lines.contains("APP-AFTER"), "the application's System.out still works");
                assertTrue(lines.contains("SPOOL-AFTER"), "and so does the appender");
                assertEquals(0L, facts.get("EventsLost"));
                break;
            case "direct":
                assertEquals(1_000, lines.stream().filter(l -> l.startsWith("after ")).count(), "logging goes on");
                if (io.github.spool.ring.DirectMemory.usesArenas()) {
                    // Cells outside the JVM's direct memory: the 40 MiB message is admitted alone over
                    // the cap (as any record larger than the cap is), and its cell freed once written.
                    assertTrue(facts.get("maxDirectBytes") <= facts.get("BufferBytesMax") + (42 << 20),
                            () -> "cell memory under the cap (plus one oversized record): " + facts);
                    assertEquals(0L, facts.get("EventsDiscarded"), "the 40 MiB message is written");
                } else {
                    assertTrue(facts.get("maxDirectBytes") <= facts.get("BufferBytesMax") + (2 << 20),
                            () -> "direct memory under the cap (plus one oversized record): " + facts);
                    assertTrue(facts.get("BufferBytesHighWater") <= facts.get("BufferBytesMax") + (1 << 20) + (1 << 10),
                            () -> "the ring's own accounting under the cap: " + facts);
                    assertEquals(1L, facts.get("EventsDiscarded"), "the 40 MiB message no direct memory could hold is dropped, counted");
                    assertTrue(lines.stream().anyMatch(l -> l.startsWith("spool: discarded 1 events")), "and reported in the stream");
                }
                assertEquals(written, lines.stream().filter(l -> !l.startsWith("spool: ")).count(),
                        "the output is exactly the events counted as written");
                break;
            default:
                throw new IllegalArgumentException(mode);
        }
    }

    /**
     * @return the JVM options of the direct-memory runs: 16 MiB of direct memory, with and without
     *         explicit GC (on JDK 24+ cells are FFM segments outside direct memory, measured by
     *         Native Memory Tracking: {@link CellMemory})
     */
    public static List<List<String>> directMemoryVariants() {
        List<List<String>> variants = new ArrayList<>();
        for (List<String> v : List.of(List.of("-XX:MaxDirectMemorySize=16m"),
                List.of("-XX:MaxDirectMemorySize=16m", "-XX:+DisableExplicitGC"))) {
            List<String> options = new ArrayList<>(v);
            options.addAll(CellMemory.jvmOptions());
            variants.add(options);
        }
        return variants;
    }
}
