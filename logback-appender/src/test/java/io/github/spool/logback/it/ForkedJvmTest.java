package io.github.spool.logback.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.spool.soak.ChildClassPath;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs real {@code logback.xml} files in forked JVMs ({@link LoadMain}) with standard output
 * redirected, and checks the output line by line: every line intact, every event present exactly
 * once, per-thread order kept. Only non-timing facts are asserted.
 */
class ForkedJvmTest {

    private static final String SPOOL_ENCODER = "<encoder class=\"io.github.spool.logback.SpoolEncoder\"><pattern>%thread %msg%n</pattern></encoder>";
    private static final String PATTERN_ENCODER = "<encoder><pattern>%thread %msg%n</pattern><charset>UTF-8</charset></encoder>";

    @TempDir
    Path dir;

    @Test
    @DisplayName("4 threads x 250,000 events to stdout (redirected to a file): exactly 1,000,000 intact lines, per-thread order")
    void millionEventsToStdout() throws Exception {
        Path out = run(config(SPOOL_ENCODER, "<bufferSize>256KB</bufferSize><maxBufferSize>8MB</maxBufferSize>", false), 4, 250_000, "stop");
        verify(out, 4, 250_000);
    }

    /**
     * Relies on core's JVM shutdown hook ({@code ShutdownDrain}) draining every open Spool: logback
     * itself stops nothing at exit here, and the writer thread is a daemon. If this fails, suspect
     * core's hook first.
     */
    @Test
    @DisplayName("exit without LoggerContext.stop(): every line present (core's shutdown hook)")
    void exitWithoutStopLosesNothing() throws Exception {
        Path out = run(config(SPOOL_ENCODER, "", false), 4, 50_000, "exit");
        verify(out, 4, 50_000);
    }

    @Test
    @DisplayName("System.exit with logback's shutdownHook and PatternLayoutEncoder: every line present")
    void logbackShutdownHookDrains() throws Exception {
        Path out = run(config(PATTERN_ENCODER, "", true), 2, 50_000, "system-exit");
        verify(out, 2, 50_000);
    }

    @Test
    @DisplayName("stdout into a slow pipe reader: no event lost, order kept")
    void slowPipeReaderLosesNothing() throws Exception {
        Path config = config(SPOOL_ENCODER, "<overflowPolicy>BLOCK</overflowPolicy>", false);
        Process p = start(config, 4, 25_000, "stop", ProcessBuilder.Redirect.PIPE);
        Path out = dir.resolve("slow.out");
        Thread reader = new Thread(() -> copySlowly(p.getInputStream(), out), "slow-reader");
        reader.start();
        awaitExit(p);
        reader.join();
        verify(out, 4, 25_000);
    }

    /** Reads 16 KiB, then pauses 5 ms: slower than the producers, so the pipe fills. */
    private static void copySlowly(InputStream in, Path out) {
        byte[] buf = new byte[16 * 1024];
        try (OutputStream os = Files.newOutputStream(out)) {
            int n;
            while ((n = in.read(buf)) > 0) {
                os.write(buf, 0, n);
                Thread.sleep(5); // load shaping, not synchronisation
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Path config(String encoder, String settings, boolean shutdownHook) throws IOException {
        return LogbackRig.writeChildConfig(Files.createTempFile(dir, "logback", ".xml"),
                "  <statusListener class=\"ch.qos.logback.core.status.OnErrorConsoleStatusListener\"/>\n"
                        + (shutdownHook ? "  <shutdownHook/>\n" : ""),
                "SPOOL", "    <target>System.out</target>\n    " + settings + "\n    " + encoder + "\n");
    }

    private Path run(Path config, int threads, int perThread, String mode) throws Exception {
        Path out = dir.resolve("stdout-" + mode + ".txt");
        Process p = start(config, threads, perThread, mode, ProcessBuilder.Redirect.to(out.toFile()));
        awaitExit(p);
        return out;
    }

    private Process start(Path config, int threads, int perThread, String mode, ProcessBuilder.Redirect stdout) throws IOException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-Dlogback.configurationFile=" + config,
                "-cp", ChildClassPath.withoutSpring(), LoadMain.class.getName(),
                Integer.toString(threads), Integer.toString(perThread), mode));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectOutput(stdout);
        pb.redirectError(dir.resolve("stderr-" + mode + ".txt").toFile());
        return pb.start();
    }

    private void awaitExit(Process p) throws Exception {
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("forked JVM did not exit within 90 s");
        }
        assertEquals(0, p.exitValue(), () -> "forked JVM failed; stderr:\n" + stderr());
    }

    private String stderr() {
        StringBuilder sb = new StringBuilder();
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files.filter(f -> f.getFileName().toString().startsWith("stderr"))::iterator) {
                sb.append(Files.readString(f));
            }
        } catch (IOException e) {
            sb.append(e);
        }
        return sb.toString();
    }

    /** Every line is {@code producer-<t> seq=<n> <payload>}; per thread n runs 0, 1, 2, ... perThread-1. */
    private void verify(Path out, int threads, int perThread) throws IOException {
        int[] next = new int[threads];
        long lines = 0;
        String suffix = " " + LoadMain.PAYLOAD;
        try (BufferedReader r = Files.newBufferedReader(out, StandardCharsets.UTF_8)) {
            for (String read = r.readLine(); read != null; read = r.readLine()) {
                final String line = read;
                lines++;
                int sp = line.indexOf(' ');
                assertTrue(line.startsWith("producer-") && sp > 9 && line.startsWith(" seq=", sp) && line.endsWith(suffix),
                        () -> "damaged line: " + line);
                int t = Integer.parseInt(line.substring(9, sp));
                int seq = Integer.parseInt(line.substring(sp + 5, line.length() - suffix.length()));
                int expected = next[t];
                assertEquals(expected, seq, () -> "thread " + t + " out of order or lost an event: " + line);
                next[t]++;
            }
        }
        for (int t = 0; t < threads; t++) {
            assertEquals(perThread, next[t], "events of producer-" + t + "; stderr:\n" + stderr());
        }
        assertEquals((long) threads * perThread, lines);
    }
}
