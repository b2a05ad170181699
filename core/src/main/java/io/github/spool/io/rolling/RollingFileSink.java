// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import io.github.spool.StatusListener;
import io.github.spool.jfr.RolloverEvent;
import io.github.spool.io.Sink;
import io.github.spool.time.MillisClock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A file sink that rolls, on the writer thread. Only the writer calls {@link #write}; a rollover
 * is a close, a rename and an open between two writes (tens of microseconds), while producers go
 * on appending to the ring. Compression, retention and log4j2's custom actions run on the file's
 * {@link ArchiveWorker}, never on the writer or a producer.
 *
 * <p>Triggers are checked only between whole records (never inside a batch that the file took in
 * part, nor inside a record longer than one write), so an event is never split between two files.
 * A size trigger cuts a batch after the record during which the file reached the limit: the
 * frameworks' appenders check the size before each event, so the event that crosses the limit
 * stays whole in the file and the next one starts the next file. Where the records end comes from
 * the writer ({@link #recordEnds}); a write it says nothing about is cut at line ends. A time trigger reads the
 * writer's clock (the cached clock) when a batch is written: a line logged in the last moments of
 * a period can land in the next period's file, as with logback's {@code AsyncAppender} in front of
 * a {@code RollingFileAppender}.
 *
 * <p>logrotate: at most once a second (on a write, or on the writer's idle pass) the writer
 * compares the identity (device and inode) of the file at the active path with the one it has
 * open; a file renamed or deleted under it ({@code create} mode) is closed and the path opened
 * again. A file truncated under it ({@code copytruncate}) needs nothing: it is opened with
 * {@code O_APPEND}; only the size count is corrected. {@link #requestReopen()} asks for the same
 * from any thread (the MBean's {@code reopen()}).
 *
 * <p>Without a {@link RollingPolicy} it is a plain file with the logrotate handling.
 */
public final class RollingFileSink implements Sink {

    /** Least time between two identity checks of the active file. */
    static final long IDENTITY_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Longest the writer waits for earlier archive work before a window of indexes shifts. */
    static final long SHIFT_WAIT_MILLIS = 60_000;
    /** Longest {@link #close()} lets queued compressions finish; the next start does the rest. */
    static final long CLOSE_WAIT_MILLIS = 5_000;

    private enum Trigger { TIME, SIZE, STARTUP }

    private final RollingPolicy policy;
    private final Path configuredFile;
    private final FilePattern pattern;
    private final FilePattern plainPattern;
    private final Compression compression;
    private final RolloverCalendar calendar;
    private final MillisClock clock;
    /** The archives and the work after each rollover; {@code null} for a plain file. */
    private final Archives archives;
    private final String appender;
    private final StatusListener status;

    private FileChannel channel;
    private Path activePath;
    private Object fileKey;
    private long size;
    private long periodStart;
    /**
     * logback's {@code dateInCurrentPeriod}: the instant the current file was opened (start-up, the
     * last modification of a {@code <file>} left by an earlier run, or the time rollover that opened
     * it). logback names files by it, so a date token finer than the period (a second {@code %d}
     * without {@code aux}) shows that instant, not the period's start.
     */
    private long nameTime;
    private long nextBoundary = Long.MAX_VALUE;
    private int index;
    private int lastIndex;
    private String lastIndexDate;
    private boolean partial;
    /** Whether the last write ended inside a record: the next write continues it, in this file. */
    private boolean midRecord;
    /** The record ends of the next write ({@link #recordEnds}); {@code endCount < 0}: not known. */
    private int[] ends;
    private int endFrom;
    private int endCount = -1;
    private int endBase;
    private long nextIdentityCheckNanos;
    private long identityCheckNanos = IDENTITY_CHECK_NANOS;
    private boolean renameFailureReported;
    private volatile boolean reopenRequested;
    private volatile long rollovers;

    private RollingFileSink(Path file, RollingPolicy policy, MillisClock clock, String appender, StatusListener status) {
        this.policy = policy;
        this.configuredFile = file;
        this.clock = clock;
        this.appender = appender;
        this.status = status;
        if (policy == null) {
            pattern = null;
            plainPattern = null;
            compression = Compression.NONE;
            calendar = null;
            archives = null;
        } else {
            pattern = FilePattern.parse(policy.filePattern(), policy.zone(), policy.locale());
            compression = Compression.of(policy.filePattern());
            plainPattern = compression == Compression.NONE ? pattern
                    : FilePattern.parse(compression.strip(policy.filePattern()), policy.zone(), policy.locale());
            calendar = pattern.hasDate() && pattern.period() != null
                    ? new RolloverCalendar(pattern.period(), pattern.zone(), policy.locale(), policy.interval(), policy.modulate(),
                            policy.wallClockHours())
                    : null;
            archives = new Archives(this, policy, pattern, plainPattern, compression, calendar, appender);
        }
    }

    /**
     * Opens a file that does not roll (only the logrotate handling).
     *
     * @param file     the file
     * @param append   {@code false} to truncate it first
     * @param appender the appender's name, for status messages
     * @param status   where status messages go
     * @return the sink
     * @throws IOException if the file cannot be opened
     */
    public static RollingFileSink plain(Path file, boolean append, String appender, StatusListener status) throws IOException {
        RollingFileSink sink = new RollingFileSink(file, null, System::currentTimeMillis, appender, status);
        sink.activePath = file;
        sink.openActive(append);
        return sink;
    }

    /**
     * Opens a rolling file: finishes the archive work a previous run left (a compression cut off
     * by a crash), continues the numbering of the archives on disk, and opens the active file.
     *
     * @param policy   how it rolls
     * @param append   {@code false} to truncate an existing active file first
     * @param clock    the clock of time rollovers (the cached clock)
     * @param appender the appender's name, for status messages and the archive thread's name
     * @param status   where status messages go
     * @return the sink
     * @throws IOException if the active file cannot be opened
     */
    public static RollingFileSink open(RollingPolicy policy, boolean append, MillisClock clock, String appender,
                                       StatusListener status) throws IOException {
        RollingFileSink sink = new RollingFileSink(policy.activeFile(), Objects.requireNonNull(policy, "policy"),
                clock, appender, status);
        sink.start(append);
        return sink;
    }

    private void start(boolean append) throws IOException {
        // Find the unfinished archives first, but queue their compressions only after the numbering
        // has been read from the directory: a compression renaming files under that scan could hide
        // an index from it (a directory listing does not promise to show entries renamed during it).
        long now = clock.currentTimeMillis();
        List<Runnable> recovery = archives.recover(now, this::isActiveCandidate);
        periodStart = now;
        if (configuredFile != null && append) {
            try {
                BasicFileAttributes a = Files.readAttributes(configuredFile, BasicFileAttributes.class);
                if (a.size() > 0) {
                    // As logback: a file left by an earlier run belongs to the period it was last written in.
                    periodStart = Math.min(now, a.lastModifiedTime().toMillis());
                }
            } catch (IOException ignored) {
                // no file yet
            }
        }
        nameTime = periodStart;
        if (calendar != null) {
            periodStart = calendar.periodStart(periodStart);
            nextBoundary = policy.timeBased() ? calendar.nextBoundary(periodStart) : Long.MAX_VALUE;
            nameByWindowEnd();
        }
        if (policy.indexing() == RollingPolicy.Indexing.PER_PERIOD) {
            TreeMap<Integer, Path> onDisk = archives.archivesByIndex(nameInstant());
            int highest = onDisk.isEmpty() ? -1 : onDisk.lastKey();
            // logback: with <file>, continue after the highest archive. Without it the active file is
            // named as an archive and left uncompressed by the last run: continue in it (logback's
            // SizeAndTimeBasedFNATP counts only names without the compression suffix), so that its
            // next rollover compresses it; only a compressed highest one is closed for good.
            boolean closed = configuredFile != null || (highest >= 0 && pattern.matches(onDisk.get(highest).toString())
                    && compression != Compression.NONE);
            index = highest < 0 ? 0 : closed ? highest + 1 : highest;
        }
        activePath = configuredFile != null ? configuredFile : Paths.get(plainPattern.format(nameInstant(), index));
        openActive(append);
        if (append) {
            endCutLine();
        }
        for (Runnable queue : recovery) {
            queue.run();
        }
        if (policy.rollOnStartup() && size > 0 && size >= policy.onStartupMinSize()) {
            rollover(Trigger.STARTUP);
        }
        if (policy.cleanHistoryOnStart()) {
            long at = now;
            Path active = activePath;
            archives.worker.submit(() -> archives.runRetention(at, active));
        }
    }

    @Override
    public boolean needsRecordEnds() {
        return policy != null && policy.maxFileSize() > 0;
    }

    @Override
    public void recordEnds(int[] ends, int from, int count, int base) {
        this.ends = ends;
        this.endFrom = from;
        this.endCount = ends == null ? -1 : count;
        this.endBase = base;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        int[] e = ends;
        int eFrom = endFrom;
        int eCount = endCount;
        int eBase = endBase;
        endCount = -1; // good for this write only
        if (!partial && !midRecord) {
            checks();
        }
        if (channel == null) {
            openActive(true); // reopening failed earlier: try again, and fail this write if it still fails
        }
        long total = 0;
        for (int i = 0; i < length; i++) {
            total += srcs[offset + i].remaining();
        }
        long offered = total;
        long limit = sizeLimit();
        if (limit > 0 && !partial && !midRecord) {
            // Records that start before the limit go into this file, as the frameworks decide event
            // by event: stop at the first record end at or past the room left.
            long room = limit - size;
            long cutAt = eCount >= 0 ? recordEndAtOrAfter(e, eFrom, eCount, eBase, room)
                    : lineEndAtOrAfter(srcs, offset, length, room);
            if (cutAt > 0 && cutAt < total) {
                offered = cutAt;
            }
        }
        int count = length;
        int cut = -1;
        int cutLimit = 0;
        if (offered < total) {
            long left = offered;
            for (int i = 0; i < length; i++) {
                ByteBuffer b = srcs[offset + i];
                if (left <= b.remaining()) {
                    count = i + 1;
                    if (left < b.remaining()) {
                        cut = offset + i;
                        cutLimit = b.limit();
                        b.limit(b.position() + (int) left);
                    }
                    break;
                }
                left -= b.remaining();
            }
        }
        long n;
        try {
            n = count == 1 ? channel.write(srcs[offset]) : channel.write(srcs, offset, count);
        } finally {
            if (cut >= 0) {
                srcs[cut].limit(cutLimit);
            }
        }
        size += n;
        partial = n < offered;
        // Without ends the write is taken to end at a line end, as before the writer told them.
        midRecord = !partial && eCount >= 0 && !isRecordEnd(e, eFrom, eCount, eBase, offered);
        return n;
    }

    /** @return the first record end at or past {@code room} bytes into the write, or -1 */
    private static long recordEndAtOrAfter(int[] ends, int from, int count, int base, long room) {
        for (int i = from; i < from + count; i++) {
            if (ends[i] - base >= room) {
                return ends[i] - base;
            }
        }
        return -1;
    }

    private static boolean isRecordEnd(int[] ends, int from, int count, int base, long at) {
        for (int i = from + count - 1; i >= from; i--) {
            if (ends[i] - base == at) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return the first line end (or range end: ranges hold whole lines) at or past {@code room}
     *         bytes into the write, or -1
     */
    private static long lineEndAtOrAfter(ByteBuffer[] srcs, int offset, int length, long room) {
        long before = 0;
        for (int i = 0; i < length; i++) {
            ByteBuffer b = srcs[offset + i];
            int rem = b.remaining();
            if (before >= room && i > 0) {
                return before; // the limit falls between two ranges: stop at it
            }
            if (before + rem >= room) {
                int end = lineEndAfter(b, b.position() + (int) Math.max(0, room - before - 1));
                return end >= 0 ? before + end - b.position() : before + rem;
            }
            before += rem;
        }
        return -1;
    }

    /**
     * @return the size at which the file rolls before the next line: logback rolls a file that has
     *         reached {@code maxFileSize}, log4j2 one that is larger; {@code 0} without a size trigger
     */
    private long sizeLimit() {
        if (policy == null || policy.maxFileSize() <= 0) {
            return 0;
        }
        return policy.rollAboveMax() ? policy.maxFileSize() + 1 : policy.maxFileSize();
    }

    /** @return the index just past the first {@code '\n'} at or after {@code from}, or -1 */
    private static int lineEndAfter(ByteBuffer b, int from) {
        for (int i = Math.max(from, b.position()); i < b.limit(); i++) {
            if (b.get(i) == '\n') {
                return i + 1;
            }
        }
        return -1;
    }

    /** The writer's idle pass: the logrotate check, so that a moved file is noticed without traffic. */
    @Override
    public void idle() {
        if (!partial) {
            try {
                checksWithoutRolling();
            } catch (IOException e) {
                // reported where it happened; the next write retries
            }
        }
    }

    /** Asks the writer to close and reopen the active path before its next write (any thread). */
    @Override
    public void requestReopen() {
        reopenRequested = true;
    }

    /**
     * Waits for the archive work queued so far (tests, and a caller that must see the archives).
     *
     * @param timeoutMillis longest wait
     * @return whether it finished
     */
    public boolean awaitArchives(long timeoutMillis) {
        return archives == null || archives.worker.awaitIdle(timeoutMillis);
    }

    /** Test hook: the least time between identity checks. */
    void identityCheckEvery(long nanos) {
        identityCheckNanos = nanos;
        nextIdentityCheckNanos = System.nanoTime() + nanos;
    }

    /** @return rollovers done since start */
    public long rollovers() {
        return rollovers;
    }

    private void checks() throws IOException {
        checksWithoutRolling();
        if (policy == null || channel == null) {
            return;
        }
        if (nextBoundary != Long.MAX_VALUE && clock.currentTimeMillis() >= nextBoundary) {
            rollover(Trigger.TIME);
        } else if (sizeLimit() > 0 && size >= sizeLimit()) {
            rollover(Trigger.SIZE);
        }
    }

    private void checksWithoutRolling() throws IOException {
        if (reopenRequested) {
            reopenRequested = false;
            reopen("reopen requested");
            return;
        }
        long nowNanos = System.nanoTime();
        if (nowNanos - nextIdentityCheckNanos < 0) {
            return;
        }
        nextIdentityCheckNanos = nowNanos + identityCheckNanos;
        try {
            BasicFileAttributes a = Files.readAttributes(activePath, BasicFileAttributes.class);
            if (!Objects.equals(a.fileKey(), fileKey)) {
                reopen(activePath + " was replaced (renamed by logrotate?)");
            } else if (a.size() < size) {
                size = a.size(); // truncated under us (copytruncate): O_APPEND already writes at its end
            }
        } catch (NoSuchFileException e) {
            reopen(activePath + " was moved or deleted (logrotate?)");
        }
    }

    /**
     * Ends a last line that a killed run left without its separator. Linux checks for a fatal
     * signal between the pages of a {@code write(2)} to a file ({@code generic_perform_write}), so
     * SIGKILL can cut a batch short in the middle of a line; appending to that fragment would glue
     * the next run's first line to it. Nothing is removed: the fragment stays, as its own line.
     */
    private void endCutLine() throws IOException {
        if (size == 0) {
            return;
        }
        ByteBuffer last = ByteBuffer.allocate(1);
        try (FileChannel r = FileChannel.open(activePath, StandardOpenOption.READ)) {
            if (r.read(last, size - 1) != 1 || last.get(0) == '\n') {
                return;
            }
        } catch (IOException e) {
            return; // a file we may append to but not read (mode -w-): appending works as before
        }
        ByteBuffer separator = ByteBuffer.wrap(System.lineSeparator().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        while (separator.hasRemaining()) {
            size += channel.write(separator);
        }
        report(StatusListener.Level.WARN, activePath + " ended inside a line (the last write of a run that was killed?); "
                + "a line separator was added so that the next line starts on a line of its own", null);
    }

    private void reopen(String why) throws IOException {
        closeChannel();
        openActive(true);
        report(StatusListener.Level.INFO, why + "; reopened it", null);
    }

    private void openActive(boolean append) throws IOException {
        Path parent = activePath.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (!append) {
            FileChannel.open(activePath, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING).close();
        }
        FileChannel ch = FileChannel.open(activePath, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        try {
            fileKey = Files.readAttributes(activePath, BasicFileAttributes.class).fileKey();
            size = ch.size();
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        channel = ch;
        nextIdentityCheckNanos = System.nanoTime() + identityCheckNanos;
    }

    private void closeChannel() {
        FileChannel ch = channel;
        channel = null;
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                report(StatusListener.Level.WARN, "closing " + activePath + " failed", e);
            }
        }
    }

    private void rollover(Trigger trigger) throws IOException {
        long now = clock.currentTimeMillis();
        if (trigger == Trigger.SIZE && calendar != null && !policy.timeBased()) {
            // log4j2 with a size policy and no time policy: SizeBasedTriggeringPolicy's updateTime()
            // leaves PatternProcessor's prevFileTime at 0, so the archive's date is the time of the
            // rollover (formatFileName falls back to the current time), not the start-up's.
            periodStart = now;
        }
        if (size == 0 && trigger != Trigger.STARTUP) {
            // Nothing to archive (a period without a line): keep the file, move on in time.
            advance(trigger, now);
            return;
        }
        String name = archiveName(trigger);
        if (name == null) {
            return; // reported; keep writing the current file
        }
        Path target = Paths.get(name);
        Path plain = Paths.get(compression.strip(name));
        Path rolledFile = activePath;
        RolloverEvent event = new RolloverEvent();
        event.begin();
        closeChannel();
        try {
            if (configuredFile != null && policy.replaceArchives()) {
                // log4j2: the archive of that name is replaced (FileRenameAction, REPLACE_EXISTING).
                // Its compression must be over first, or it would delete the file renamed onto its source.
                if (compression != Compression.NONE && Files.exists(plain)) {
                    archives.worker.awaitIdle(SHIFT_WAIT_MILLIS);
                }
                createParent(plain);
                Files.move(activePath, plain, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else if (configuredFile != null) {
                plain = Archives.free(plain, target);
                target = Paths.get(plain + compression.suffix);
                createParent(plain);
                Files.move(activePath, plain, StandardCopyOption.ATOMIC_MOVE);
            } else {
                plain = activePath; // the active file is already named as its archive
            }
            renameFailureReported = false;
        } catch (IOException | RuntimeException e) {
            if (!renameFailureReported) {
                renameFailureReported = true;
                report(StatusListener.Level.ERROR, "could not roll " + activePath + " to " + plain + " (" + e
                        + "); writing on in " + activePath, e);
            }
            openActive(true);
            advance(trigger, now);
            Archives.rolled(event, "rename", rolledFile, plain, false);
            return;
        }
        advance(trigger, now);
        if (configuredFile == null) {
            activePath = Paths.get(plainPattern.format(nameInstant(), index));
        }
        openActive(true);
        rollovers++;
        Archives.rolled(event, "rename", rolledFile, plain, true);
        Path source = plain;
        Path archive = target;
        Path active = activePath; // read here: the archive thread must not read the writer's fields
        archives.queueArchive(source, archive, now, active);
    }

    private static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }

    /** Moves the period, the boundary and the per-period index on after a rollover. */
    private void advance(Trigger trigger, long now) {
        if (trigger == Trigger.TIME || calendar == null) {
            nameTime = now;
            if (calendar != null) {
                periodStart = calendar.periodStart(now);
                nextBoundary = policy.timeBased() ? calendar.nextBoundary(now) : Long.MAX_VALUE;
                nameByWindowEnd();
            } else {
                periodStart = now;
            }
            if (trigger == Trigger.TIME && policy.indexing() == RollingPolicy.Indexing.PER_PERIOD) {
                index = 0;
            }
        }
    }

    /** @return the instant the current file's name shows: see {@link #nameTime} */
    private long nameInstant() {
        return policy.namedByOpeningTime() ? nameTime : periodStart;
    }

    /**
     * log4j2's windows of several periods ({@code interval > 1}) are named by their last period
     * ({@link RolloverCalendar#nameTime}); one period is named by its start, as in both frameworks.
     */
    private void nameByWindowEnd() {
        if (policy.timeBased() && policy.interval() > 1) {
            periodStart = calendar.nameTime(nextBoundary);
        }
    }

    /** @return the archive's name (with its compression suffix), or {@code null} if the window cannot shift */
    private String archiveName(Trigger trigger) {
        switch (policy.indexing()) {
            case PER_PERIOD:
                return pattern.format(nameInstant(), trigger == Trigger.TIME ? index : index++);
            case NEXT_FREE: {
                // The scan can miss the newest archive while the archive thread renames it
                // (compression): never go below the index this sink handed out last.
                String date = pattern.primaryDateText(periodStart);
                int next = Math.max(archives.highestIndex(periodStart), 0) + 1;
                if (date.equals(lastIndexDate)) {
                    next = Math.max(next, lastIndex + 1);
                }
                lastIndexDate = date;
                lastIndex = next;
                return pattern.format(periodStart, next);
            }
            case NEWEST_HIGHEST:
            case NEWEST_LOWEST:
                if (!archives.worker.awaitIdle(SHIFT_WAIT_MILLIS)) {
                    report(StatusListener.Level.WARN, "archive work is " + SHIFT_WAIT_MILLIS / 1000
                            + " s behind; not rolling " + activePath + " this time", null);
                    return null;
                }
                return pattern.format(periodStart, archives.shiftWindow(periodStart, activePath));
            default:
                return pattern.format(nameInstant(), 0);
        }
    }

    /** Without {@code <file>} the newest pattern-named file is the active one, not an unfinished archive. */
    private boolean isActiveCandidate(Path p) {
        if (configuredFile != null) {
            return false;
        }
        long now = clock.currentTimeMillis();
        long start = policy.namedByOpeningTime() || calendar == null ? now : calendar.periodStart(now);
        return archives.namedAt(plainPattern, p.toString(), start) && plainPattern.indexOf(p.toString()) >= archives.highestIndex(start);
    }

    @Override
    public String describe() {
        return configuredFile != null ? configuredFile.toString() : policy.filePattern();
    }

    /** The active file's size as the file system has it (truncated by another process, too). */
    @Override
    public long sizeNow() {
        try {
            return channel == null ? -1 : channel.size();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void close() throws IOException {
        closeChannel();
        if (archives != null) {
            archives.worker.shutdown(CLOSE_WAIT_MILLIS);
        }
    }

    /** Status messages never throw into the writer. */
    void report(StatusListener.Level level, String message, Throwable cause) {
        try {
            status.status(level, "spool appender '" + appender + "': " + message, cause);
        } catch (RuntimeException ignored) {
            // a failing listener must not fail the writer
        }
    }
}
