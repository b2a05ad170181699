// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * logback's retention ({@code maxHistory}, {@code totalSizeCap}), with the results logback's
 * {@code TimeBasedArchiveRemover} gives for the same files and clock (logback-core 1.5,
 * {@code clean} and {@code capTotalSize}):
 * <ul>
 * <li>each run deletes the archives of the periods that fell out of the window since the previous
 * run: the period {@code maxHistory + 1} before now and as many before it as periods elapsed (the
 * first run looks back up to 336 periods, at most 32 days);</li>
 * <li>then, with a cap, it walks the last {@code maxHistory} periods from the newest, each period's
 * archives from the highest index down, and deletes every archive once the running total passes
 * the cap.</li>
 * </ul>
 * Archives count under their final (compressed) name, as in logback; so does an archive whose
 * compression failed (a full disk) and is still to be retried, which logback never has: its
 * {@code Compressor} deletes the source after a failed compression, leaving only the
 * {@code .gz}. Such a leftover is deleted with its period, and counts towards the cap with the
 * size its compressed archive would have, so that retention deletes what it would delete had the
 * compression worked. Runs on the archive thread only.
 */
final class Retention {

    /** logback's {@code MAX_VALUE_FOR_INACTIVITY_PERIODS}: 14 days of hourly periods. */
    static final int MAX_PERIODS_FIRST_RUN = 14 * 24;
    /** logback's {@code INACTIVITY_TOLERANCE_IN_MILLIS}: 32 days. */
    static final long FIRST_RUN_LOOK_BACK_MILLIS = 32L * 24 * 3600 * 1000;

    private final FilePattern pattern;
    private final FilePattern plainPattern;
    private final Compression compression;
    private final Predicate<Path> leftover;
    private final RolloverCalendar calendar;
    private final int maxHistory;
    private final long totalSizeCap;
    private long lastRunMillis = Long.MIN_VALUE;

    /**
     * @param plainPattern the pattern without its compression suffix
     * @param leftover     whether an uncompressed file (absolute, normalized) is an archive whose
     *                     compression failed and is still to be retried
     */
    Retention(FilePattern pattern, FilePattern plainPattern, Compression compression, RolloverCalendar calendar,
              int maxHistory, long totalSizeCap, Predicate<Path> leftover) {
        this.pattern = pattern;
        this.plainPattern = plainPattern;
        this.compression = compression;
        this.leftover = leftover;
        this.calendar = calendar;
        this.maxHistory = maxHistory;
        this.totalSizeCap = totalSizeCap;
    }

    /**
     * @param now    the clock's time of the rollover that asked for it
     * @param active the active file, never deleted
     */
    void apply(long now, Path active) throws IOException {
        if (maxHistory <= 0 || calendar == null) {
            return; // logback: totalSizeCap without maxHistory is ignored (with a warning at start)
        }
        int elapsed;
        if (lastRunMillis == Long.MIN_VALUE) {
            elapsed = (int) Math.min(periodsBetween(now, now + FIRST_RUN_LOOK_BACK_MILLIS), MAX_PERIODS_FIRST_RUN);
        } else {
            elapsed = (int) periodsBetween(lastRunMillis, now);
        }
        lastRunMillis = now;
        for (int i = 0; i < elapsed; i++) {
            for (Path p : archivesOf(calendar.periodStartShifted(now, -maxHistory - 1 - i), active)) {
                Files.deleteIfExists(p);
            }
        }
        if (totalSizeCap > 0) {
            long total = 0;
            for (int offset = 0; offset < maxHistory; offset++) {
                List<Path> files = archivesOf(calendar.periodStartShifted(now, -offset), active);
                files.sort(Comparator.comparingInt(this::indexOf).reversed());
                for (Path p : files) {
                    long size;
                    try {
                        size = pattern.matches(p.toString()) ? Files.size(p) : compression.compressedSize(p);
                    } catch (IOException e) {
                        continue;
                    }
                    total += size;
                    if (total > totalSizeCap) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
    }

    private int indexOf(Path p) {
        String s = p.toString();
        return pattern.matches(s) ? pattern.indexOf(s) : plainPattern.indexOf(s);
    }

    /** Period boundaries crossed going from {@code from} to {@code to}. */
    private long periodsBetween(long from, long to) {
        long n = 0;
        long start = calendar.periodStart(from);
        long end = calendar.periodStart(to);
        // Step by periods: months and DST days have no fixed length. Bounded by the callers' spans.
        while (start < end && n < MAX_PERIODS_FIRST_RUN * 64L) {
            start = calendar.periodStartShifted(start, 1);
            n++;
        }
        return n;
    }

    /**
     * The archives of the period starting at {@code period}: under the pattern's own (compressed)
     * name, and the leftovers of failed compressions under the name without the suffix.
     */
    private List<Path> archivesOf(long period, Path active) throws IOException {
        List<Path> out = new ArrayList<>();
        Path probe = Paths.get(pattern.format(period, 0));
        Path dir = probe.getParent() == null ? Paths.get(".") : probe.getParent();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path e : entries) {
                String s = dir.equals(Paths.get(".")) ? e.getFileName().toString() : dir.resolve(e.getFileName()).toString();
                // Every date token as at the period's start, an auxiliary or second one too, as
                // logback formats the names it looks for: archives named by another instant of the
                // period (a second %d finer than the period) stay, as with logback.
                Path p = Paths.get(s);
                Path absolute = p.toAbsolutePath().normalize();
                boolean archive = pattern.matchesAt(s, period)
                        || (compression != Compression.NONE && plainPattern.matchesAt(s, period) && leftover.test(absolute));
                if (archive && (active == null || !absolute.equals(active.toAbsolutePath().normalize()))) {
                    out.add(p);
                }
            }
        }
        return out;
    }
}
