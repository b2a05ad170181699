package io.github.spool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A forked JVM logs to stdout and returns from main without stopping anything: nothing is lost. */
class ExitWithoutStopTest {
    @TempDir
    Path dir;

    /** The forked program. */
    public static final class Main {
        public static void main(String[] args) throws Exception {
            int n = Integer.parseInt(args[0]);
            Spool spool = Spool.start(SpoolConfig.builder("exit-test").build()); // stdout
            for (int i = 0; i < n; i++) {
                byte[] b = String.format("line %07d %s%n", i, "z".repeat(80)).getBytes();
                spool.append(b, 0, b.length, Severity.INFO);
            }
            // No stop: returning from main leaves only daemon threads; the shutdown hook drains.
        }
    }

    @Test
    void returnFromMainWithoutStopLosesNothing() throws Exception {
        Path out = dir.resolve("stdout.txt");
        int n = 100_000;
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(), String.valueOf(n))
                .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child exits");
        assertEquals(0, p.exitValue());
        List<String> lines = Files.readAllLines(out);
        assertEquals(n, lines.size());
        for (int i = 0; i < n; i++) {
            assertTrue(lines.get(i).startsWith(String.format("line %07d ", i)), lines.get(i));
        }
    }
}
