package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.spool.AppendResult;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records log4j2 still hands the appender after core's shutdown hook closed its ring are written
 * by {@link LateWriter}, after everything the ring held and in order: to the current
 * {@code System.out} with {@code follow}, to the file otherwise.
 */
class LateWriterTest {

    @TempDir
    Path dir;

    private static byte[] line(String s) {
        return (s + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void withFollowLateRecordsGoToTheCurrentSystemOutAfterTheRingsLines() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        try {
            SpoolConfig config = SpoolConfig.builder("late-follow").target(SpoolConfig.Target.STDOUT).follow(true).build();
            Spool spool = Spool.start(config);
            for (int i = 0; i < 100; i++) {
                byte[] b = line("ring " + i);
                assertEquals(AppendResult.ACCEPTED, spool.append(b, 0, b.length, Severity.INFO));
            }
            spool.stop(10, TimeUnit.SECONDS); // as core's shutdown hook does
            byte[] refused = line("refused");
            assertEquals(AppendResult.CLOSED, spool.append(refused, 0, refused.length, Severity.INFO));
            LateWriter late = new LateWriter(spool, config);
            for (int i = 0; i < 3; i++) {
                byte[] b = line("late " + i);
                late.write(b, 0, b.length);
            }
            late.close();
        } finally {
            System.setOut(original);
        }
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            expected.append("ring ").append(i).append('\n');
        }
        expected.append("late 0\nlate 1\nlate 2\n");
        assertEquals(expected.toString(), captured.toString(StandardCharsets.UTF_8));
    }

    @Test
    void withoutFollowLateRecordsAreAppendedToTheFile() throws Exception {
        Path file = dir.resolve("app.log");
        SpoolConfig config = SpoolConfig.builder("late-file").file(file).build();
        Spool spool = Spool.start(config);
        byte[] first = line("ring");
        assertEquals(AppendResult.ACCEPTED, spool.append(first, 0, first.length, Severity.INFO));
        spool.stop(10, TimeUnit.SECONDS);
        LateWriter late = new LateWriter(spool, config);
        byte[] b = line("late");
        late.write(b, 0, b.length);
        late.close();
        byte[] after = line("after close");
        late.write(after, 0, after.length); // nothing more after the appender's own stop
        assertEquals("ring\nlate\n", Files.readString(file));
    }
}
