// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import io.github.spool.StatusListener;
import io.github.spool.jfr.RolloverEvent;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The archives of one rolling file: which exist on disk, by period and index; shifting a window of
 * indexes (log4j2's {@code DefaultRolloverStrategy}, logback's {@code FixedWindowRollingPolicy});
 * and the work after each rollover, on the file's {@link ArchiveWorker} — compression, retention,
 * custom actions, and compressions that failed, retried — plus what a crashed run left unfinished.
 * The writer ({@link RollingFileSink}) names and renames; everything slow runs here, off the writer.
 */
final class Archives {
    private final RollingFileSink sink;
    private final RollingPolicy policy;
    private final FilePattern pattern;
    private final FilePattern plainPattern;
    private final Compression compression;
    /** The ordered archive thread (with its compressor threads). */
    final ArchiveWorker worker;
    private final Retention retention;
    /**
     * Archives whose compression failed (a full disk), by their uncompressed file (absolute), with
     * the compressed name they are due: kept and counted by {@link Retention} as that archive, and
     * compressed again before each later rollover's retention until it works. A compressor thread
     * adds; the ordered archive thread removes (compressed, or deleted by retention); the writer
     * removes or renames entries only while no archive work runs (a window shift waits for it) or
     * for a file it is about to compress anew.
     */
    private final ConcurrentHashMap<Path, Path> leftovers = new ConcurrentHashMap<>();

    Archives(RollingFileSink sink, RollingPolicy policy, FilePattern pattern, FilePattern plainPattern,
             Compression compression, RolloverCalendar calendar, String appender) {
        this.sink = sink;
        this.policy = policy;
        this.pattern = pattern;
        this.plainPattern = plainPattern;
        this.compression = compression;
        this.worker = new ArchiveWorker(appender);
        this.retention = new Retention(pattern, plainPattern, compression, calendar, policy.maxHistory(), policy.totalSizeCap(),
                leftovers::containsKey);
    }

    /** Ends and commits a {@link RolloverEvent} if a recording wants it. */
    static void rolled(RolloverEvent event, String phase, Path source, Path target, boolean succeeded) {
        event.end();
        if (event.shouldCommit()) {
            event.phase = phase;
            event.source = String.valueOf(source);
            event.target = String.valueOf(target);
            event.succeeded = succeeded;
            event.commit();
        }
    }

    /**
     * Whether the archive named {@code name} (under {@code p}, the pattern with or without its
     * compression suffix) belongs with the files named at {@code instant}: its primary date text
     * matches, or with logback's naming every date token's does, as logback's regex for a fixed
     * date requires.
     */
    boolean namedAt(FilePattern p, String name, long instant) {
        if (!pattern.hasDate()) {
            return true;
        }
        return policy.namedByOpeningTime() ? p.matchesAt(name, instant)
                : pattern.primaryDateText(instant).equals(p.primaryDateText(name));
    }

