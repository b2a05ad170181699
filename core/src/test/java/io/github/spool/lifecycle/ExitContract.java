// SPDX-License-Identifier: Apache-2.0
package io.github.spool.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.soak.ChildClassPath;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM's exit as applications run it, the same for each adapter (issue 31, items 3 and 6; the
 * exit warning of issue 32): lines logged from the application's own shutdown hook after Spool's
 * hook has drained are written, in order, as the framework's own console appender writes them; so
 * are lines of a framework first started during the exit; and with stdout stalled, three appenders
 * end by one exit deadline for the JVM — not one per appender — and say on standard error that
 * lines were lost, even where the framework keeps its status messages to itself. An adapter's test
 * extends this, names its program ({@code ExitMain}, calling {@link ExitChild#run}) and writes its
 * configuration. Test support.
 */
public abstract class ExitContract {

    /** The exit deadline the stalled-exit child runs with ({@code spool.shutdownTimeoutMillis}). */
    protected static final long EXIT_DEADLINE_MILLIS = 3_000;

    @TempDir
    protected Path dir;

    /** @return the adapter's program, which calls {@link ExitChild#run} */
    protected abstract Class<?> main();

    /**
     * Writes the framework's configuration for {@code mode}: Spool appenders on standard output with
     * the layout {@code %m%n} — one named {@code out}, and for {@code stalled-exit} three ({@code out},
     * {@code out2}, {@code out3}) and the framework's own shutdown hook on (it stops them one after
     * another); otherwise the framework never stops them (logback's default; log4j2's
     * {@code shutdownHook="disable"}).
     *
     * @param dir  where to write it
     * @param mode the {@link ExitChild} mode
     * @return the JVM options that make the framework read it (and start during the exit, for
     *         {@code late-start}, where the framework needs that)
     * @throws Exception if it cannot be written
     */
    protected abstract List<String> configure(Path dir, String mode) throws Exception;

    private Process fork(String mode, ProcessBuilder.Redirect out, List<String> extra) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m"));
        cmd.addAll(configure(dir, mode));
        cmd.addAll(extra);
        cmd.addAll(List.of("-cp", ChildClassPath.withoutSpring(), main().getName(), mode));
        return new ProcessBuilder(cmd).redirectOutput(out).redirectError(dir.resolve(mode + ".err").toFile()).start();
    }

    private List<String> runToEnd(String mode) throws Exception {
        Path out = dir.resolve(mode + ".out");
        Process p = fork(mode, ProcessBuilder.Redirect.to(out.toFile()), List.of());
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String err = Files.readString(dir.resolve(mode + ".err"));
        assertTrue(ended, () -> mode + ": the child hung\n" + err);
        assertEquals(0, p.exitValue(), () -> mode + ": " + err);
        return Files.readAllLines(out, StandardCharsets.UTF_8);
    }

    private static List<String> numbered(String prefix, int n) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(prefix + " " + i);
        }
        return l;
    }

    @Test
    void linesLoggedFromTheApplicationsShutdownHookAreWrittenInOrder() throws Exception {
        List<String> lines = runToEnd("hook-lines");
        String err = Files.readString(dir.resolve("hook-lines.err"));
        assertTrue(err.contains("spool-hook-ended"), () -> "the app's hook ran after Spool's: " + err);
        List<String> expected = numbered("main", 100);
        expected.addAll(numbered("hook", 1_000));
        assertLines(expected, lines);
    }

    @Test
    void aFrameworkFirstStartedDuringTheExitWritesEveryLine() throws Exception {
        assertLines(numbered("hook", 1_000), runToEnd("late-start"));
    }

    /**
     * Issue 31, item 9, end to end: four threads log flat out through the exit, one calls
     * {@code System.exit} itself. They never let the exit lane go quiet, so Spool's hook holds the
     * exit to its deadline (2 s here) and gives up what is queued then. Each thread's output must
     * be a gap-free prefix of its sequence: the lane gives records up only from some point of each
     * thread's on (it once wrote records queued past ones a descheduled sweep had marked given up:
     * holes of 250–1,800 lines).
     */
    @Test
    void systemExitFromAProducerLeavesEveryThreadAGapFreePrefix() throws Exception {
        Path out = dir.resolve("exit-from-producer.out");
        Process p = fork("exit-from-producer", ProcessBuilder.Redirect.to(out.toFile()), List.of("-Dspool.shutdownTimeoutMillis=2000"));
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String err = readQuietly(dir.resolve("exit-from-producer.err"));
        assertTrue(ended, () -> "the child hung\n" + err);
        assertEquals(3, p.exitValue(), err);
        long[] next = new long[4];
        for (String l : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            assertTrue(l.matches("t[0-3] \\d+"), () -> "torn or foreign line: " + l);
            int t = l.charAt(1) - '0';
            long seq = Long.parseLong(l.substring(3));
            assertEquals(next[t], seq, () -> "thread " + t + ": gap or reorder at " + l);
            next[t]++;
        }
        assertTrue(next[0] > 50_000, () -> "thread 0 logged up to its exit call: " + next[0]);
    }

    /** Compares line lists, naming the first difference rather than printing both lists whole. */
    private static void assertLines(List<String> expected, List<String> actual) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            int at = i;
            assertEquals(expected.get(i), actual.get(i), () -> "line " + at);
        }
        assertEquals(expected.size(), actual.size(), () -> "lines written; the last: "
                + (actual.isEmpty() ? "none" : actual.get(actual.size() - 1)));
    }

    @Test
    void aStalledStdoutHoldsTheExitOneDeadlineAndTheLossIsSaid() throws Exception {
        Process p = fork("stalled-exit", ProcessBuilder.Redirect.PIPE,
                List.of("-Dspool.shutdownTimeoutMillis=" + EXIT_DEADLINE_MILLIS));
        // Nobody reads standard output until the child has ended: the pipe fills, the writers block.
        Path err = dir.resolve("stalled-exit.err");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(err).contains("LOGGED")) {
            assertTrue(p.isAlive() && System.nanoTime() - deadline < 0, () -> "never logged: " + readQuietly(err));
            p.waitFor(5, TimeUnit.MILLISECONDS);
        }
        long logged = System.nanoTime();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        long exitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - logged);
        if (!ended) {
            p.destroyForcibly();
        }
        try (InputStream stdout = p.getInputStream()) {
            stdout.transferTo(java.io.OutputStream.nullOutputStream());
        }
        String text = Files.readString(err);
        assertTrue(ended, "the child hung");
        System.out.println("figures " + getClass().getSimpleName() + " stalled-exit: exit took " + exitMillis
                + " ms with a deadline of " + EXIT_DEADLINE_MILLIS + " ms for three appenders");
        // One deadline for the JVM, plus the JVM's own start of the exit and its halt.
        assertTrue(exitMillis < EXIT_DEADLINE_MILLIS + 5_000, () -> "exit took " + exitMillis + " ms:\n" + text);
        assertTrue(text.contains("not drained within") || text.contains("gave up at the stop deadline"),
                () -> "the loss is said on standard error:\n" + text);
    }

    private static String readQuietly(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
