// SPDX-License-Identifier: Apache-2.0
package io.github.spool.bench.suite;

import io.github.spool.bench.undertow.AccessLogServerBench;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Undertow access-log scenario (issue 14): {@link AccessLogServerBench} in a child JVM, which
 * runs each set-up in a JVM of its own, rounds interleaved — no access log, Undertow's
 * {@code DefaultAccessLogReceiver} with {@code %t}, {@code SpoolAccessLogReceiver} with
 * {@code %{spoolTime}}, and a receiver that drops the line (with either time) as the floor —
 * flat out and at a quarter of the no-log rate. The shape that makes runs repeatable on 2 vCPUs:
 * one Undertow I/O thread serving 2 keep-alive connections, 20 µs of handler work per request.
 * Writes the bench's tables to {@code accesslog.md}; a receiver whose file does not hold exactly
 * one line per request fails the suite.
 *
 * <p>Quick: 1 round, 2 s warm-up and 2 s measured per run. Full: 5 rounds, 5 s and 5 s.
 */
public final class AccessLogScenario implements Scenario {

    /** The scenario's name in {@link Plan#ALL_SCENARIOS}. */
    public static final String NAME = "accesslog";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void run(Context context) throws InterruptedException {
        boolean full = context.plan().mode().equals("full");
        int rounds = full ? 5 : 1;
        int seconds = full ? 5 : 2;
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        for (String setting : List.of("ioThreads=1", "clients=2", "workMicros=20", "rounds=" + rounds,
                "warmupSeconds=" + seconds, "measureSeconds=" + seconds)) {
            command.add("-D" + setting);
        }
        command.addAll(AccessLogServerBench.spoolSettings()); // passed on again to every run
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(AccessLogServerBench.class.getName());
        String label = String.format("accesslog, %d round(s) of 5 set-ups x 2 loads, %d s + %d s per run", rounds, seconds,
                seconds);
        context.progress().say(label);
        try {
            Path stdout = Files.createTempFile("spool-accesslog-", ".out");
            Path stderr = Files.createTempFile("spool-accesslog-", ".err");
            try {
                Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
                if (!p.waitFor(30, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                    throw new IOException("timed out");
                }
                String out = Files.readString(stdout, StandardCharsets.UTF_8);
                if (p.exitValue() != 0) {
                    throw new IOException("exit " + p.exitValue() + ": "
                            + Files.readString(stderr).lines().limit(20).toList());
                }
                Files.createDirectories(context.outDir());
                Files.writeString(context.outDir().resolve("accesslog.md"), out, StandardCharsets.UTF_8);
                context.progress().say("\n" + out);
                for (String line : out.split("\n")) {
                    if (line.contains("| NO: ")) {
                        context.fail(label + ": a log did not hold one line per request: " + line);
                    }
                }
            } finally {
                Files.deleteIfExists(stdout);
                Files.deleteIfExists(stderr);
            }
        } catch (IOException | RuntimeException e) {
            context.fail(label + ": " + e.getMessage());
        }
    }
}