    /**
     * Makes room in a window of indexes, as log4j2's {@code DefaultRolloverStrategy} and logback's
     * {@code FixedWindowRollingPolicy} do, and returns the index of the new archive.
     */
    int shiftWindow(long periodStart, Path activePath) {
        TreeMap<Integer, Path> files = archivesByIndex(periodStart);
        int min = policy.minIndex();
        int max = policy.maxIndex();
        try {
            if (policy.indexing() == RollingPolicy.Indexing.NEWEST_HIGHEST) {
                // log4j2 purgeAscending: delete the lowest while the window is full, rename the rest one down
                boolean rename = !files.isEmpty() && files.lastKey() >= max;
                while (files.size() >= max - min + 1) {
                    Path lowest = files.pollFirstEntry().getValue();
                    Files.deleteIfExists(lowest);
                    leftovers.remove(absolute(lowest));
                    rename = true;
                }
                if (rename) {
                    for (var e : files.entrySet()) {
                        moveArchive(e.getValue(), e.getKey() - 1, periodStart, StandardCopyOption.ATOMIC_MOVE);
                    }
                    return files.isEmpty() ? min : Math.min(files.lastKey(), max);
                }
                return files.isEmpty() ? min : Math.min(files.lastKey() + 1, max);
            }
            // logback FixedWindowRollingPolicy: drop max, rename max-1..min one up
            Path last = files.get(max);
            if (last != null) {
                Files.deleteIfExists(last);
                leftovers.remove(absolute(last));
            }
            for (int i = max - 1; i >= min; i--) {
                Path p = files.get(i);
                if (p != null) {
                    moveArchive(p, i + 1, periodStart, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            sink.report(StatusListener.Level.WARN, "could not shift the archives of " + activePath + ": " + e, e);
        }
        return min;
    }

    /**
     * Renames archive {@code p} to {@code newIndex} in the window; a leftover of a failed
     * compression stays one, due under its new compressed name.
     */
    private void moveArchive(Path p, int newIndex, long periodStart, StandardCopyOption... options) throws IOException {
        Path to = renamedIndex(p, newIndex, periodStart);
        Files.move(p, to, options);
        if (leftovers.remove(absolute(p)) != null) {
            leftovers.put(absolute(to), Paths.get(pattern.format(periodStart, newIndex)));
        }
    }

    private static Path absolute(Path p) {
        return p.toAbsolutePath().normalize();
    }

    /** The name of archive {@code p} at {@code newIndex}, keeping whether it is compressed yet. */
    private Path renamedIndex(Path p, int newIndex, long periodStart) {
        String name = pattern.format(periodStart, newIndex);
        return Paths.get(pattern.matches(p.toString()) ? name : compression.strip(name));
    }

    /** A name for the uncompressed archive that overwrites nothing (a repeated hour, a restart). */
    static Path free(Path plain, Path target) {
        if (!Files.exists(plain) && !Files.exists(target)) {
            return plain;
        }
        for (int n = 1; ; n++) {
            Path p = Paths.get(plain + "." + n);
            if (!Files.exists(p) && !Files.exists(Paths.get(p + target.toString().substring(plain.toString().length())))) {
                return p;
            }
        }
    }

    /** Compression on a compressor thread, then retention and custom actions in rollover order. */
    void queueArchive(Path source, Path target, long now, Path active) {
        if (source.equals(target)) {
            worker.submit(() -> runRetention(now, active));
        } else {
            leftovers.remove(absolute(source)); // compressed anew: no longer a leftover to retry
            worker.submit(() -> compress(source, target), () -> runRetention(now, active));
        }
    }

    private void compress(Path source, Path target) {
        RolloverEvent event = new RolloverEvent();
        event.begin();
        try {
            compression.compress(source, target);
            rolled(event, "compress", source, target, true);
        } catch (IOException | RuntimeException e) {
            rolled(event, "compress", source, target, false);
            leftovers.put(absolute(source), target);
            sink.report(StatusListener.Level.ERROR, "could not compress " + source + " to " + target
                    + " (" + e + "); the file is kept uncompressed, and compressed at a later rollover", e);
        }
    }

    /**
     * Compresses again the archives whose compression failed, on the ordered thread before
     * retention, so that retention sees them compressed once the disk has room. A retry that fails
     * too says nothing more (the first failure was reported) and leaves the file for the next one.
     * logback deletes the source even after a failed compression and log4j2 never retries; Spool
     * keeps the lines and ends with the files a compression that worked would have left.
     */
    private void retryLeftovers() {
        for (java.util.Map.Entry<Path, Path> e : leftovers.entrySet()) {
            Path source = e.getKey();
            Path target = e.getValue();
            try {
                if (!Files.exists(source)) {
                    leftovers.remove(source, target); // deleted by retention with its period
                } else if (Files.exists(target)) {
                    // compressed before, and only deleting the source failed
                    Files.delete(source);
                    leftovers.remove(source, target);
                } else {
                    compression.compress(source, target);
                    leftovers.remove(source, target);
                }
            } catch (IOException | RuntimeException ignored) {
                // still failing: kept, counted by retention, tried again after the next rollover
            }
        }
    }

    void runRetention(long now, Path active) {
        if (!leftovers.isEmpty()) {
            retryLeftovers();
        }
        try {
            retention.apply(now, active);
        } catch (IOException | RuntimeException e) {
            sink.report(StatusListener.Level.WARN, "removing old archives failed: " + e, e);
        }
        for (Runnable action : policy.afterRollover()) {
            try {
                action.run();
            } catch (RuntimeException e) {
                sink.report(StatusListener.Level.ERROR, "a rollover action failed: " + e, e);
            }
        }
    }

    /**
     * Finishes what a previous run's archive thread left: an uncompressed archive whose compressed
     * twin exists is a compression that completed before a crash (its source is deleted); one
     * without it is compressed now; a stale {@code .tmp} is removed.
     *
     * @return what queues the compressions, run after the archive numbering has been read
     */
    List<Runnable> recover(long now, Predicate<Path> activeCandidate) {
        List<Runnable> tasks = new ArrayList<>();
        if (compression == Compression.NONE) {
            return tasks;
        }
        Path dir = patternDir(now);
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                for (Path e : entries) {
                    String s = asPatternPath(dir, e);
                    if (s.endsWith(compression.suffix + ".tmp") && pattern.matches(s.substring(0, s.length() - 4))) {
                        Files.deleteIfExists(e);
                    } else if (plainPattern.matches(s) && !pattern.matches(s) && !activeCandidate.test(e)) {
                        Path compressed = Paths.get(s + compression.suffix);
                        if (Files.exists(compressed)) {
                            Files.delete(e);
                        } else {
                            Path source = Paths.get(s);
                            tasks.add(() -> queueArchive(source, compressed, now, null));
                        }
                    }
                }
            } catch (IOException e) {
                sink.report(StatusListener.Level.WARN, "could not look for unfinished archives in " + dir + ": " + e, e);
            }
        }
        return tasks;
    }

    /**
     * The directory of the archives of the period holding {@code epochMillis} (a pattern may put the
     * date in a directory name; recovery looks in the current period's).
     */
    private Path patternDir(long epochMillis) {
        Path probe = Paths.get(pattern.format(epochMillis, 0));
        return probe.getParent() == null ? Paths.get(".") : probe.getParent();
    }

    private static String asPatternPath(Path dir, Path entry) {
        return dir.equals(Paths.get(".")) ? entry.getFileName().toString() : dir.resolve(entry.getFileName()).toString();
    }

    /** @return the highest {@code %i} among the archives of the period (compressed or not), or -1 */
    int highestIndex(long period) {
        TreeMap<Integer, Path> files = archivesByIndex(period);
        return files.isEmpty() ? -1 : files.lastKey();
    }

    /** The archives of one period by index: compressed ones, and uncompressed ones awaiting compression. */
    TreeMap<Integer, Path> archivesByIndex(long period) {
        TreeMap<Integer, Path> files = new TreeMap<>();
        Path dir = patternDir(period);
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path e : entries) {
                String s = asPatternPath(dir, e);
                FilePattern p = pattern.matches(s) ? pattern : plainPattern.matches(s) ? plainPattern : null;
                if (p == null || !namedAt(p, s, period)) {
                    continue;
                }
                int i = p.indexOf(s);
                if (i >= 0) {
                    files.merge(i, Paths.get(s), (a, b) -> pattern.matches(a.toString()) ? a : b);
                }
            }
        } catch (IOException e) {
            sink.report(StatusListener.Level.WARN, "could not list " + dir + ": " + e, e);
        }
        return files;
    }
}
