package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import io.github.spool.SpoolConfig;
import java.nio.file.Paths;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code <Spool>} settings: defaults, parsing, and errors that name the bad setting. */
class SpoolAppenderConfigTest {

    @Test
    void defaults() {
        SpoolConfig c = SpoolAppender.newBuilder().setName("a").toSpoolConfig();
        assertEquals(SpoolConfig.Target.STDOUT, c.target());
        assertEquals(1L << 20, c.bufferSize());
        assertEquals(32L << 20, c.maxBufferSize());
        assertEquals(OverflowPolicy.BLOCK, c.overflowPolicy());
        assertEquals(Severity.INFO, c.discardThreshold());
    }

    @Test
    void everySetting() {
        SpoolConfig c = SpoolAppender.newBuilder().setName("a").setFileName("/tmp/x.log").setBufferSize("512KB")
                .setMaxBufferSize("1.5 MiB").setOverflowPolicy("discard").setDiscardThreshold("warn").toSpoolConfig();
        assertEquals(Paths.get("/tmp/x.log"), c.file());
        assertEquals(512L << 10, c.bufferSize());
        assertEquals(3L << 19, c.maxBufferSize());
        assertEquals(OverflowPolicy.DISCARD, c.overflowPolicy());
        assertEquals(Severity.WARN, c.discardThreshold());
        assertEquals(SpoolConfig.Target.STDERR,
                SpoolAppender.newBuilder().setName("b").setTarget("SYSTEM_ERR").toSpoolConfig().target());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "target=SYSTEM_OUT, fileName=x|either target or fileName",
        "target=STDOUT|target 'STDOUT'",
        "bufferSize=1 MeB|bufferSize '1 MeB'",
        "bufferSize=-5|bufferSize '-5'",
        "bufferSize=1KB|bufferSize 1024 is below the minimum",
        "maxBufferSize=64KB|maxBufferSize 65536 is below bufferSize",
        "overflowPolicy=DROP|overflowPolicy 'DROP'",
        "discardThreshold=LOUD|discardThreshold 'LOUD'",
        "discardThreshold=OFF|discardThreshold 'OFF'",
    })
    void badSettingsAreNamed(String settings, String message) {
        SpoolAppender.Builder b = SpoolAppender.newBuilder().setName("bad");
        for (String kv : settings.split(", ")) {
            String[] p = kv.split("=", 2);
            switch (p[0]) {
                case "target": b.setTarget(p[1]); break;
                case "fileName": b.setFileName(p[1]); break;
                case "bufferSize": b.setBufferSize(p[1]); break;
                case "maxBufferSize": b.setMaxBufferSize(p[1]); break;
                case "overflowPolicy": b.setOverflowPolicy(p[1]); break;
                default: b.setDiscardThreshold(p[1]);
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::toSpoolConfig);
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertNull(b.build(), "plugin creation fails");
    }


    @Test
    void levelsMapBySeverityRangeIncludingCustomLevels() {
        assertEquals(Severity.TRACE, LevelSeverity.of(Level.TRACE));
        assertEquals(Severity.DEBUG, LevelSeverity.of(Level.DEBUG));
        assertEquals(Severity.INFO, LevelSeverity.of(Level.INFO));
        assertEquals(Severity.WARN, LevelSeverity.of(Level.WARN));
        assertEquals(Severity.ERROR, LevelSeverity.of(Level.ERROR));
        assertEquals(Severity.FATAL, LevelSeverity.of(Level.FATAL));
        assertEquals(Severity.INFO, LevelSeverity.of(Level.forName("NOTICE", 350)));
        assertEquals(Severity.ERROR, LevelSeverity.of(Level.forName("CRITICAL", 150)));
        assertEquals(Severity.TRACE, LevelSeverity.of(Level.forName("VERBOSE", 550)));
        assertEquals(Severity.TRACE, LevelSeverity.of(Level.ALL));
        assertEquals(Severity.INFO, LevelSeverity.parseThreshold("NOTICE"));
    }
}
