package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.OverflowPolicy;
import io.github.spool.RenderMode;
import io.github.spool.Severity;
import io.github.spool.SpoolConfig;
import io.github.spool.StatusListener;
import io.github.spool.StatusListener.Level;
import io.github.spool.dropin.Configured;
import io.github.spool.dropin.StreamCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code <Spool>} settings: defaults, parsing, what a bad value becomes, and the attributes
 * log4j2 users bring from {@code <Console>} and {@code <File>} ({@code direct}, {@code bufferedIo},
 * {@code locking}; the shared ones are in {@link SettingsTest}). Every appender still starts.
 */
class SpoolAppenderConfigTest {

    @TempDir
    Path dir;

    private final List<String> status = new ArrayList<>();
    private final StatusListener recorder = (level, message, cause) -> status.add(level + " " + message);

    @Test
    void defaults() {
        SpoolConfig c = SpoolAppender.newBuilder().setName("a").toSpoolConfig(recorder);
        assertEquals(SpoolConfig.Target.STDOUT, c.target());
        assertEquals(1L << 20, c.bufferSize());
        assertEquals(32L << 20, c.maxBufferSize());
        assertEquals(OverflowPolicy.BLOCK, c.overflowPolicy());
        assertEquals(Severity.INFO, c.discardThreshold());
        assertFalse(c.follow());
        assertTrue(c.append());
        assertEquals(List.of(), status);
    }

