package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.dropin.BlockedPath;
import io.github.spool.dropin.StreamCapture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.message.SimpleMessage;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The appender in-process: both encode paths, draining stop, status messages on the StatusLogger. */
class SpoolAppenderTest {

    @TempDir
    Path dir;

    private static LogEvent event(String text) {
        return Log4jLogEvent.newBuilder().setLoggerName("a.b.C").setLevel(Level.WARN).setThreadName("main")
                .setMessage(new SimpleMessage(text)).build();
    }

    @Test
    void spoolLayoutFastPathAndGenericLayoutPathWriteTheSameLinesAndStopDrains() throws Exception {
        String pattern = "%-5level %c{1} [%t] %m%n";
        Path fast = dir.resolve("fast.log");
        Path generic = dir.resolve("generic.log");
        SpoolAppender a = SpoolAppender.newBuilder().setName("fast").setFileName(fast.toString())
                .setLayout(SpoolLayout.newLayout(pattern, null, true, null)).build();
        SpoolAppender b = SpoolAppender.newBuilder().setName("generic").setFileName(generic.toString())
                .setLayout(PatternLayout.newBuilder().setPattern(pattern).setConfiguration(new DefaultConfiguration())
                        .build()).build();
        a.start();
        b.start();
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            big.append((char) ('a' + i % 26));
        }
        for (int i = 0; i < 1000; i++) {
            LogEvent e = event(i == 500 ? big.toString() : "line " + i + " üñï€ \uD83D\uDE00");
            a.append(e);
            b.append(e);
        }
        assertTrue(a.stop(5, TimeUnit.SECONDS));
        assertTrue(b.stop(5, TimeUnit.SECONDS));
        byte[] fastBytes = Files.readAllBytes(fast);
        assertEquals(new String(Files.readAllBytes(generic), StandardCharsets.UTF_8),
                new String(fastBytes, StandardCharsets.UTF_8));
        List<String> lines = Files.readAllLines(fast);
        assertEquals(1000, lines.size());
        assertEquals("WARN  C [main] line 0 üñï€ \uD83D\uDE00", lines.get(0));
        assertEquals(100_000 + "WARN  C [main] ".length(), lines.get(500).length(), "a large record is kept whole");
    }

    /**
     * Built in code, as a program would: a file that cannot be created leaves the appender started
     * on stderr (here followed into a capture), and appends reach it; the shared contract checks the
     * switch back to the file ({@link SettingsTest}).
     */
    @Test
    void aFileThatCannotBeOpenedStartsTheAppenderOnStderr() throws Exception {
        BlockedPath blocked = BlockedPath.under(dir);
        SpoolAppender a = SpoolAppender.newBuilder().setName("nowhere").setFileName(blocked.file().toString())
                .setFollow("true").setLayout(SpoolLayout.newLayout("%m%n", null, true, null)).build();
        assertNotNull(a);
        try (StreamCapture err = StreamCapture.stderr()) {
            a.start();
            assertTrue(a.isStarted());
            a.append(event("kept on stderr"));
            assertEquals(List.of("kept on stderr"), err.awaitLines("kept on stderr"::equals, 1, Duration.ofSeconds(20)));
            assertTrue(a.stop(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void sinkFaultsReachTheStatusLogger() throws Exception {
        Path devFull = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(devFull), "needs /dev/full");
        List<StatusData> seen = new CopyOnWriteArrayList<>();
        StatusListener listener = new StatusListener() {
            @Override
            public void log(StatusData data) {
                seen.add(data);
            }

            @Override
            public Level getStatusLevel() {
                return Level.WARN;
            }

            @Override
            public void close() {
            }
        };
        StatusLogger.getLogger().registerListener(listener);
        try {
            SpoolAppender a = SpoolAppender.newBuilder().setName("devfull-appender").setFileName(devFull.toString())
                    .setLayout(SpoolLayout.newLayout("%m%n", null, true, null)).build();
            assertNotNull(a);
            a.start();
            for (int i = 0; i < 100; i++) {
                a.append(event("doomed " + i)); // no exception reaches the caller
            }
            a.stop(5, TimeUnit.SECONDS);
        } finally {
            StatusLogger.getLogger().removeListener(listener);
        }
        assertTrue(seen.stream().anyMatch(d -> d.getMessage().getFormattedMessage().contains("devfull-appender")),
                "a status message naming the appender: " + seen);
    }
}
