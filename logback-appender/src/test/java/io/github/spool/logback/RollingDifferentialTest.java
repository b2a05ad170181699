// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.rolling.DefaultTimeBasedFileNamingAndTriggeringPolicy;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedFileNamingAndTriggeringPolicy;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.rolling.TimeBasedFileNamingAndTriggeringPolicyBase;
import ch.qos.logback.core.rolling.TimeBasedRollingPolicy;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import io.github.spool.SettingsReader;
import io.github.spool.io.rolling.RollingFileSink;
import io.github.spool.io.rolling.RollingPolicy;
import io.github.spool.io.rolling.SeededTraces;
import io.github.spool.time.ManualClock;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The same timed sequence of lines through logback's {@code RollingFileAppender} (its clock set by
 * {@code setCurrentTime}, as logback's own tests do) and through Spool's rolling file with the
 * settings {@link SpoolAppender} reads from the same {@code <rollingPolicy>} elements: the same
 * files are left, with the same lines in each — naming, numbering, {@code maxHistory} and
 * {@code totalSizeCap} included. Seeded: a failure reproduces.
 */
class RollingDifferentialTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} max={1} history={2} cap={3} file={4}")
    @CsvSource(delimiter = '|', value = {
        "app-%d{yyyy-MM-dd, UTC}.log          |      | 3  |     | true",
        "app-%d{yyyy-MM-dd, UTC}.log          |      | 2  |     | false",
        "app-%d{yyyy-MM-dd, UTC}.%i.log       | 1KB  | 2  | 5KB | true",
        "app-%d{yyyy-MM-dd_HH, UTC}.%i.log    | 700  | 20 |     | false",
        "app-%d{yyyy-MM-dd, UTC}.%i.log.gz    | 2KB  | 4  |     | true",
        "app-%d{yyyy-MM, UTC}.log             |      | 2  |     | true",
    })
    void sameFilesAndLinesAsRollingFileAppender(String pattern, String maxFileSize, String maxHistory,
                                                 String totalSizeCap, boolean withFile) throws Exception {
        long start = Instant.parse("2026-02-20T03:00:00Z").toEpochMilli();
        List<long[]> times = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(pattern.hashCode());
        long t = start;
        boolean monthly = pattern.contains("yyyy-MM,");
        for (int i = 0; i < 400; i++) {
            t += random.nextLong(0, monthly ? 12 * 86_400_000L : 3_600_000L);
            times.add(new long[] {t});
            lines.add("line " + i + " " + "x".repeat(random.nextInt(10, 120)));
        }
        Path theirs = Files.createDirectory(dir.resolve("logback"));
        Path ours = Files.createDirectory(dir.resolve("spool"));
        runLogback(theirs, pattern, maxFileSize, maxHistory, totalSizeCap, withFile, times, lines);
        runSpool(ours, pattern, maxFileSize, maxHistory, totalSizeCap, withFile, times, lines);
        TreeMap<String, List<String>> expected = read(theirs);
        TreeMap<String, List<String>> actual = read(ours);
        assertTrue(expected.size() >= 3, "rolled: " + expected.keySet());
        assertSameFiles(expected, actual);
    }

    /**
     * Two {@code %d} tokens, neither marked {@code aux}: logback takes the first as the primary one
     * (its unit is the period), names each file by the instant it was opened (its
     * {@code dateInCurrentPeriod}: the start, then each time rollover), and looks for a period's
     * archives to delete under the name of the period's start only. Neither warns; Spool says at
     * INFO which token sets the period, as logback's INFO "The date pattern is ..." does.
     */
    @ParameterizedTest(name = "{0} max={1} history={2} file={3}")
    @CsvSource(delimiter = '|', value = {
        "log-%d{yyyy-MM, UTC}/app-%d{yyyy-MM-dd, UTC}.log          |      | 2 | true  | month",
        "log-%d{yyyy-MM, UTC}/app-%d{yyyy-MM-dd, UTC}.log          |      | 2 | false | month",
        "log-%d{yyyy-MM, UTC}/app-%d{yyyy-MM-dd, UTC}.%i.log.gz    | 1KB  | 3 | false | month",
        "app-%d{yyyy-MM-dd, UTC}_%d{HH, UTC}.log                   |      | 2 | true  | day",
        "app-%d{yyyy-MM-dd, UTC}_%d{HH, UTC}.%i.log                | 700  | 2 | true  | day",
    })
    void twoDateTokensWithoutAuxAsLogbackDoes(String pattern, String maxFileSize, String maxHistory, boolean withFile,
                                              String period) throws Exception {
        long start = Instant.parse("2026-02-20T03:00:00Z").toEpochMilli();
        List<long[]> times = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(pattern.hashCode());
        boolean monthly = period.equals("month");
        long t = start;
        for (int i = 0; i < 300; i++) {
            t += random.nextLong(0, monthly ? 4 * 86_400_000L : 3_600_000L);
            if (random.nextInt(20) == 0) { // now and then the first moment of a period, whose name logback also deletes
                java.time.ZonedDateTime day = java.time.ZonedDateTime.ofInstant(Instant.ofEpochMilli(t), java.time.ZoneOffset.UTC)
                        .truncatedTo(java.time.temporal.ChronoUnit.DAYS);
                t = (monthly ? day.withDayOfMonth(1).plusMonths(1) : day.plusDays(1)).toInstant().toEpochMilli();
            }
            times.add(new long[] {t});
            lines.add("line " + i + " " + "x".repeat(random.nextInt(10, 120)));
        }
        Path theirs = Files.createDirectory(dir.resolve("logback"));
        Path ours = Files.createDirectory(dir.resolve("spool"));
        int theirLevel = runLogback(theirs, pattern, maxFileSize, maxHistory, null, withFile, times, lines);
        assertTrue(theirLevel < ch.qos.logback.core.status.Status.WARN, "logback neither warns nor refuses");
        List<String> statuses = runSpool(ours, pattern, maxFileSize, maxHistory, null, withFile, times, lines, 1);
        assertTrue(statuses.get(0).startsWith("INFO ") && statuses.get(0).contains("(every " + period + ")"),
                statuses::toString);
        TreeMap<String, List<String>> expected = read(theirs);
        assertTrue(expected.size() >= 4, "rolled: " + expected.keySet());
        assertSameFiles(expected, read(ours));
    }

    /**
     * A full disk for a while, then room again: Spool's compressions fail in between (a directory
     * where each compression's temporary file goes, as a full disk fails the write), logback's
     * work. At every line both directories hold the same archives, a leftover of a failed
     * compression counting as the archive it is due to become: retention deletes it with its
     * period and counts it at its compressed size, so Spool keeps no more and deletes no less
     * than logback. After the disk has room, the next rollover compresses the leftovers, and the
     * files end the same, by name and content. (logback itself, on a failed compression, deletes
     * the source and keeps a torn {@code .gz}: its lines are lost. Spool keeps them.)
     */
    @ParameterizedTest(name = "{0} history={1} cap={2} file={3}")
    @CsvSource(delimiter = '|', value = {
        "app-%d{yyyy-MM-dd, UTC}.%i.log.gz | 2 |      | true",
        "app-%d{yyyy-MM-dd, UTC}.%i.log.gz | 2 |      | false",
        "app-%d{yyyy-MM-dd, UTC}.%i.log.gz | 3 | 2KB  | true",
        "app-%d{yyyy-MM-dd, UTC}.log.gz    | 2 |      | true",
        "app-%d{yyyy-MM-dd, UTC}.log.gz    | 3 |      | false",
    })
    void aFailedCompressionThenRecoveryLeavesWhatLogbackLeaves(String pattern, String maxHistory, String totalSizeCap,
                                                                boolean withFile) throws Exception {
        boolean sized = pattern.contains("%i");
        long start = Instant.parse("2026-02-20T03:00:00Z").toEpochMilli();
        List<Long> times = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(pattern.hashCode() + maxHistory.hashCode() + (withFile ? 1 : 0));
        long t = start;
        for (int i = 0; i < 400; i++) {
            t += random.nextLong(0, sized ? 1_200_000L : 4 * 3_600_000L);
            times.add(t);
            lines.add("line " + i + " " + "x".repeat(random.nextInt(10, 120)));
        }
        int full = 100;
        int room = 250;
        Path theirs = Files.createDirectory(dir.resolve("logback"));
        Path ours = Files.createDirectory(dir.resolve("spool"));

        // logback runs its clean-up beside the compression, on another thread, so that totalSizeCap
        // may count the newest archive before it is written; one thread for both, in the order
        // rollover() submits them, makes it count the archive as Spool does, after its compression.
        java.util.concurrent.ExecutorService inOrder = java.util.concurrent.Executors.newSingleThreadExecutor();
        LoggerContext ctx = new LoggerContext() {
            @Override
            public java.util.concurrent.ExecutorService getExecutorService() {
                return inOrder;
            }

            @Override
            public java.util.concurrent.ExecutorService getAlternateExecutorService() {
                return inOrder;
            }
        };
        ctx.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        RollingFileAppender<ILoggingEvent> rfa = messageAppender(ctx, withFile ? theirs.resolve("app.log") : null);
        TimeBasedRollingPolicy<ILoggingEvent> policy = new TimeBasedRollingPolicy<>();
        policy.setContext(ctx);
        policy.setParent(rfa);
        policy.setFileNamePattern(theirs.resolve(pattern).toString());
        policy.setMaxHistory(Integer.parseInt(maxHistory));
        if (totalSizeCap != null) {
            policy.setTotalSizeCap(FileSize.valueOf(totalSizeCap));
        }
        TimeBasedFileNamingAndTriggeringPolicyBase<ILoggingEvent> naming;
        if (sized) {
            SizeAndTimeBasedFileNamingAndTriggeringPolicy<ILoggingEvent> sat = new SizeAndTimeBasedFileNamingAndTriggeringPolicy<>();
            sat.setMaxFileSize(FileSize.valueOf("1KB"));
            naming = sat;
        } else {
            naming = new DefaultTimeBasedFileNamingAndTriggeringPolicy<>();
        }
        naming.setCurrentTime(times.get(0));
        policy.setTimeBasedFileNamingAndTriggeringPolicy(naming);
        policy.start();
        rfa.setRollingPolicy(policy);
        rfa.start();

        List<String> statuses = new ArrayList<>();
        RollingElements elements = new RollingElements();
        elements.fileNamePattern = ours.resolve(pattern).toString();
        elements.maxFileSize = sized ? "1KB" : null;
        elements.maxHistory = maxHistory;
        elements.totalSizeCap = totalSizeCap;
        RollingPolicy ourPolicy = elements.read(new SettingsReader("ours", (l, m, c) -> statuses.add(l + " " + m)),
                withFile ? ours.resolve("app.log") : null);
        ManualClock clock = new ManualClock(times.get(0));
        RollingFileSink sink = RollingFileSink.open(ourPolicy, true, clock, "ours", (l, m, c) -> statuses.add(l + " " + m));
        List<Path> blockers = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (i == full) { // every archive name the disk-full lines could roll to
                for (int j = full - 1; j < room + 20; j++) {
                    String date = java.time.LocalDate.ofInstant(Instant.ofEpochMilli(times.get(j)), java.time.ZoneOffset.UTC).toString();
                    for (int n = 0; n < (sized ? 60 : 1); n++) {
                        Path blocker = ours.resolve(pattern.replace("%d{yyyy-MM-dd, UTC}", date).replace("%i", Integer.toString(n)) + ".tmp");
                        if (!Files.exists(blocker)) {
                            Files.createDirectory(blocker);
                            Files.createFile(blocker.resolve("x")); // a non-empty directory: the clean-up after the failure fails too
                            blockers.add(blocker);
                        }
                    }
                }
            } else if (i == room) {
                for (Path blocker : blockers) {
                    Files.delete(blocker.resolve("x"));
                    Files.delete(blocker);
                }
                blockers.clear();
            }
            naming.setCurrentTime(times.get(i));
            LoggingEvent e = new LoggingEvent("x", ctx.getLogger("x"), Level.INFO, lines.get(i), null, null);
            e.setTimeStamp(times.get(i));
            rfa.doAppend(e);
            await(policy, "compressionFuture");
            await(policy, "cleanUpFuture");
            clock.set(times.get(i));
            writeLine(sink, lines.get(i));
            List<String> expected = names(theirs);
            List<String> actual = new ArrayList<>();
            for (String name : names(ours)) {
                // a leftover stands for the archive it is due to become
                actual.add(!name.endsWith(".gz") && expected.contains(name + ".gz") && !expected.contains(name) ? name + ".gz" : name);
            }
            java.util.Collections.sort(actual);
            int line = i;
            assertEquals(expected, actual, () -> "after line " + line + ": " + statuses);
        }
        rfa.stop();
        ctx.stop();
        inOrder.shutdown();
        sink.close();
        assertTrue(!statuses.isEmpty(), "some compressions failed");
        for (String status : statuses) {
            assertTrue(status.startsWith("ERROR ") && status.contains("could not compress"), status);
        }
        TreeMap<String, List<String>> expected = read(theirs);
        assertTrue(expected.keySet().stream().filter(n -> n.endsWith(".gz")).count() >= 2, "rolled: " + expected.keySet());
        assertSameFiles(expected, read(ours));
    }

    /** @return the regular files directly in {@code dir}, by name, sorted */
    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).sorted().collect(java.util.stream.Collectors.toList());
        }
    }

    /**
     * The repeated hour of a DST fall-back (America/New_York, 2026-11-01 01:00 twice), hourly
     * archives: the same files as logback, retention and {@code %i} included.
     */
    @ParameterizedTest(name = "{0} max={1} history={2} file={3}")
    @CsvSource(delimiter = '|', value = {
        "app-%d{yyyy-MM-dd_HH, America/New_York}.log.gz    |      | 2 | true",
        "app-%d{yyyy-MM-dd_HH, America/New_York}.log       |      | 2 | false",
        "app-%d{yyyy-MM-dd_HH, America/New_York}.%i.log.gz | 700  | 2 | true",
        "app-%d{yyyy-MM-dd_HH, America/New_York}.%i.log    | 700  | 3 | false",
        "app-%d{yyyy-MM-dd_HH, America/New_York}.log.gz    |      | 10 | true",
        "app-%d{yyyy-MM-dd_HH, America/New_York}.log       |      | 10 | true",
    })
    void theRepeatedHourOfAFallBackAsLogbackDoes(String pattern, String maxFileSize, String maxHistory, boolean withFile)
            throws Exception {
        long start = Instant.parse("2026-11-01T03:10:00Z").toEpochMilli(); // 23:10 EDT
        List<long[]> times = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 240; i++) {
            times.add(new long[] {start + i * 90_000L}); // 6 hours
            lines.add("line " + i + " " + "x".repeat(random.nextInt(10, 60)));
        }
        Path theirs = Files.createDirectory(dir.resolve("logback"));
        Path ours = Files.createDirectory(dir.resolve("spool"));
        runLogback(theirs, pattern, maxFileSize, maxHistory, null, withFile, times, lines);
        runSpool(ours, pattern, maxFileSize, maxHistory, null, withFile, times, lines);
        assertSameFiles(read(theirs), read(ours));
    }

    /**
     * A restart on the same day, without {@code <file>}: the second run continues the numbering and
     * the compression of what the first left (its last, uncompressed file included), as logback does.
     */
    @ParameterizedTest(name = "{0} file={1}")
    @CsvSource(delimiter = '|', value = {
        "app-%d{yyyy-MM-dd, UTC}.%i.log.gz | false",
        "app-%d{yyyy-MM-dd, UTC}.%i.log.gz | true",
        "app-%d{yyyy-MM-dd, UTC}.%i.log    | false",
    })
    void aRestartOnTheSameDayContinuesAsLogbackDoes(String pattern, boolean withFile) throws Exception {
        long start = Instant.parse("2026-02-20T03:00:00Z").toEpochMilli();
        List<long[]> times = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 200; i++) {
            times.add(new long[] {start + i * 60_000L});
            lines.add("line " + i + " " + "x".repeat(random.nextInt(10, 120)));
        }
        Path theirs = Files.createDirectory(dir.resolve("logback"));
        Path ours = Files.createDirectory(dir.resolve("spool"));
        for (int run = 0; run < 2; run++) {
            List<long[]> t = times.subList(run * 100, run * 100 + 100);
            List<String> l = lines.subList(run * 100, run * 100 + 100);
            runLogback(theirs, pattern, "1KB", "5", null, withFile, t, l);
            runSpool(ours, pattern, "1KB", "5", null, withFile, t, l);
            for (Path d : List.of(theirs, ours)) {
                // Both read the period of a <file> left by a run from its modification time: the
                // simulated time of its last line, not the wall clock of this test.
                if (Files.exists(d.resolve("app.log"))) {
                    Files.setLastModifiedTime(d.resolve("app.log"),
                            java.nio.file.attribute.FileTime.fromMillis(t.get(t.size() - 1)[0]));
                }
            }
        }
        assertSameFiles(read(theirs), read(ours));
    }

    /**
     * {@code cleanHistoryOnStart}: archives of many past days lie in the directory when the
     * appender starts; logback and Spool delete the same ones (logback looks back 32 days at most).
     */
    @ParameterizedTest(name = "maxHistory={0}")
    @CsvSource({"3", "10", "40"})
    void cleanHistoryOnStartDeletesWhatLogbackDeletes(int maxHistory) throws Exception {
        long now = Instant.parse("2026-03-20T12:00:00Z").toEpochMilli();
        Path theirs = Files.createDirectory(dir.resolve("logback"));
        Path ours = Files.createDirectory(dir.resolve("spool"));
        for (Path d : List.of(theirs, ours)) {
            for (int day = 1; day <= 60; day++) {
                String date = java.time.LocalDate.parse("2026-03-20").minusDays(day).toString();
                Files.writeString(d.resolve("app-" + date + ".log"), "day " + day + "\n");
            }
        }
        String pattern = "app-%d{yyyy-MM-dd, UTC}.log";

        LoggerContext ctx = context();
        RollingFileAppender<ILoggingEvent> rfa = messageAppender(ctx, theirs.resolve("app.log"));
        TimeBasedRollingPolicy<ILoggingEvent> policy = new TimeBasedRollingPolicy<>();
        policy.setContext(ctx);
        policy.setParent(rfa);
        policy.setFileNamePattern(theirs.resolve(pattern).toString());
        policy.setMaxHistory(maxHistory);
        policy.setCleanHistoryOnStart(true);
        DefaultTimeBasedFileNamingAndTriggeringPolicy<ILoggingEvent> naming = new DefaultTimeBasedFileNamingAndTriggeringPolicy<>();
        naming.setCurrentTime(now);
        policy.setTimeBasedFileNamingAndTriggeringPolicy(naming);
        policy.start();
        await(policy, "cleanUpFuture");
        rfa.setRollingPolicy(policy);
        rfa.start();
        rfa.stop();
        ctx.stop();

        RollingElements elements = new RollingElements();
        elements.fileNamePattern = ours.resolve(pattern).toString();
        elements.maxHistory = Integer.toString(maxHistory);
        elements.cleanHistoryOnStart = "true";
        List<String> statuses = new ArrayList<>();
        RollingPolicy ourPolicy = elements.read(new SettingsReader("ours", (l, m, c) -> statuses.add(m)), ours.resolve("app.log"));
        RollingFileSink sink = RollingFileSink.open(ourPolicy, true, new ManualClock(now), "ours", (l, m, c) -> statuses.add(m));
        assertTrue(sink.awaitArchives(10_000));
        sink.close();
        assertEquals(List.of(), statuses);

        TreeMap<String, List<String>> expected = read(theirs);
        TreeMap<String, List<String>> actual = read(ours);
        assertTrue(expected.size() < 61, "logback deleted some: " + expected.size());
        assertEquals(expected.keySet(), actual.keySet());
    }

    /**
     * {@code FixedWindowRollingPolicy} with {@code SizeBasedTriggeringPolicy}: the same archives,
     * renamed up the same window, the oldest dropped at the same line. logback checks the file's size
     * at most once per {@code checkIncrement} (60 s by default) of the wall clock; set to 0 here it
     * checks before every line, as Spool always does, so that both roll at the same lines.
     */
    @ParameterizedTest(name = "{0} window={1}..{2} max={3}")
    @CsvSource(delimiter = '|', value = {
        "app.%i.log      | 1 | 3  | 1KB",
        "app.%i.log      | 2 | 5  | 700",
        "app-%i.log.gz   | 1 | 4  | 2KB",
        "app.%i.log      | 1 | 1  | 600",
        "app.%i.log      | 3 | 23 | 500",
    })
    void fixedWindowSameFilesAndLinesAsRollingFileAppender(String pattern, int minIndex, int maxIndex, String maxFileSize)
            throws Exception {
        List<String> lines = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(pattern.hashCode() * 31L + maxIndex);
        for (int i = 0; i < 600; i++) {
            lines.add("line " + i + " " + "x".repeat(random.nextInt(10, 120)));
        }
        Path theirs = Files.createDirectory(dir.resolve("logback"));
        Path ours = Files.createDirectory(dir.resolve("spool"));

        LoggerContext ctx = context();
        RollingFileAppender<ILoggingEvent> rfa = messageAppender(ctx, theirs.resolve("app.log"));
        FixedWindowRollingPolicy policy = new FixedWindowRollingPolicy();
        policy.setContext(ctx);
        policy.setParent(rfa);
        policy.setFileNamePattern(theirs.resolve(pattern).toString());
        policy.setMinIndex(minIndex);
        policy.setMaxIndex(maxIndex);
        policy.start();
        SizeBasedTriggeringPolicy<ILoggingEvent> trigger = new SizeBasedTriggeringPolicy<>();
        trigger.setContext(ctx);
        trigger.setMaxFileSize(FileSize.valueOf(maxFileSize));
        trigger.setCheckIncrement(Duration.buildByMilliseconds(0));
        trigger.start();
        rfa.setRollingPolicy(policy);
        rfa.setTriggeringPolicy(trigger);
        rfa.start();
        assertTrue(rfa.isStarted());
        for (String line : lines) {
            rfa.doAppend(new LoggingEvent("x", ctx.getLogger("x"), Level.INFO, line, null, null));
        }
        rfa.stop();
        ctx.stop();

        List<String> statuses = new ArrayList<>();
        RollingElements elements = new RollingElements();
        elements.fileNamePattern = ours.resolve(pattern).toString();
        elements.minIndex = Integer.toString(minIndex);
        elements.maxIndex = Integer.toString(maxIndex);
        elements.maxFileSize = maxFileSize;
        RollingPolicy ourPolicy = elements.read(new SettingsReader("ours", (l, m, c) -> statuses.add(l + " " + m)),
                ours.resolve("app.log"));
        assertEquals(List.of(), statuses);
        RollingFileSink sink = RollingFileSink.open(ourPolicy, true, new ManualClock(0), "ours",
                (l, m, c) -> statuses.add(l + " " + m));
        for (String line : lines) {
            writeLine(sink, line);
        }
        sink.close();
        assertEquals(List.of(), statuses);

        TreeMap<String, List<String>> expected = read(theirs);
        TreeMap<String, List<String>> actual = read(ours);
        assertEquals(maxIndex - minIndex + 2, expected.size(), "the window and the active file: " + expected.keySet());
        assertSameFiles(expected, actual);
    }

    /**
     * Events with stack traces through logback's {@code RollingFileAppender} and through
     * {@code SpoolAppender} (both configured by Joran from the same XML, only the class differs),
     * rolling by size: the same archives with the same lines, so no stack trace is split across
     * two files. Spool's writer takes many events per batch here; the rollover still falls between
     * two events, where logback's check before each event puts it.
     */
    @ParameterizedTest(name = "render={0}")
    @CsvSource({"caller", "writer"})
    void multiLineEventsStayWholeAcrossSizeRollovers(String render) throws Exception {
        Path theirs = Files.createDirectory(dir.resolve("logback"));
        Path ours = Files.createDirectory(dir.resolve("spool"));
        logStackTraces(rollingFileAppender(theirs));
        logStackTraces(joran(ours, SpoolAppender.class.getName(), "<render>" + render + "</render>",
                " class='" + SpoolEncoder.class.getName() + "'"));
        TreeMap<String, List<String>> expected = read(theirs);
        TreeMap<String, List<String>> actual = read(ours);
        assertTrue(expected.size() > 10, "rolled: " + expected.keySet());
        assertSameFiles(expected, actual);
    }

    /** logback's appender, built as its own tests build it (Joran left it without a working size check here). */
    private static LoggerContext rollingFileAppender(Path out) {
        LoggerContext ctx = context();
        RollingFileAppender<ILoggingEvent> rfa = new RollingFileAppender<>();
        rfa.setContext(ctx);
        rfa.setName("R");
        rfa.setFile(out.resolve("app.log").toString());
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(ctx);
        encoder.setPattern("%-5level %logger - %msg%n");
        encoder.start();
        rfa.setEncoder(encoder);
        FixedWindowRollingPolicy policy = new FixedWindowRollingPolicy();
        policy.setContext(ctx);
        policy.setParent(rfa);
        policy.setFileNamePattern(out.resolve("app.%i.log").toString());
        policy.setMinIndex(1);
        policy.setMaxIndex(20);
        policy.start();
        SizeBasedTriggeringPolicy<ILoggingEvent> trigger = new SizeBasedTriggeringPolicy<>();
        trigger.setContext(ctx);
        trigger.setMaxFileSize(FileSize.valueOf("4KB"));
        trigger.setCheckIncrement(Duration.buildByMilliseconds(0));
        trigger.start();
        rfa.setRollingPolicy(policy);
        rfa.setTriggeringPolicy(trigger);
        rfa.start();
        assertTrue(rfa.isStarted());
        ctx.getLogger("ROOT").addAppender(rfa);
        return ctx;
    }

    private static LoggerContext joran(Path out, String appenderClass, String extra, String encoderClass) throws Exception {
        String xml = "<configuration><appender name='R' class='" + appenderClass + "'>"
                + "<file>" + out.resolve("app.log") + "</file>" + extra
                + "<rollingPolicy class='ch.qos.logback.core.rolling.FixedWindowRollingPolicy'>"
                + "<fileNamePattern>" + out.resolve("app.%i.log") + "</fileNamePattern>"
                + "<minIndex>1</minIndex><maxIndex>20</maxIndex></rollingPolicy>"
                + "<triggeringPolicy class='ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy'>"
                + "<maxFileSize>4KB</maxFileSize><checkIncrement>0 milliseconds</checkIncrement></triggeringPolicy>"
                + "<encoder" + encoderClass + "><pattern>%-5level %logger - %msg%n</pattern></encoder></appender>"
                + "<root level='info'><appender-ref ref='R'/></root></configuration>";
        LoggerContext ctx = new LoggerContext();
        ch.qos.logback.classic.joran.JoranConfigurator c = new ch.qos.logback.classic.joran.JoranConfigurator();
        c.setContext(ctx);
        c.doConfigure(new java.io.ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        for (ch.qos.logback.core.status.Status st : ctx.getStatusManager().getCopyOfStatusList()) {
            assertTrue(st.getLevel() < ch.qos.logback.core.status.Status.WARN, st::toString);
        }
        return ctx;
    }

    /** Seeded events, some with a stack trace of a few frames, logged as fast as they come. */
    private static void logStackTraces(LoggerContext ctx) {
        org.slf4j.Logger log = ctx.getLogger("traces");
        SeededTraces.log(log::info, log::warn);
        ctx.stop();
    }

    /** @return the highest level of logback's status messages while it ran */
    private static int runLogback(Path out, String pattern, String maxFileSize, String maxHistory, String totalSizeCap,
                                   boolean withFile, List<long[]> times, List<String> lines) throws Exception {
        LoggerContext ctx = context();
        RollingFileAppender<ILoggingEvent> rfa = messageAppender(ctx, withFile ? out.resolve("app.log") : null);
        TimeBasedRollingPolicy<ILoggingEvent> policy = new TimeBasedRollingPolicy<>();
        policy.setContext(ctx);
        policy.setParent(rfa);
        policy.setFileNamePattern(out.resolve(pattern).toString());
        if (maxHistory != null) {
            policy.setMaxHistory(Integer.parseInt(maxHistory));
        }
        if (totalSizeCap != null) {
            policy.setTotalSizeCap(FileSize.valueOf(totalSizeCap));
        }
        TimeBasedFileNamingAndTriggeringPolicyBase<ILoggingEvent> naming;
        if (maxFileSize != null) {
            // SizeAndTimeBasedRollingPolicy builds this itself at start; built here so that its
            // clock can be set before it starts (the same object, as logback's tests use it).
            SizeAndTimeBasedFileNamingAndTriggeringPolicy<ILoggingEvent> sat = new SizeAndTimeBasedFileNamingAndTriggeringPolicy<>();
            sat.setMaxFileSize(FileSize.valueOf(maxFileSize));
            naming = sat;
        } else {
            naming = new DefaultTimeBasedFileNamingAndTriggeringPolicy<>();
        }
        naming.setCurrentTime(times.get(0)[0]);
        policy.setTimeBasedFileNamingAndTriggeringPolicy(naming);
        policy.start();
        rfa.setRollingPolicy(policy);
        rfa.start();
        assertTrue(rfa.isStarted());
        for (int i = 0; i < lines.size(); i++) {
            naming.setCurrentTime(times.get(i)[0]);
            LoggingEvent e = new LoggingEvent("x", ctx.getLogger("x"), Level.INFO, lines.get(i), null, null);
            e.setTimeStamp(times.get(i)[0]);
            rfa.doAppend(e);
            await(policy, "compressionFuture");
            await(policy, "cleanUpFuture");
        }
        rfa.stop();
        int level = ctx.getStatusManager().getCopyOfStatusList().stream()
                // this harness builds the size-and-time naming policy itself, which logback calls deprecated
                .filter(st -> !st.getMessage().contains("SizeAndTimeBased") && !st.getMessage().contains("is deprecated"))
                .mapToInt(ch.qos.logback.core.status.Status::getLevel).max().orElse(0);
        ctx.stop();
        return level;
    }

    /** Waits for logback's asynchronous compression or clean-up, so that each step sees the last one's result. */
    private static void await(TimeBasedRollingPolicy<?> policy, String field) throws Exception {
        Field f = TimeBasedRollingPolicy.class.getDeclaredField(field);
        f.setAccessible(true);
        Future<?> future = (Future<?>) f.get(policy);
        if (future != null) {
            future.get();
        }
    }

    private static void runSpool(Path out, String pattern, String maxFileSize, String maxHistory, String totalSizeCap,
                                 boolean withFile, List<long[]> times, List<String> lines) throws IOException {
        runSpool(out, pattern, maxFileSize, maxHistory, totalSizeCap, withFile, times, lines, 0);
    }

    /** @return the status messages of reading the settings: {@code settingsStatuses} of them, and none later */
    private static List<String> runSpool(Path out, String pattern, String maxFileSize, String maxHistory, String totalSizeCap,
                                         boolean withFile, List<long[]> times, List<String> lines, int settingsStatuses)
            throws IOException {
        List<String> statuses = new ArrayList<>();
        SettingsReader r = new SettingsReader("ours", (level, message, cause) -> statuses.add(level + " " + message));
        RollingElements elements = new RollingElements();
        elements.fileNamePattern = out.resolve(pattern).toString();
        elements.maxFileSize = maxFileSize;
        elements.maxHistory = maxHistory;
        elements.totalSizeCap = totalSizeCap;
        RollingPolicy policy = elements.read(r, withFile ? out.resolve("app.log") : null);
        assertEquals(settingsStatuses, statuses.size(), statuses::toString);
        List<String> fromSettings = List.copyOf(statuses);
        statuses.clear();
        ManualClock clock = new ManualClock(times.get(0)[0]);
        RollingFileSink sink = RollingFileSink.open(policy, true, clock, "ours", (level, message, cause) -> statuses.add(level + " " + message));
        for (int i = 0; i < lines.size(); i++) {
            clock.set(times.get(i)[0]);
            writeLine(sink, lines.get(i));
        }
        sink.close();
        assertEquals(List.of(), statuses);
        return fromSettings;
    }

    private static LoggerContext context() {
        LoggerContext ctx = new LoggerContext();
        ctx.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        return ctx;
    }

    /** logback's {@code RollingFileAppender} writing {@code %msg%n} to {@code file} (none: the policy names it). */
    private static RollingFileAppender<ILoggingEvent> messageAppender(LoggerContext ctx, Path file) {
        RollingFileAppender<ILoggingEvent> rfa = new RollingFileAppender<>();
        rfa.setContext(ctx);
        rfa.setName("theirs");
        if (file != null) {
            rfa.setFile(file.toString());
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(ctx);
        encoder.setPattern("%msg%n");
        encoder.start();
        rfa.setEncoder(encoder);
        return rfa;
    }

    /** One line through Spool's sink, then its archive work, so that each step sees the last one's result. */
    private static void writeLine(RollingFileSink sink, String line) throws IOException {
        ByteBuffer[] b = {ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8))};
        while (b[0].hasRemaining()) {
            sink.write(b, 0, 1);
        }
        assertTrue(sink.awaitArchives(10_000));
    }

    private static void assertSameFiles(TreeMap<String, List<String>> expected, TreeMap<String, List<String>> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        for (String name : expected.keySet()) {
            assertEquals(expected.get(name), actual.get(name), name);
        }
    }

    private static TreeMap<String, List<String>> read(Path dir) throws IOException {
        TreeMap<String, List<String>> files = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) { // a pattern may put archives in directories of their own
            for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                String name = dir.relativize(f).toString();
                String text;
                if (name.endsWith(".gz")) {
                    try (InputStream in = new GZIPInputStream(Files.newInputStream(f))) {
                        text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                    }
                } else {
                    text = Files.readString(f);
                }
                files.put(name, List.of(text.split("\n")));
            }
        }
        return files;
    }
}