    @Test
    void everySetting() {
        SpoolConfig c = SpoolAppender.newBuilder().setName("a").setFileName("/tmp/x.log").setBufferSize("512KB")
                .setMaxBufferSize("1.5 MiB").setOverflowPolicy("discard").setDiscardThreshold("warn")
                .setAppend("false").toSpoolConfig(recorder);
        assertEquals(Paths.get("/tmp/x.log"), c.file());
        assertEquals(512L << 10, c.bufferSize());
        assertEquals(3L << 19, c.maxBufferSize());
        assertEquals(OverflowPolicy.DISCARD, c.overflowPolicy());
        assertEquals(Severity.WARN, c.discardThreshold());
        assertFalse(c.append());
        SpoolConfig err = SpoolAppender.newBuilder().setName("b").setTarget("SYSTEM_ERR").setFollow("true").toSpoolConfig(recorder);
        assertEquals(SpoolConfig.Target.STDERR, err.target());
        assertTrue(err.follow());
        assertEquals(List.of(), status);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "target=SYSTEM_OUT, fileName=x|WARN|both target (SYSTEM_OUT) and fileName (x) are set; writing to the file",
        "target=STDOUT|ERROR|target 'STDOUT' is unknown; expected SYSTEM_OUT or SYSTEM_ERR; using the default SYSTEM_OUT",
        "bufferSize=1 MeB|ERROR|bufferSize '1 MeB' is not a size",
        "bufferSize=-5|ERROR|bufferSize '-5' is not a size",
        "bufferSize=1KB|WARN|bufferSize '1KB' (1024 bytes) is below the minimum of 8192 bytes; using 8192 bytes",
        "maxBufferSize=64KB|WARN|maxBufferSize '64KB' (65536 bytes) is below bufferSize (1048576 bytes)",
        "overflowPolicy=DROP|ERROR|overflowPolicy 'DROP' is unknown; expected BLOCK or DISCARD; using the default BLOCK",
        "discardThreshold=LOUD|ERROR|discardThreshold 'LOUD'",
        "discardThreshold=OFF|ERROR|discardThreshold 'OFF'",
    })
    void aBadSettingIsReportedAndReplacedAndTheAppenderIsBuilt(String settings, String level, String message) {
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
        b.toSpoolConfig(recorder);
        assertEquals(1, status.size(), status::toString);
        assertTrue(status.get(0).startsWith(level + " spool appender 'bad': " + message), status::toString);
        assertNotNull(b.build(), "the appender is built all the same");
    }

    @Test
    void renderChoosesWhereTheLineIsMadeAndSaysWhyNot() {
        SpoolLayout capturable = SpoolLayout.newLayout("%d %-5p [%t] %c{1} - %m%n", "UTF-8", true, null);
        assertNotNull(SpoolAppender.newBuilder().setName("w").setRender("writer").toSpoolConfig(recorder, capturable).renderer());
        assertNull(SpoolAppender.newBuilder().setName("c").setRender("caller").toSpoolConfig(recorder, capturable).renderer());
        assertEquals(RenderMode.writerByDefault(), SpoolAppender.newBuilder().setName("a").toSpoolConfig(recorder, capturable)
                .renderer() != null, "auto: the writer where the layout allows it and the JVM has a second processor");
        SpoolLayout marker = SpoolLayout.newLayout("%marker %m%n", "UTF-8", true, null);
        assertNull(SpoolAppender.newBuilder().setName("b").toSpoolConfig(recorder, marker).renderer(),
                "auto with a layout the writer cannot render: the caller");
        assertEquals(List.of(), status, "auto says nothing about where it renders");
        SpoolLayout mdc = SpoolLayout.newLayout("%X{user} %X %m%n", "UTF-8", true, null);
        assertNotNull(SpoolAppender.newBuilder().setName("m").setRender("writer").toSpoolConfig(recorder, mdc).renderer(),
                "the context map is captured");
        assertEquals(List.of(), status);
        assertNull(SpoolAppender.newBuilder().setName("x").setRender("writer").toSpoolConfig(recorder, marker).renderer());
        assertEquals(1, status.size(), status::toString);
        assertTrue(status.get(0).startsWith("WARN spool appender 'x': render=\"writer\" needs a <SpoolLayout>")
                && status.get(0).endsWith("rendering on the calling thread"), status::toString);
        status.clear();
        assertEquals(RenderMode.writerByDefault(),
                SpoolAppender.newBuilder().setName("y").setRender("fast").toSpoolConfig(recorder, capturable).renderer() != null,
                "an unknown value is auto");
        assertEquals(1, status.size(), status::toString);
        assertTrue(status.get(0).startsWith("ERROR spool appender 'y': render 'fast' is unknown; expected auto, writer or caller"),
                status::toString);
    }

    @Test
    void aMissingNameIsTheOnlySettingThatFailsTheBuild() {
        assertNull(SpoolAppender.newBuilder().setBufferSize("1MB").build());
    }

    @ParameterizedTest(name = "fileName=\"{0}\"")
    @ValueSource(strings = {"", "  ", "bad\u0000name.log"})
    void anUnusableFileNameIsAnErrorAndStderr(String fileName) {
        SpoolConfig c = SpoolAppender.newBuilder().setName("f").setFileName(fileName).toSpoolConfig(recorder);
        assertEquals(SpoolConfig.Target.STDERR, c.target());
        assertEquals(1, status.size(), status::toString);
        assertTrue(status.get(0).startsWith("ERROR spool appender 'f': fileName '" + fileName + "' is not a usable path"),
                status::toString);
        assertTrue(status.get(0).endsWith("writing this appender's lines to stderr instead"), status::toString);
    }

    private Configured start(String attributes) throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String kv : attributes.split(" ")) {
            String[] p = kv.split("=", 2);
            settings.put(p[0], p[1]);
        }
        Configured c = Log4jConfigured.start(dir, settings);
        assertTrue(c.started(), () -> "not started with " + attributes + ": " + c.statuses());
        return c;
    }

    /** Surefire replaces System.err, so a console appender without follow also warns that its lines bypass it. */
    private static List<String> warnsBesidesTheReplacedStream(Configured c) {
        return c.statuses(Level.WARN).stream().filter(m -> !m.contains("has been replaced")).toList();
    }

    /** {@code direct="true"} is what Spool always does: accepted without a word. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"direct=true", "bufferedIo=true", "immediateFlush=true", "locking=false", "follow=false",
        "ignoreExceptions=false"})
    void attributesThatDescribeWhatSpoolDoesAnywayAreSilent(String attribute) throws Exception {
        try (Configured c = start("target=SYSTEM_ERR " + attribute)) {
            assertEquals(List.of(), c.statuses().stream().filter(s -> !s.message().contains("has been replaced")).toList());
        }
    }

    @Test
    void bufferedIoFalseIsAnInfoSayingItChangesNothing() throws Exception {
        try (Configured c = start("target=SYSTEM_ERR bufferedIo=false")) {
            assertEquals(List.of("spool appender 'dropin': bufferedIo=\"false\" changes nothing: Spool always buffers in its "
                    + "ring and writes within about a millisecond, off the logging thread"), c.statuses(Level.INFO).stream()
                    .filter(m -> m.contains("bufferedIo")).toList());
            assertEquals(List.of(), warnsBesidesTheReplacedStream(c));
        }
    }

    @Test
    void directFalseIsAWarnNamingFollow() throws Exception {
        try (Configured c = start("target=SYSTEM_ERR direct=false")) {
            assertFalse(c.config().follow());
            List<String> warns = warnsBesidesTheReplacedStream(c);
            assertEquals(1, warns.size(), warns::toString);
            assertTrue(warns.get(0).contains("direct=\"false\" does not apply") && warns.get(0).contains("set follow=\"true\""),
                    warns::toString);
        }
    }

    @Test
    void directAndFollowTogetherFollowWithAWarn() throws Exception {
        try (StreamCapture err = StreamCapture.stderr(); Configured c = start("target=SYSTEM_ERR direct=true follow=true")) {
            assertTrue(c.config().follow());
            List<String> warns = c.statuses(Level.WARN);
            assertEquals(1, warns.size(), warns::toString);
            assertTrue(warns.get(0).contains("direct=\"true\" and follow=\"true\" contradict each other"), warns::toString);
            c.log("followed");
            assertEquals(List.of("followed"), err.awaitLines("followed"::equals, 1, Duration.ofSeconds(20)));
        }
    }

    @Test
    void lockingIsAWarnThatItIsNotSupported() throws Exception {
        Path log = dir.resolve("locked.log");
        try (Configured c = start("fileName=" + log + " locking=true")) {
            List<String> warns = c.statuses(Level.WARN);
            assertEquals(1, warns.size(), warns::toString);
            assertTrue(warns.get(0).contains("locking=\"true\" is not supported"), warns::toString);
            c.log("unlocked");
        }
        assertEquals(List.of("unlocked"), Files.readAllLines(log));
    }

    /** {@code <File>} attributes Spool has no field for: log4j2's own ERROR, and the appender starts. */
    @Test
    void anAttributeSpoolDoesNotHaveStillStartsTheAppender() throws Exception {
        Path log = dir.resolve("demand.log");
        try (Configured c = start("fileName=" + log + " createOnDemand=true filePermissions=rw-------")) {
            assertEquals(List.of(), c.statuses());
            c.log("created anyway");
        }
        assertEquals(List.of("created anyway"), Files.readAllLines(log));
    }

    @Test
    void aBadBooleanIsAnErrorNotLog4jsSilentFalse() throws Exception {
        try (Configured c = start("target=SYSTEM_ERR bufferedIo=ja direct=nein")) {
            List<String> errors = c.statuses(Level.ERROR);
            assertEquals(List.of("spool appender 'dropin': bufferedIo 'ja' is neither true nor false; using the default true",
                    "spool appender 'dropin': direct 'nein' is neither true nor false; using the default true"),
                    errors.stream().sorted().toList());
        }
    }

    @Test
    void levelsMapBySeverityRangeIncludingCustomLevels() {
        assertEquals(Severity.TRACE, LevelSeverity.of(org.apache.logging.log4j.Level.TRACE));
        assertEquals(Severity.DEBUG, LevelSeverity.of(org.apache.logging.log4j.Level.DEBUG));
        assertEquals(Severity.INFO, LevelSeverity.of(org.apache.logging.log4j.Level.INFO));
        assertEquals(Severity.WARN, LevelSeverity.of(org.apache.logging.log4j.Level.WARN));
        assertEquals(Severity.ERROR, LevelSeverity.of(org.apache.logging.log4j.Level.ERROR));
        assertEquals(Severity.FATAL, LevelSeverity.of(org.apache.logging.log4j.Level.FATAL));
        assertEquals(Severity.INFO, LevelSeverity.of(org.apache.logging.log4j.Level.forName("NOTICE", 350)));
        assertEquals(Severity.ERROR, LevelSeverity.of(org.apache.logging.log4j.Level.forName("CRITICAL", 150)));
        assertEquals(Severity.TRACE, LevelSeverity.of(org.apache.logging.log4j.Level.forName("VERBOSE", 550)));
        assertEquals(Severity.TRACE, LevelSeverity.of(org.apache.logging.log4j.Level.ALL));
        assertEquals(Severity.INFO, LevelSeverity.parseThreshold("NOTICE"));
    }
}
