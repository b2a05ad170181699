// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.SettingsReader;
import io.github.spool.io.rolling.RollingFileSink;
import io.github.spool.io.rolling.RollingPolicy;
import io.github.spool.time.ManualClock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.logging.log4j.core.appender.rolling.DefaultRolloverStrategy;
import org.apache.logging.log4j.core.appender.rolling.PatternProcessor;
import org.apache.logging.log4j.core.appender.rolling.SizeBasedTriggeringPolicy;
import org.apache.logging.log4j.core.appender.rolling.TimeBasedTriggeringPolicy;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Time windows and archive dates as log4j2 computes them, with log4j2's own
 * {@link PatternProcessor} as the oracle, driven the way {@code TimeBasedTriggeringPolicy} drives
 * it (two {@code getNextTime} calls at start, one at each event past the boundary; the archive is
 * named by {@code prevFileTime}), against Spool's rolling file on the same event times.
 */
class RollingWindowsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} interval={1} modulate={2}")
    @CsvSource({
        "app-%d{yyyy-MM-dd-HH}{UTC}.log, 2, false", "app-%d{yyyy-MM-dd-HH}{UTC}.log, 2, true",
        "app-%d{yyyy-MM-dd-HH}{UTC}.log, 3, false", "app-%d{yyyy-MM-dd-HH}{UTC}.log, 3, true",
        "app-%d{yyyy-MM-dd-HH}{UTC}.log, 4, false", "app-%d{yyyy-MM-dd-HH}{UTC}.log, 4, true",
        "app-%d{yyyy-MM-dd-HH}{UTC}.log, 5, false", "app-%d{yyyy-MM-dd-HH}{UTC}.log, 5, true",
        "app-%d{yyyy-MM-dd-HH}{UTC}.log, 6, false", "app-%d{yyyy-MM-dd-HH}{UTC}.log, 6, true",
        "app-%d{yyyy-MM-dd}{UTC}.log,    3, false", "app-%d{yyyy-MM-dd}{UTC}.log,    3, true",
        "app-%d{yyyy-MM-dd_HH-mm}{UTC}.log, 5, true",
    })
    void intervalWindowsAndNamesAsLog4j2(String pattern, int interval, boolean modulate) throws IOException {
        boolean daily = !pattern.contains("HH");
        long unit = daily ? 86_400_000L : pattern.contains("mm") ? 60_000L : 3_600_000L;
        long start = Instant.parse("2026-02-20T01:17:00Z").toEpochMilli();
        SplittableRandom random = new SplittableRandom(interval * 31L + (modulate ? 1 : 0));
        List<Long> times = new ArrayList<>();
        long t = start;
        for (int i = 0; i < 300; i++) {
            t += random.nextLong(0, unit / 2);
            times.add(t);
        }

        // log4j2: TimeBasedTriggeringPolicy.initialize and isTriggeringEvent over PatternProcessor
        String full = dir.resolve(pattern).toString();
        PatternProcessor processor = new PatternProcessor(full);
        processor.getNextTime(start, interval, modulate);
        long next = processor.getNextTime(start, interval, modulate);
        TreeMap<String, String> expected = new TreeMap<>();
        StringBuilder active = new StringBuilder();
        for (int i = 0; i < times.size(); i++) {
            if (times.get(i) >= next) {
                next = processor.getNextTime(times.get(i), interval, modulate);
                StringBuilder name = new StringBuilder();
                processor.formatFileName(name, false, 0);
                expected.merge(Path.of(name.toString()).getFileName().toString(), active.toString(), String::concat);
                active.setLength(0);
            }
            active.append("line ").append(i).append('\n');
        }
        expected.put("app.log", active.toString());

        RollingPolicy policy = RollingSettings.read(reader(), dir.resolve("spool/app.log"), dir.resolve("spool").resolve(pattern).toString(),
                TimeBasedTriggeringPolicy.newBuilder().setInterval(interval).setModulate(modulate).build(), null);
        ManualClock clock = new ManualClock(start);
        RollingFileSink sink = RollingFileSink.open(policy, true, clock, "ours", (l, m, c) -> {
            throw new AssertionError(l + " " + m);
        });
        for (int i = 0; i < times.size(); i++) {
            clock.set(times.get(i));
            write(sink, "line " + i + "\n");
        }
        sink.close();
        TreeMap<String, String> actual = read(dir.resolve("spool"));
        assertTrue(expected.size() > 4, "rolled: " + expected.keySet());
        assertEquals(expected, actual);
    }

    /**
     * A size policy alone with a date in {@code filePattern}: log4j2's {@code SizeBasedTriggeringPolicy}
     * calls {@code PatternProcessor.updateTime()}, which without a time policy sets
     * {@code prevFileTime} to 0, and {@code formatFileName} then takes the current time: each archive
     * bears the date of its rollover, not the one the appender started on.
     */
    @Test
    void aSizeOnlyPolicyDatesEachArchiveByItsRollover() throws IOException {
        long day = 86_400_000L;
        long start = Instant.parse("2026-02-20T10:00:00Z").toEpochMilli();
        RollingPolicy policy = RollingSettings.read(reader(), dir.resolve("app.log"), dir.resolve("app-%d{yyyy-MM-dd}{UTC}-%i.log").toString(),
                SizeBasedTriggeringPolicy.createPolicy("100"),
                DefaultRolloverStrategy.newBuilder().setMax("3").setConfig(new DefaultConfiguration()).build());
        ManualClock clock = new ManualClock(start);
        RollingFileSink sink = RollingFileSink.open(policy, true, clock, "ours", (l, m, c) -> {
            throw new AssertionError(l + " " + m);
        });
        for (int d = 0; d < 3; d++) {
            clock.set(start + d * day);
            for (int i = 0; i < 3; i++) {
                write(sink, ("day " + d + " line " + i + " ").repeat(3) + "\n"); // 3 lines of ~60 bytes: one rollover a day
            }
        }
        sink.close();
        assertEquals(List.of("app-2026-02-21-1.log", "app-2026-02-22-1.log", "app.log"),
                new ArrayList<>(read(dir).keySet()));
    }

    private static SettingsReader reader() {
        return new SettingsReader("ours", (l, m, c) -> {
            throw new AssertionError(l + " " + m);
        });
    }

    private static void write(RollingFileSink sink, String line) throws IOException {
        ByteBuffer[] b = {ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8))};
        while (b[0].hasRemaining()) {
            sink.write(b, 0, 1);
        }
        assertTrue(sink.awaitArchives(10_000));
    }

    private static TreeMap<String, String> read(Path dir) throws IOException {
        TreeMap<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : (Iterable<Path>) s::iterator) {
                if (!f.getFileName().toString().startsWith("log4j2-")) {
                    files.put(f.getFileName().toString(), Files.readString(f));
                }
            }
        }
        return files;
    }
}
