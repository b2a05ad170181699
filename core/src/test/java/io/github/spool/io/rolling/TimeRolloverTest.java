// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.time.ManualClock;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Time rollover with a manual clock across midnight, month ends (a leap February) and both DST
 * changes of three zones: every line lands in the file named by the period its time falls in,
 * computed independently with {@link DateTimeFormatter}, and no line is lost or repeated.
 */
class TimeRolloverTest {

    @TempDir
    Path dir;

    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String zone : List.of("America/New_York", "Europe/Berlin", "Australia/Sydney")) {
            // hourly across both DST changes of 2026 (northern: March/Oct-Nov; Sydney: April/October)
            out.add(Arguments.of(zone, "yyyy-MM-dd-HH", "2026-03-06T00:00", 4 * 24, 7));
            out.add(Arguments.of(zone, "yyyy-MM-dd-HH", "2026-03-27T00:00", 4 * 24, 7));
            out.add(Arguments.of(zone, "yyyy-MM-dd-HH", "2026-04-03T00:00", 4 * 24, 7));
            out.add(Arguments.of(zone, "yyyy-MM-dd-HH", "2026-10-02T00:00", 4 * 24, 7));
            out.add(Arguments.of(zone, "yyyy-MM-dd-HH", "2026-10-23T00:00", 4 * 24, 7));
            out.add(Arguments.of(zone, "yyyy-MM-dd-HH", "2026-10-30T00:00", 4 * 24, 7));
            // daily across a leap-year month end, a year end; monthly across a year
            out.add(Arguments.of(zone, "yyyy-MM-dd", "2028-02-26T00:00", 5 * 24, 97));
            out.add(Arguments.of(zone, "yyyy-MM-dd", "2026-12-29T00:00", 5 * 24, 97));
            out.add(Arguments.of(zone, "yyyy-MM", "2026-01-01T00:00", 400 * 24, 60 * 13 + 7));
        }
        return out;
    }

    @ParameterizedTest(name = "{0} {1} from {2}")
    @MethodSource("cases")
    void everyLineIsInTheFileOfItsPeriod(String zoneId, String datePattern, String startLocal, int hours,
                                        int stepMinutes) throws IOException {
        ZoneId zone = ZoneId.of(zoneId);
        long start = ZonedDateTime.of(java.time.LocalDateTime.parse(startLocal), zone).toInstant().toEpochMilli();
        long end = start + hours * 3_600_000L;
        ManualClock clock = new ManualClock(start);
        RollingPolicy policy = RollingPolicy.builder(dir.resolve("app-%d{" + datePattern + "}.log").toString())
                .activeFile(dir.resolve("app.log")).timeBased(1, false).zone(zone).locale(Locale.ROOT).build();
        RollingFileSink sink = RollingFileSink.open(policy, true, clock, "t", (l, m, c) -> { });
        DateTimeFormatter names = DateTimeFormatter.ofPattern(datePattern, Locale.ROOT).withZone(zone);
        Map<String, List<String>> expected = new TreeMap<>();
        String lastName = null;
        int n = 0;
        for (long t = start; t < end; t += stepMinutes * 60_000L) {
            clock.set(t);
            String line = "t=" + Instant.ofEpochMilli(t);
            RollingFiles.write(sink, line);
            lastName = "app-" + names.format(Instant.ofEpochMilli(t)) + ".log";
            expected.computeIfAbsent(lastName, k -> new ArrayList<>()).add(line);
            n++;
        }
        sink.close();
        // the newest period is still the active file
        expected.put("app.log", expected.remove(lastName));
        TreeMap<String, List<String>> actual = RollingFiles.read(dir);
        // A fall-back hour shows the same text twice: its second period goes to a free name
        // ("...-01.log.1") rather than over the first; fold those back for the comparison.
        TreeMap<String, List<String>> folded = new TreeMap<>();
        actual.forEach((name, lines) -> folded.merge(name.replaceAll("\\.log\\.\\d+$", ".log"), lines,
                (a, b) -> { List<String> all = new ArrayList<>(a); all.addAll(b); all.sort(null); return all; }));
        expected.values().forEach(l -> l.sort(null));
        assertEquals(expected, folded);
        assertTrue(n > 50, "enough lines to cross the boundaries: " + n);
    }
}
