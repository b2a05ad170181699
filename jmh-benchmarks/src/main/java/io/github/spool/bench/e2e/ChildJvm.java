package io.github.spool.bench.e2e;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Launches one workload in its own JVM ({@code java -Xms1g -Xmx1g -XX:+UseG1GC -cp benchmarks.jar
 * <workload> <configuration> <args>}), with its stdout connected to the requested {@link Sink},
 * waits for it, reads its result file and verifies its output for count and integrity.
 */
public final class ChildJvm {

    /** JVM options of every child, as in ANCHORS.md. */
    public static final List<String> JVM_OPTIONS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC");

    private static final long TIMEOUT_MINUTES = 15;
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final Path workDir;
    private final List<String> launcher;

    /** @param workDir where result, output and stderr files of the children are kept (deleted after each run) */
    public ChildJvm(Path workDir) {
        this(workDir, List.of());
    }

    /**
     * @param workDir  where result, output and stderr files of the children are kept (deleted after each run)
     * @param launcher the command that runs {@code java}, such as {@code taskset -c 0}; empty: none
     */
    public ChildJvm(Path workDir, List<String> launcher) {
        this.workDir = workDir;
        this.launcher = List.copyOf(launcher);
    }

    /**
     * Runs one child JVM to completion.
     *
     * @param workload      the workload's main class
     * @param configuration the configuration under test
     * @param sink          what its stdout is connected to (used only by {@link Output#STDOUT} configurations)
     * @param args          the workload's {@code key=value} arguments
     * @return the child's results and the verification of its output
     * @throws IOException          if the child cannot be started or its files read
     * @throws InterruptedException if interrupted while waiting
     */
    public Outcome run(Class<?> workload, Configuration configuration, Sink sink, List<String> args)
            throws IOException, InterruptedException {
        return run(workload, configuration, sink, List.of(), args);
    }

