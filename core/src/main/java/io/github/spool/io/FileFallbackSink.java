// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io;

import io.github.spool.StatusListener;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.util.concurrent.TimeUnit;

/**
 * A file that could not be opened, and the stderr sink its lines go to meanwhile. An appender whose
 * file cannot be created (a missing mount, a directory without permission, a typo in a path) must
 * not leave the application without logs: its lines go to stderr through the same ring, and the
 * writer thread tries the file again at most every {@code retryNanos}, on the next batch after the
 * interval (an idle appender costs no retries). When the file opens, one INFO status says so and
 * every later batch goes to the file.
 *
 * <p>The switch happens only between batches, never inside one that stderr took in part, so no
 * line is split between the two. Only the writer thread calls it. Internal to Spool.
 */
public final class FileFallbackSink implements Sink {

    /** System property: milliseconds between attempts to open a file that failed to open; default 5000. */
    public static final String RETRY_PROPERTY = "spool.fileRetryMillis";
    /** Default of {@link #RETRY_PROPERTY}. */
    public static final long DEFAULT_RETRY_MILLIS = 5_000;

    private final Opener opener;
    private final String description;
    private final Sink fallback;
    private final long retryNanos;
    private final String appender;
    private final StatusListener status;
    /** Written by the writer, read by {@link #requestReopen()} on any thread: volatile for that read. */
    private volatile Sink opened;
    private long nextAttemptNanos;
    private boolean midBatch;
    private long fallbackBytes;

    /** Opens the file's own sink; throws when the file cannot be opened. */
    @FunctionalInterface
    public interface Opener {
        /**
         * @return the sink of the file, open
         * @throws IOException if it cannot be opened
         */
        Sink open() throws IOException;
    }

    FileFallbackSink(Opener opener, String description, Sink fallback, long retryNanos, String appender,
                     StatusListener status) {
        this.opener = opener;
        this.description = description;
        this.fallback = fallback;
        this.retryNanos = retryNanos;
        this.appender = appender;
        this.status = status;
        this.nextAttemptNanos = System.nanoTime() + retryNanos;
    }

    /**
     * Opens a file's sink; if that fails, reports it (WARN) and returns a sink that writes to
     * {@code fallback} and retries the file.
     *
     * @param opener      opens the file's sink
     * @param description the file, for status messages
     * @param fallback    where lines go while the file cannot be opened (stderr)
     * @param retryMillis least time between attempts
     * @param appender    the appender's name, for status messages
     * @param status      where status messages go
     * @return the file's sink, or the fallback sink
     */
    public static Sink open(Opener opener, String description, Sink fallback, long retryMillis, String appender,
                            StatusListener status) {
        try {
            return opener.open();
        } catch (IOException | RuntimeException e) {
            long retryNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, retryMillis));
            // WARN, not ERROR: the appender runs (on the fallback) and nothing is lost, and an ERROR
            // would make Spring Boot stop the application ("Logback configuration error detected").
            status.status(StatusListener.Level.WARN, "spool appender '" + appender + "': cannot open file " + description
                    + " (" + reason(e) + "); writing this appender's lines to " + fallback.describe()
                    + " instead, through the same buffer, and retrying the file every " + describeInterval(retryNanos)
                    + " (-D" + RETRY_PROPERTY + ")", e);
            return new FileFallbackSink(opener, description, fallback, retryNanos, appender, status);
        }
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        if (opened == null && !midBatch && System.nanoTime() - nextAttemptNanos >= 0) {
            attempt();
        }
        if (opened != null) {
            return opened.write(srcs, offset, length);
        }
        long n = fallback.write(srcs, offset, length);
        fallbackBytes += n;
        midBatch = srcs[offset + length - 1].hasRemaining();
        return n;
    }

    private void attempt() {
        try {
            opened = opener.open();
        } catch (IOException | RuntimeException e) {
            nextAttemptNanos = System.nanoTime() + retryNanos;
            return;
        }
        try {
            status.status(StatusListener.Level.INFO, "spool appender '" + appender + "': file " + description
                    + " is open now; writing to it from here on (" + fallbackBytes + " bytes went to "
                    + fallback.describe() + " while it could not be opened)", null);
        } catch (RuntimeException ignored) {
            // a failing listener must not fail the write
        }
    }

    /** @return whether the file is open (else lines go to the fallback) */
    public boolean isFileOpen() {
        return opened != null;
    }

    /** @return the file's path: what the appender was configured with */
    @Override
    public String describe() {
        return description;
    }

    @Override
    public void idle() {
        Sink s = opened;
        if (s != null) {
            s.idle();
        }
    }

    @Override
    public long sizeNow() {
        Sink s = opened;
        return s != null ? s.sizeNow() : -1; // -1 on the fallback: a stream
    }

    @Override
    public void requestReopen() {
        Sink s = opened; // null: still on the fallback; the file opened later is fresh anyway
        if (s != null) {
            s.requestReopen();
        }
    }

    /** The file, once open, may roll by size: have the records framed from the start. */
    @Override
    public boolean needsRecordEnds() {
        return true;
    }

    @Override
    public void recordEnds(int[] ends, int from, int count, int base) {
        Sink s = opened;
        if (s != null) {
            s.recordEnds(ends, from, count, base);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            if (opened != null) {
                opened.close();
            }
        } finally {
            fallback.close();
        }
    }

    private static String reason(Exception e) {
        // Files.createDirectories names only the path in the way; say what is wrong with it.
        return e instanceof FileAlreadyExistsException ? e + " exists and is not a directory" : e.toString();
    }

    private static String describeInterval(long nanos) {
        long millis = TimeUnit.NANOSECONDS.toMillis(nanos);
        return millis % 1000 == 0 ? (millis / 1000) + " s" : millis + " ms";
    }
}
