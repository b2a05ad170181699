package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logging from inside an argument's {@code toString()} (called while the outer event is being
 * formatted): no deadlock, nothing lost, every line intact. A nested encode on the same thread gets
 * its own buffers ({@code SpoolLayout.acquireScratch}, {@code GrowableDestination.busy}).
 */
class ReentrantLoggingTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(30)
    void loggingFromToStringNeitherDeadlocksNorCorruptsTheOuterLine() throws Exception {
        Path file = dir.resolve("reentrant.log");
        System.setProperty("spool.reentrant.file", file.toString());
        URI config = ReentrantLoggingTest.class.getResource("/reentrant.xml").toURI();
        LoggerContext context = new LoggerContext("reentrant", null, config);
        try {
            context.start();
            Logger logger = context.getLogger("reentrant");
            Object chatty = new Object() {
                @Override
                public String toString() {
                    logger.info("inner");
                    return "argument";
                }
            };
            for (int i = 0; i < 100; i++) {
                logger.info("outer {} {}", i, chatty);
            }
        } finally {
            context.stop();
            System.clearProperty("spool.reentrant.file");
        }
        List<String> lines = Files.readAllLines(file);
        assertEquals(200, lines.size(), "every outer and inner event: " + lines);
        for (int i = 0; i < 100; i++) {
            // The inner event completes first: it is logged while the outer one is being formatted.
            assertEquals("inner", lines.get(2 * i));
            assertEquals("outer " + i + " argument", lines.get(2 * i + 1));
        }
    }
}
