// SPDX-License-Identifier: Apache-2.0
package io.github.spool.docs;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs a documentation snippet's configuration in a forked JVM (Spool writes fd 1 and fd 2
 * directly, so only another process sees where its lines go) and checks that a logged line
 * arrived where the snippet says: standard output, standard error or a file.
 *
 * @param out  the child's standard output
 * @param err  the child's standard error
 * @param dir  the child's working directory (relative file names in the snippet land here)
 * @param what the snippet, for messages
 */
public record SnippetRun(String out, String err, Path dir, String what) {

    /**
     * @param main    the child's main class (the adapter's test classpath is used)
     * @param dir     an empty working directory
     * @param jvmArgs extra JVM options
     * @param args    the main class's arguments
     * @param what    the snippet, for messages
     * @return the finished run; asserts that it ended, with exit status 0
     * @throws Exception if the child cannot be run
     */
    public static SnippetRun fork(Class<?> main, Path dir, List<String> jvmArgs, List<String> args, String what) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC"));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(args);
        Path out = dir.resolve("child.out");
        Path err = dir.resolve("child.err");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean ended = p.waitFor(90, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }
        SnippetRun run = new SnippetRun(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8), dir, what);
        assertTrue(ended, () -> what + ": the child hung\n" + run.err);
        assertEquals(0, p.exitValue(), () -> what + ": the child failed\nstdout:\n" + head(run.out) + "\nstderr:\n" + head(run.err));
        return run;
    }

    /**
     * Asserts that a line holding {@code marker} arrived at {@code target}.
     *
     * @param target {@code "stdout"}, {@code "stderr"} or a file name (relative to the working directory)
     * @param marker text of the logged line
     * @throws Exception if a file cannot be read
     */
    public void assertArrived(String target, String marker) throws Exception {
        String text;
        if (target.equals("stdout")) {
            text = out;
        } else if (target.equals("stderr")) {
            text = err;
        } else {
            Path f = dir.resolve(target);
            assertTrue(Files.isRegularFile(f), () -> what + ": no file " + target + " was written");
            text = Files.readString(f, StandardCharsets.UTF_8);
        }
        String shown = text;
        assertTrue(text.lines().anyMatch(l -> l.contains(marker)), () -> what + ": the line did not arrive at " + target
                + "\nthere:\n" + head(shown) + "\nstderr:\n" + head(err));
    }

    private static String head(String s) {
        return s.length() > 4000 ? s.substring(0, 4000) + "..." : s;
    }
}
