package io.github.spool.undertow.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spring Boot 3.5.7 with {@code spring-boot-starter-undertow} in a forked JVM
 * ({@link SpringAccessLogMain}), configured only through {@code server.undertow.accesslog.*}: the
 * access log must go to {@code dir/prefix + suffix} through Spool, with the configured pattern,
 * one complete line per request and no line from Undertow's own receiver.
 */
class SpringBootAccessLogTest {

    private static final int REQUESTS = 10_000;
    private static final Pattern LINE = Pattern.compile(
            "127\\.0\\.0\\.1 \"GET /r/(\\d+) HTTP/1\\.1\" 200 2 \\[\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d [+-]\\d{4}\\] "
            + "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}");

    @TempDir
    Path dir;

    @Test
    void accessLogPropertiesGoThroughSpool() throws Exception {
        final Path logs = dir.resolve("logs");
        final Path out = dir.resolve("stdout.txt");
        final Path err = dir.resolve("stderr.txt");
        final String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        final ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), SpringAccessLogMain.class.getName(), String.valueOf(REQUESTS),
                "--server.port=0", "--server.address=127.0.0.1",
                "--server.undertow.accesslog.enabled=true",
                "--server.undertow.accesslog.dir=" + logs,
                "--server.undertow.accesslog.prefix=spool-access.",
                "--server.undertow.accesslog.suffix=txt",
                "--server.undertow.accesslog.pattern=%h \"%r\" %s %b %{spoolTime} %{spoolTime,yyyy-MM-dd HH:mm:ss.SSS}",
                "--spring.main.banner-mode=off");
        pb.redirectOutput(out.toFile());
        pb.redirectError(err.toFile());
        final Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("Spring Boot JVM did not exit within 90 s");
        }
        final String stdout = Files.readString(out);
        assertEquals(0, p.exitValue(), () -> "stdout: " + stdout + "\nstderr: " + read(err));
        assertTrue(stdout.contains("served=" + REQUESTS + "\n"), stdout);
        // The server may have handled a request twice (the client's retry of a GET whose connection
        // failed): every request it handled is one access-log line, written and counted.
        final Matcher h = Pattern.compile("handled=(\\d+)\n").matcher(stdout);
        assertTrue(h.find(), stdout);
        final int handled = Integer.parseInt(h.group(1));
        assertTrue(handled >= REQUESTS, stdout);
        assertTrue(stdout.contains("written=" + handled + "\n"), stdout);
        assertTrue(stdout.contains("lost=0\n"), stdout);
        // The access log's own writer nap, not the application logs' 5 ms.
        assertTrue(stdout.contains("nap=" + io.github.spool.undertow.SpoolAccessLogReceiver.WRITER_NAP_MICROS + "\n"), stdout);

        assertEquals(List.of(logs.resolve("spool-access.txt")), list(logs), "only the file the properties name");
        final List<String> lines = Files.readAllLines(logs.resolve("spool-access.txt"), StandardCharsets.UTF_8);
        assertEquals(handled, lines.size(), "one line per request handled, none from DefaultAccessLogReceiver");
        final Set<Integer> seen = new HashSet<>();
        for (String line : lines) {
            final Matcher m = LINE.matcher(line);
            assertTrue(m.matches(), () -> "malformed line: " + line);
            seen.add(Integer.parseInt(m.group(1)));
        }
        assertEquals(REQUESTS, seen.size(), "every request logged (a retried one twice)");
        assertFalse(seen.contains(REQUESTS));
    }

    private static List<Path> list(Path d) throws Exception {
        try (var s = Files.list(d)) {
            return s.sorted().toList();
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
