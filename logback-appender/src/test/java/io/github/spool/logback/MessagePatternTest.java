package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The cached message patterns of {@link DirectMessage}: a pattern logged again and again (the same
 * {@code String}, as from a call site) goes through the uncached path, then is compiled, then is
 * served from the cache, and every one of those lines is what logback's own encoder prints.
 * Seeded; patterns with surrogates, stray braces, escapes and too few or too many arguments.
 */
class MessagePatternTest {

    @Test
    void cachedPatternsPrintWhatLogbackPrints() {
        LoggerContext lc = new LoggerContext();
        PatternLayoutEncoder reference = new PatternLayoutEncoder();
        reference.setContext(lc);
        reference.setPattern("%msg|%n");
        reference.setCharset(StandardCharsets.UTF_8);
        reference.start();
        SpoolEncoder spool = new SpoolEncoder();
        spool.setContext(lc);
        spool.setPattern("%msg|%n");
        spool.start();
        assertTrue(spool.isStarted());

        Random rnd = new Random(Long.getLong("spool.test.seed", 0xCAC4EL));
        String[] patterns = new String[3_000]; // more than the cache holds: evictions and collisions
        for (int i = 0; i < patterns.length; i++) {
            patterns[i] = SpoolEncoderDifferentialTest.Gen.messagePattern(rnd);
        }
        int compared = 0;
        for (int round = 0; round < 4; round++) {
            for (String pattern : patterns) {
                for (int k = 0; k < 3; k++) {
                    LoggingEvent e = new LoggingEvent();
                    e.setLoggerContext(lc);
                    e.setLevel(Level.INFO);
                    e.setLoggerName("x");
                    e.setThreadName("t");
                    e.setMDCPropertyMap(Collections.emptyMap());
                    e.setMessage(pattern);
                    e.setArgumentArray(SpoolEncoderDifferentialTest.Gen.arguments(rnd));
                    byte[] actual = spool.encode(e); // first: logback then caches its own message
                    byte[] expected = reference.encode(e);
                    assertArrayEquals(expected, actual, () -> "pattern " + SpoolEncoderDifferentialTest.Gen.escape(pattern)
                            + ", event " + SpoolEncoderDifferentialTest.Gen.describe(e)
                            + "\nexpected " + SpoolEncoderDifferentialTest.Gen.escape(new String(expected, StandardCharsets.UTF_8))
                            + "\nactual   " + SpoolEncoderDifferentialTest.Gen.escape(new String(actual, StandardCharsets.UTF_8)));
                    compared++;
                }
            }
        }
        assertTrue(compared == 4 * 3 * patterns.length);
    }

    @Test
    void aPatternIsCompiledOnItsSecondSightingAndThenServedByIdentity() {
        String pattern = new String("order {} shipped to {} on day {}"); // a fresh object, not in the cache
        assertNull(MessagePattern.lookup(pattern), "first sighting only remembers it");
        MessagePattern compiled = MessagePattern.lookup(pattern);
        assertNotNull(compiled, "second sighting compiles it");
        assertSame(compiled, MessagePattern.lookup(pattern), "then it is served from the cache");
        assertNull(MessagePattern.lookup(new String(pattern)), "an equal but different String is another pattern");
    }
}
