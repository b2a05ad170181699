// SPDX-License-Identifier: Apache-2.0
package io.github.spool.dropin;

import io.github.spool.soak.ChildClassPath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code follow} in a JVM whose {@code System.out} was replaced before logging started
 * ({@link FollowChild}), the same for each adapter: with {@code follow} every line arrives through
 * the replacement, in order, and none on fd 1 directly; without it every line bypasses the
 * replacement (fd 1); and with a replacement that feeds lines back into logging, nothing loops.
 * An adapter's test extends this and names its program and configuration (the appender named
 * {@code out}, status messages of level WARN on standard error).
 * Test support.
 */
public abstract class FollowContract {

    /** A directory of the test's own. */
    @TempDir
    protected Path dir;

    /** @return the adapter's program: calls {@link FollowChild#replaceStdout()}, then {@link FollowChild#run} */
    protected abstract Class<?> main();

    /**
     * Writes the framework's configuration: a Spool appender on standard output, layout
     * {@code %m%n}, with {@code follow} on or off.
     *
     * @param dir    where to write it
     * @param follow the option's value
     * @return the JVM option that makes the framework read it
     * @throws Exception if it cannot be written
     */
    protected abstract String configure(Path dir, boolean follow) throws Exception;

    @Test
    void withFollowEveryLineGoesThroughTheReplacedSystemOut() throws Exception {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < FollowChild.LINES; i++) {
            expected.add(FollowChild.MARK + "follow-line " + i);
        }
        assertEquals(expected, logged(true));
    }

    @Test
    void withoutFollowEveryLineBypassesTheReplacement() throws Exception {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < FollowChild.LINES; i++) {
            expected.add("follow-line " + i);
        }
        assertEquals(expected, logged(false));
    }

    /**
     * With {@code follow}, a {@code System.out} that sends every line it gets back into logging
     * (a bridge such as SLF4J's or Spring's) must not loop (issue 31, item 11): the writer drops
     * the lines its own writes cause and says so once; what was logged is written once. The child
     * waits for its three lines to be written before it logs a fourth, so any line the writes fed
     * back would be in the output before it.
     */
    @Test
    void withFollowIntoASystemOutBridgedBackIntoLoggingNothingLoops() throws Exception {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < FollowChild.BRIDGED_LINES; i++) {
            expected.add(FollowChild.MARK + FollowChild.BRIDGED + i);
        }
        List<String> stderr = new ArrayList<>();
        assertEquals(expected, logged(true, FollowChild.BRIDGED, stderr), () -> String.join("\n", stderr));
        assertEquals(1, stderr.stream().filter(l -> l.contains("came back into this appender")).count(),
                () -> "said once: " + String.join("\n", stderr));
    }

    /** @return the child's standard output lines that carry a logged message */
    private List<String> logged(boolean follow) throws Exception {
        return logged(follow, "follow-line ", new ArrayList<>());
    }

    /** @return the child's standard output lines that hold {@code marker}; its standard error goes into {@code stderr} */
    private List<String> logged(boolean follow, String marker, List<String> stderr) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx64m", "-XX:TieredStopAtLevel=1", configure(dir, follow),
                "-cp", ChildClassPath.withoutSpring(), main().getName()));
        if (marker.equals(FollowChild.BRIDGED)) {
            cmd.add("bridged");
        }
        Path out = dir.resolve("follow-" + follow + ".out");
        Path err = dir.resolve("follow-" + follow + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String errText = Files.readString(err, StandardCharsets.UTF_8);
        stderr.addAll(List.of(errText.split("\n")));
        assertTrue(ended, () -> "the child hung\n" + errText);
        assertEquals(0, p.exitValue(), () -> "exit code; stderr:\n" + errText);
        List<String> lines = new ArrayList<>();
        for (String l : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            if (l.contains(marker)) {
                lines.add(l);
            }
        }
        return lines;
    }
}