    /**
     * Runs one child JVM to completion with JVM options beyond {@link #JVM_OPTIONS}.
     *
     * @param workload      the workload's main class
     * @param configuration the configuration under test
     * @param sink          what its stdout is connected to (used only by {@link Output#STDOUT} configurations)
     * @param extraOptions  JVM options after {@link #JVM_OPTIONS}
     * @param args          the workload's {@code key=value} arguments
     * @return the child's results and the verification of its output
     * @throws IOException          if the child cannot be started or its files read
     * @throws InterruptedException if interrupted while waiting
     */
    public Outcome run(Class<?> workload, Configuration configuration, Sink sink, List<String> extraOptions,
                       List<String> args) throws IOException, InterruptedException {
        int id = RUNS.incrementAndGet();
        Path result = workDir.resolve("result-" + id + ".properties");
        Path stdoutFile = workDir.resolve("stdout-" + id + ".log");
        Path outFile = workDir.resolve("out-" + id + ".log");
        Path stderr = workDir.resolve("stderr-" + id + ".txt");

        List<String> command = new ArrayList<>(launcher);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.addAll(extraOptions);
        command.add("-D" + Subjects.FILE_PROPERTY + "=" + outFile);
        // Give Spool's exit drain the same allowance as logback-async's maxFlushTime (60 s).
        command.add("-Dspool.shutdownTimeoutMillis=60000");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(workload.getName());
        command.add(configuration.name());
        command.addAll(args);
        command.add("result=" + result);

        boolean toStdout = configuration.output() == Output.STDOUT;
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(stderr.toFile());
        if (!toStdout || sink == Sink.DEV_NULL) {
            pb.redirectOutput(new File("/dev/null"));
        } else if (sink == Sink.FILE) {
            pb.redirectOutput(stdoutFile.toFile());
        } else {
            pb.redirectOutput(ProcessBuilder.Redirect.PIPE);
        }
        long begin = System.nanoTime();
        Process process = pb.start();
        PipeReader reader = null;
        Thread readerThread = null;
        if (toStdout && sink.isPipe()) {
            reader = new PipeReader(process.getInputStream(), sink);
            readerThread = new Thread(reader, "pipe-reader-" + id);
            readerThread.start();
        } else {
            process.getOutputStream().close();
        }
        try {
            if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException(configuration.name() + ": child JVM timed out after " + TIMEOUT_MINUTES + " min");
            }
            if (readerThread != null) {
                readerThread.join();
            }
            double wallSeconds = (System.nanoTime() - begin) / 1e9;
            String errors = Files.exists(stderr) ? Files.readString(stderr, StandardCharsets.UTF_8) : "";
            if (process.exitValue() != 0 || !Files.exists(result)) {
                throw new IOException(configuration.name() + ": child JVM exited with " + process.exitValue()
                        + "\n" + tail(errors) + "\ncommand: " + String.join(" ", command));
            }
            Map<String, String> values = read(result);
            Map<Integer, Long> expected = expected(values);
            OutputVerifier.Verdict verdict = null;
            String verification;
            if (configuration.output() == Output.NONE) {
                verification = "n/a (no output by design)";
            } else if (values.containsKey(LoggedLines.KEY) && sink == Sink.FILE) {
                // the server's lines are not EventLine's: count them (issue 34)
                verdict = LoggedLines.verify(stdoutFile, Long.parseLong(values.get(LoggedLines.KEY)));
                verification = verdict.summary();
            } else if (configuration.writesJson()) {
                // JSON anchors are not verified: only Spool's lines are held to the event (issue 33)
                if (configuration.role() == Role.SPOOL && sink == Sink.FILE) {
                    verdict = new JsonOutputVerifier().verify(stdoutFile, expected);
                    verification = verdict.summary();
                } else {
                    verification = "n/a (JSON anchor)";
                }
            } else if (configuration.output() == Output.FILE) {
                verdict = new OutputVerifier().acceptFile(outFile).finish(expected);
                verification = verdict.summary();
            } else if (sink == Sink.DEV_NULL) {
                verification = "n/a (/dev/null)";
            } else if (sink == Sink.FILE) {
                verdict = new OutputVerifier().acceptFile(stdoutFile).finish(expected);
                verification = verdict.summary();
            } else {
                verdict = reader.verifier().finish(expected);
                verification = verdict.summary();
            }
            return new Outcome(values, verdict, verification, errors.strip(), wallSeconds);
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
            for (Path p : List.of(result, stdoutFile, outFile, stderr)) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static Map<Integer, Long> expected(Map<String, String> values) {
        Map<Integer, Long> expected = new HashMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith("produced.")) {
                expected.put(Integer.parseInt(k.substring("produced.".length())), Long.parseLong(v));
            }
        });
        return expected;
    }

    private static Map<String, String> read(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        Map<String, String> values = new LinkedHashMap<>();
        p.stringPropertyNames().stream().sorted().forEach(k -> values.put(k, p.getProperty(k)));
        return values;
    }

    private static String tail(String text) {
        String[] lines = text.split("\n");
        int from = Math.max(0, lines.length - 20);
        return String.join("\n", java.util.Arrays.copyOfRange(lines, from, lines.length));
    }

    /**
     * What one child run produced.
     *
     * @param values       the child's {@code key=value} results
     * @param verdict      the verification of its output, or {@code null} where nothing can be verified
     * @param verification one-line verification summary for the report
     * @param stderr       what the child printed on stderr (framework status messages), stripped
     * @param wallSeconds  the child's wall time, JVM start and exit included
     */
    public record Outcome(Map<String, String> values, OutputVerifier.Verdict verdict, String verification,
                          String stderr, double wallSeconds) {

        /** @return whether the output was verified complete, or could not be verified by design */
        public boolean acceptable() {
            return verdict == null || verdict.ok();
        }

        /**
         * @param key a result key
         * @return its value as a number
         * @throws IllegalStateException if the child did not report it
         */
        public double number(String key) {
            String v = values.get(key);
            if (v == null) {
                throw new IllegalStateException("the child reported no " + key + ": " + values);
            }
            return Double.parseDouble(v);
        }
    }
}
