package io.github.spool.undertow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM that exits without closing its receiver loses no access-log line (Spool's shutdown hook). */
class ExitDrainTest {

    private static final int LINES = 50_000;
    private static final Pattern LINE = Pattern.compile(
            "127\\.0\\.0\\.1 - - \\[23/Nov/2026:10:00:00 \\+0000\\] \"GET /r/(\\d+) HTTP/1\\.1\" 200 2");

    @Test
    void exitDrainsEveryLine(@TempDir Path dir) throws Exception {
        final Path file = dir.resolve("access.log");
        final Path err = dir.resolve("stderr.txt");
        final String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        final Process p = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                ExitDrainMain.class.getName(), file.toString(), String.valueOf(LINES))
                .redirectErrorStream(true).redirectOutput(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("forked JVM did not exit within 60 s");
        }
        assertEquals(0, p.exitValue(), () -> read(err));
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(LINES, lines.size());
        final BitSet seen = new BitSet(LINES);
        for (String line : lines) {
            final Matcher m = LINE.matcher(line);
            assertTrue(m.matches(), () -> "malformed line: " + line);
            seen.set(Integer.parseInt(m.group(1)));
        }
        assertEquals(LINES, seen.cardinality());
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
