package io.github.spool.logback.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A minimal Spring Boot application ({@link SpringMain}) in a forked JVM with
 * {@code spool-profile-logback-spring.xml} (named by {@code logging.config}, so that other tests get Spring Boot's
 * default configuration): the {@code springProfile} "spool" routes everything through
 * SpoolAppender with Spring Boot's own {@code CONSOLE_LOG_PATTERN} ({@code %clr}, {@code %esb},
 * {@code %wEx} included) and, as the oracle, through a logback FileAppender with
 * PatternLayoutEncoder and the same pattern. Standard output must equal the oracle byte for byte.
 */
class SpringBootIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void springBootConsolePatternThroughSpoolEqualsLogbacksOwnOutput() throws Exception {
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Path reference = dir.resolve("reference.log");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-Dspool.reference.file=" + reference,
                "-cp", System.getProperty("java.class.path"), SpringMain.class.getName(), "2000", "--spring.profiles.active=spool",
                "--logging.config=classpath:spool-profile-logback-spring.xml");
        pb.redirectOutput(out.toFile());
        pb.redirectError(err.toFile());
        Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("Spring Boot JVM did not exit within 90 s");
        }
        assertEquals(0, p.exitValue(), () -> "stderr: " + read(err));
        byte[] expected = Files.readAllBytes(reference);
        byte[] actual = Files.readAllBytes(out);
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertTrue(lines.stream().anyMatch(l -> l.contains("OrderService") && l.endsWith("seq=1999 " + LoadMain.PAYLOAD)),
                () -> "last event missing; stdout starts with: " + lines.subList(0, Math.min(5, lines.size())) + "\nstderr: " + read(err));
        assertTrue(lines.stream().anyMatch(l -> l.contains("java.lang.IllegalStateException: card declined")), "exception missing");
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("NOT-SPOOL")), "springProfile 'spool' not applied");
        assertEquals(new String(expected, StandardCharsets.UTF_8), new String(actual, StandardCharsets.UTF_8));
        assertArrayEquals(expected, actual);
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
