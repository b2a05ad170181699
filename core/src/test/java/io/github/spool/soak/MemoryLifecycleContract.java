package io.github.spool.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.github.spool.ring.DirectMemory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Direct memory over an appender's life (issue 31, items 1 and 2), the same for each adapter.
 * Start-up with too little of it ({@code -XX:MaxDirectMemorySize=1m}): nothing is thrown into the
 * application, every line is written, and the appender says once that it started with a smaller
 * ring. The reconfigure loop: {@link MemoryLifecycleChild}
 * reconfigures the framework {@value MemoryLifecycleChild#ROUNDS} times under load with
 * {@code -XX:MaxDirectMemorySize=16m -XX:+DisableExplicitGC}, so that only Spool's own freeing can
 * give a stopped appender's direct memory back. No reconfiguration or logging call may throw, no
 * line logged between reconfigurations may be lost or doubled, and the memory that holds cells must
 * stay flat — and be back where it started once the framework has stopped. An adapter's test
 * extends this and names its program and its configuration. Test support.
 */
public abstract class MemoryLifecycleContract {
    /** Slack on the memory figures: the JDK's own direct buffers (a thread's temporary cache). */
    private static final long SLACK = 512 << 10;

    @TempDir
    protected Path dir;

    /** @return the adapter's program ({@code MemoryLifecycleMain}), which calls {@link MemoryLifecycleChild#run} */
    protected abstract Class<?> main();

    /**
     * Writes the framework's configuration: a Spool appender named {@code out} on standard output,
     * layout {@code %m%n} rendered on the writer (so that its staging buffer is held too), with the
     * given sizes (in bytes; {@code 0}: the default), and status messages of level WARN and above
     * printed on standard error.
     *
     * @param dir           where to write it
     * @param bufferSize    the {@code bufferSize} setting, or {@code 0}
     * @param maxBufferSize the {@code maxBufferSize} setting, or {@code 0}
     * @return the JVM option that makes the framework read it
     * @throws Exception if it cannot be written
     */
    protected abstract String configure(Path dir, long bufferSize, long maxBufferSize) throws Exception;

    /** Start-up with 1 MiB of direct memory, less than the default ring's 1 MiB and the JDK's own. */
    @Test
    void startsWithOneMebibyteOfDirectMemory() throws Exception {
        Child c = new Child("small", List.of("-XX:MaxDirectMemorySize=1m"), 0, 0);
        assertEquals(0L, c.facts.get("errors"), () -> "nothing thrown into the application: " + c);
        assertEquals((long) MemoryLifecycleChild.SMALL_LINES, c.facts.get("lines"), () -> "every line written: " + c);
        long said = c.stderr.lines().filter(l -> l.contains("not enough direct memory for a ring")).count();
        // FFM cells (JDK 24+) are native memory the limit does not bound: the ring starts in full.
        assertEquals(DirectMemory.usesArenas() ? 0 : 1, said, () -> "said once: " + c);
    }

    @Test
    void reconfiguredUnderLoadWithSixteenMebibytesOfDirectMemory() throws Exception {
        Child c = new Child("reconfigure", List.of("-XX:MaxDirectMemorySize=16m", "-XX:+DisableExplicitGC"), 1 << 20, 2 << 20);
        Map<String, Long> f = c.facts;
        String facts = c.toString();
        assertEquals(0L, f.get("errors"), () -> "no reconfiguration or logging call threw: " + facts);
        assertTrue(f.get("guarded") >= (long) MemoryLifecycleChild.ROUNDS * 40, () -> "the load ran through the rounds: " + facts);
        assertEquals(0L, f.get("missing"), () -> "every line logged between reconfigurations was written: " + facts);
        assertEquals(0L, f.get("duplicated"), () -> "and written once: " + facts);
        assertTrue(f.get("maxBytes") <= f.get("warmBytes") + (5 << 20),
                () -> "cell memory flat (within one old and one new appender's cap): " + facts);
        assertTrue(f.get("endBytes") <= f.get("baseBytes") + SLACK,
                () -> "every stopped appender's memory given back, without a GC: " + facts);
    }

    /** One run of the child: its facts and its standard error. */
    private final class Child {
        final Map<String, Long> facts = new HashMap<>();
        final String stderr;

        Child(String mode, List<String> jvmArgs, long bufferSize, long maxBufferSize) throws Exception {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Path out = dir.resolve(mode + ".out");
            Path err = dir.resolve(mode + ".err");
            List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-Dreconfigure.out=" + out));
            cmd.addAll(jvmArgs);
            cmd.addAll(CellMemory.jvmOptions());
            cmd.add(configure(dir, bufferSize, maxBufferSize));
            cmd.addAll(List.of("-cp", ChildClassPath.withoutSpring(), main().getName(), mode));
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            boolean ended = p.waitFor(120, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly();
            }
            stderr = Files.readString(err, StandardCharsets.UTF_8);
            assertTrue(ended, () -> mode + ": the child hung\n" + stderr);
            assertEquals(0, p.exitValue(), stderr);
            for (String l : stderr.split("\n")) {
                if (l.startsWith("reconfigure-facts ")) {
                    for (String kv : l.substring(18).split(" ")) {
                        facts.put(kv.substring(0, kv.indexOf('=')), Long.parseLong(kv.substring(kv.indexOf('=') + 1)));
                    }
                }
            }
            System.out.println("figures " + main().getSimpleName() + " " + mode + ": " + facts);
            assertTrue(facts.containsKey("errors"), stderr);
        }

        @Override
        public String toString() {
            return facts + "\n" + (stderr.length() > 4000 ? stderr.substring(0, 4000) : stderr);
        }
    }
}
