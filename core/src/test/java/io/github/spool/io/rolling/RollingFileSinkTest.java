// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import static io.github.spool.io.rolling.RollingFiles.read;
import static io.github.spool.io.rolling.RollingFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.StatusListener;
import io.github.spool.time.ManualClock;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RollingFileSinkTest {

    @TempDir
    Path dir;

    private final List<String> status = new CopyOnWriteArrayList<>();
    private final StatusListener listener = (level, message, cause) -> status.add(level + " " + message);
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-24T10:00:00Z").toEpochMilli());

    private String p(String pattern) {
        return dir.resolve(pattern).toString();
    }

    private RollingPolicy.Builder policy(String pattern) {
        return RollingPolicy.builder(p(pattern)).zone(ZoneId.of("UTC")).locale(Locale.ROOT);
    }

    private RollingFileSink open(RollingPolicy policy) throws IOException {
        return RollingFileSink.open(policy, true, clock, "t", listener);
    }

    /** An active file that will not roll in the test: for what happens when it is opened. */
    private RollingFileSink openNoRollover(Path active) throws IOException {
        return open(policy("app-%i.log").activeFile(active).maxFileSize(1 << 20)
                .indexing(RollingPolicy.Indexing.NEXT_FREE, 1, 3).build());
    }

    /** Lines "line NNN" of 20 bytes with their separator. */
    private static String[] lines(int from, int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = String.format("line %014d", from + i);
        }
        return out;
    }

    @Test
    void sizeRolloverNamesArchivesByPeriodAndIndexAsLogbackDoes() throws IOException {
        RollingFileSink sink = open(policy("app-%d{yyyy-MM-dd}.%i.log").activeFile(dir.resolve("app.log"))
                .maxFileSize(100).timeBased(1, false).indexing(RollingPolicy.Indexing.PER_PERIOD, 0, 0).build());
        write(sink, lines(0, 50));
        sink.close();
        TreeMap<String, List<String>> files = read(dir);
        List<String> expectedNames = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            expectedNames.add("app-2026-11-24." + i + ".log");
        }
        expectedNames.add("app.log");
        assertEquals(new java.util.TreeSet<>(expectedNames), files.keySet());
        List<String> all = new ArrayList<>();
        for (String name : expectedNames) {
            assertEquals(5, files.get(name).size(), name); // 100 bytes: exactly the limit, no line split
            all.addAll(files.get(name));
        }
        assertEquals(List.of(lines(0, 50)), all);
        assertEquals(9, sink.rollovers());
        assertEquals(List.of(), status);
    }

    /**
     * A compression that fails (here a directory in the way of its temporary file; in life a full
     * disk) leaves the archive uncompressed with an ERROR; a later rollover compresses it (a retry
     * that fails again says nothing more), so that it does not stay outside the pattern's names.
     */
    @Test
    void aFailedCompressionIsRetriedAtALaterRollover() throws IOException {
        RollingFileSink sink = open(policy("app-%d{yyyy-MM-dd}.%i.log.gz").activeFile(dir.resolve("app.log"))
                .maxFileSize(100).timeBased(1, false).indexing(RollingPolicy.Indexing.PER_PERIOD, 0, 0).build());
        // A non-empty directory where the compression's temporary file goes: opening it fails, and
        // the clean-up after the failure cannot remove it.
        Path blocker = Files.createDirectory(dir.resolve("app-2026-11-24.0.log.gz.tmp"));
        Files.createFile(blocker.resolve("x"));
        write(sink, lines(0, 6)); // one rollover: archive 0, whose compression fails
        assertTrue(sink.awaitArchives(10_000));
        assertTrue(Files.exists(dir.resolve("app-2026-11-24.0.log")), () -> status + " " + dir.toFile().list().length + java.util.Arrays.toString(dir.toFile().list()));
        assertEquals(1, status.size(), status::toString);
        assertTrue(status.get(0).startsWith("ERROR") && status.get(0).contains("could not compress"), status::toString);
        Files.delete(blocker.resolve("x")); // space again
        Files.delete(blocker);
        write(sink, lines(6, 5)); // the next rollover
        assertTrue(sink.awaitArchives(10_000));
        sink.close();
        TreeMap<String, List<String>> files = read(dir);
        assertEquals(new java.util.TreeSet<>(List.of("app-2026-11-24.0.log.gz", "app-2026-11-24.1.log.gz", "app.log")),
                files.keySet());
        assertEquals(List.of(lines(0, 5)), files.get("app-2026-11-24.0.log.gz"));
        assertEquals(1, status.size(), status::toString);
    }

    @Test
    void aLineCutByAKillIsEndedAtTheNextStartAndNothingIsRemoved() throws IOException {
        Path active = dir.resolve("app.log");
        Files.writeString(active, "whole\ncut in the mid");
        RollingFileSink sink = openNoRollover(active);
        write(sink, "next");
        sink.close();
        assertEquals("whole\ncut in the mid" + System.lineSeparator() + "next\n", Files.readString(active));
        assertEquals(1, status.size(), status.toString());
        assertTrue(status.get(0).startsWith("WARN spool appender 't': " + active + " ended inside a line"), status.toString());
    }

    @Test
    void aFileEndingWithItsSeparatorIsContinuedAsItIs() throws IOException {
        Path active = dir.resolve("app.log");
        Files.writeString(active, "whole\n");
        RollingFileSink sink = openNoRollover(active);
        write(sink, "next");
        sink.close();
        assertEquals("whole\nnext\n", Files.readString(active));
        assertEquals(List.of(), status);
    }

    @Test
    void aFileExceedsTheLimitByAtMostOneLine() throws IOException {
        RollingFileSink sink = open(policy("app-%i.log").activeFile(dir.resolve("app.log")).maxFileSize(110)
                .indexing(RollingPolicy.Indexing.NEXT_FREE, 1, 1).build());
        write(sink, lines(0, 7)); // 140 bytes in one batch: cut after the line that crosses 110
        write(sink, lines(7, 1));
        sink.close();
        TreeMap<String, List<String>> files = read(dir);
        assertEquals(List.of(lines(0, 6)), files.get("app-1.log"));
        assertEquals(List.of(lines(6, 2)), files.get("app.log"));
    }

    @Test
    void timeRolloverWithoutActiveFileWritesThePatternNamedFileAndCompressesIt() throws IOException {
        RollingFileSink sink = open(policy("app-%d{yyyy-MM-dd}.log.gz").timeBased(1, false).build());
        write(sink, "monday");
        clock.set(Instant.parse("2026-11-25T00:00:00Z").toEpochMilli());
        write(sink, "tuesday");
        assertTrue(sink.awaitArchives(10_000));
        sink.close();
        TreeMap<String, List<String>> files = read(dir);
        assertEquals(Map.of("app-2026-11-24.log.gz", List.of("monday"), "app-2026-11-25.log", List.of("tuesday")), files);
    }

    @Test
    void log4j2WindowKeepsTheNewestAtTheHighestIndex() throws IOException {
        RollingFileSink sink = open(policy("app-%i.log.gz").activeFile(dir.resolve("app.log")).maxFileSize(20)
                .indexing(RollingPolicy.Indexing.NEWEST_HIGHEST, 1, 3).build());
        for (int i = 0; i < 6; i++) {
            write(sink, lines(i, 1));
        }
        assertTrue(sink.awaitArchives(10_000));
        sink.close();
        assertEquals(Map.of("app-1.log.gz", List.of(lines(2, 1)), "app-2.log.gz", List.of(lines(3, 1)),
                "app-3.log.gz", List.of(lines(4, 1)), "app.log", List.of(lines(5, 1))), read(dir));
    }

    @Test
    void fixedWindowKeepsTheNewestAtTheLowestIndex() throws IOException {
        RollingFileSink sink = open(policy("app.%i.log.zip").activeFile(dir.resolve("app.log")).maxFileSize(20)
                .indexing(RollingPolicy.Indexing.NEWEST_LOWEST, 1, 3).build());
        for (int i = 0; i < 6; i++) {
            write(sink, lines(i, 1));
        }
        assertTrue(sink.awaitArchives(10_000));
        sink.close();
        assertEquals(Map.of("app.1.log.zip", List.of(lines(4, 1)), "app.2.log.zip", List.of(lines(3, 1)),
                "app.3.log.zip", List.of(lines(2, 1)), "app.log", List.of(lines(5, 1))), read(dir));
    }

    @Test
    void aRestartContinuesTheNumberingInsteadOfOverwriting() throws IOException {
        RollingPolicy policy = policy("app-%d{yyyy-MM-dd}.%i.log").activeFile(dir.resolve("app.log")).maxFileSize(20)
                .timeBased(1, false).indexing(RollingPolicy.Indexing.PER_PERIOD, 0, 0).build();
        RollingFileSink first = open(policy);
        write(first, lines(0, 1));
        write(first, lines(1, 1));
        first.close();
        RollingFileSink second = open(policy);
        write(second, lines(2, 1));
        second.close();
        assertEquals(Map.of("app-2026-11-24.0.log", List.of(lines(0, 1)), "app-2026-11-24.1.log", List.of(lines(1, 1)),
                "app.log", List.of(lines(2, 1))), read(dir));
    }

    @Test
    void maxHistoryKeepsThatManyPeriods() throws IOException {
        RollingFileSink sink = open(policy("app-%d{yyyy-MM-dd}.log").activeFile(dir.resolve("app.log"))
                .timeBased(1, false).maxHistory(2).build());
        for (int day = 0; day < 6; day++) {
            clock.set(Instant.parse("2026-11-24T10:00:00Z").plusSeconds(86_400L * day).toEpochMilli());
            write(sink, "day " + day);
        }
        assertTrue(sink.awaitArchives(10_000));
        sink.close();
        // now is the 29th: the 28th and 27th are kept, with the active file
        assertEquals(Map.of("app-2026-11-27.log", List.of("day 3"), "app-2026-11-28.log", List.of("day 4"),
                "app.log", List.of("day 5")), read(dir));
    }

    @Test
    void aFileMovedByLogrotateIsReopenedAndNothingIsLost() throws IOException {
        Path active = dir.resolve("app.log");
        RollingFileSink sink = RollingFileSink.plain(active, true, "t", listener);
        sink.identityCheckEvery(0);
        write(sink, "before");
        Files.move(active, dir.resolve("app.log.1")); // logrotate "create": rename, then signal or not
        write(sink, "after rename");
        Files.delete(active);
        write(sink, "after delete");
        sink.close();
        assertEquals(Map.of("app.log.1", List.of("before"), "app.log", List.of("after delete")), read(dir));
        assertEquals(2, status.size(), status::toString);
        assertTrue(status.get(0).startsWith("INFO spool appender 't': " + active + " was moved or deleted"), status::toString);
    }

    @Test
    void reopenOnRequestAndCopytruncateKeepTheSizeCountRight() throws IOException {
        Path active = dir.resolve("app.log");
        RollingFileSink sink = open(policy("app-%i.log").activeFile(active).maxFileSize(60)
                .indexing(RollingPolicy.Indexing.NEXT_FREE, 1, 1).build());
        sink.identityCheckEvery(0);
        write(sink, lines(0, 2));
        try (FileChannel ch = FileChannel.open(active, StandardOpenOption.WRITE)) {
            ch.truncate(0); // copytruncate
        }
        write(sink, lines(2, 2)); // 40 bytes in the file now, not 80: no rollover yet
        assertEquals(0, sink.rollovers());
        Files.move(active, dir.resolve("moved.log"));
        sink.requestReopen();
        write(sink, lines(4, 1));
        sink.close();
        assertEquals(Map.of("moved.log", List.of(lines(2, 2)), "app.log", List.of(lines(4, 1))), read(dir));
    }

    @Test
    void aStartAfterACrashFinishesCompressionsAndRemovesLeftovers() throws IOException {
        Files.writeString(dir.resolve("app-1.log"), "pending\n"); // renamed, never compressed
        Files.writeString(dir.resolve("app-2.log"), "done\n");    // compressed below, source not yet deleted
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(dir.resolve("app-2.log.gz")))) {
            out.write("done\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        Files.writeString(dir.resolve("app-3.log.gz.tmp"), "torn");  // a compression cut off half-way
        RollingFileSink sink = open(policy("app-%i.log.gz").activeFile(dir.resolve("app.log")).maxFileSize(20)
                .indexing(RollingPolicy.Indexing.NEXT_FREE, 1, 1).build());
        assertTrue(sink.awaitArchives(10_000));
        sink.close();
        assertEquals(Map.of("app-1.log.gz", List.of("pending"), "app-2.log.gz", List.of("done"), "app.log", List.of()),
                read(dir));
        assertFalse(status.stream().anyMatch(s -> s.startsWith("ERROR")), status::toString);
    }
}
