// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io;

import io.github.spool.StatusListener;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.function.Supplier;

/**
 * A sink that writes each batch through the {@code System.out} (or {@code System.err}) current at
 * that batch — the {@code follow} option. Test frameworks (Surefire's forked JVMs, Spring Boot's
 * {@code OutputCaptureExtension}), IDE runners and tools replace those streams with
 * {@link System#setOut}; a sink on fd 1 never sees the replacement.
 *
 * <p>Modelled on log4j2 2.26.1's {@code ConsoleAppender} with {@code follow="true"}, whose
 * {@code SystemOutStream} delegates every {@code write} and {@code flush} to the current {@code
 * System.out}; logback 1.5's {@code ConsoleTarget} does the same for every {@code ConsoleAppender}.
 * Unlike those, the caller never touches the stream: the writer thread copies a whole batch into
 * one reusable array and hands it over with one {@code write(byte[], int, int)} and one flush
 * ({@link PrintStream#checkError()}, which flushes), so the stream's lock is taken once per batch,
 * not once per line. The array grows to the largest batch seen, up to {@link #MAX_CHUNK}; beyond
 * that a batch takes several writes.
 *
 * <p>A {@code PrintStream} swallows {@code IOException}s and only sets a flag ({@link
 * PrintStream#checkError()}), so lines lost inside the stream cannot be counted; the first time a
 * stream reports an error, one WARN status says so. Internal to Spool.
 */
public final class FollowingStreamSink implements Sink {

    /** Largest copy buffer: 1 MiB, four default cells. */
    static final int MAX_CHUNK = 1 << 20;
    private static final int INITIAL_CHUNK = 64 << 10;

    private final Supplier<PrintStream> current;
    private final String description;
    private final String appender;
    private final StatusListener status;
    private byte[] chunk = new byte[INITIAL_CHUNK];
    private PrintStream reportedBroken;

    FollowingStreamSink(Supplier<PrintStream> current, String description, String appender, StatusListener status) {
        this.current = current;
        this.description = description;
        this.appender = appender;
        this.status = status;
    }

    /**
     * @param appender the appender's name, for status messages
     * @param status   where a stream error is reported
     * @return a sink on the current {@code System.out}
     */
    public static FollowingStreamSink stdout(String appender, StatusListener status) {
        return new FollowingStreamSink(() -> System.out, "System.out", appender, status);
    }

    /**
     * @param appender the appender's name, for status messages
     * @param status   where a stream error is reported
     * @return a sink on the current {@code System.err}
     */
    public static FollowingStreamSink stderr(String appender, StatusListener status) {
        return new FollowingStreamSink(() -> System.err, "System.err", appender, status);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        PrintStream out = current.get(); // once per batch: the whole batch goes to one stream
        if (out == null) {
            throw new IOException(description + " is null");
        }
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            total += srcs[i].remaining();
        }
        byte[] buf = chunkFor(total);
        int filled = 0;
        for (int i = offset; i < offset + length; i++) {
            ByteBuffer src = srcs[i];
            while (src.hasRemaining()) {
                int n = Math.min(src.remaining(), buf.length - filled);
                src.get(buf, filled, n);
                filled += n;
                if (filled == buf.length) {
                    out.write(buf, 0, filled);
                    filled = 0;
                }
            }
        }
        if (filled > 0) {
            out.write(buf, 0, filled);
        }
        // checkError() is the batch's flush: PrintStream documents that it flushes, then reads the
        // error flag, which is all a PrintStream tells of a failed write.
        boolean broken = out.checkError();
        if (broken && out != reportedBroken) {
            reportedBroken = out; // the flag is sticky: report each broken stream once
            report(out);
        }
        return total;
    }

    private byte[] chunkFor(long batchBytes) {
        if (batchBytes > chunk.length && chunk.length < MAX_CHUNK) {
            int wanted = (int) Math.min(batchBytes, MAX_CHUNK);
            chunk = new byte[Math.min(MAX_CHUNK, Integer.highestOneBit(wanted - 1) << 1)]; // next power of two
        }
        return chunk;
    }

    private void report(PrintStream out) {
        try {
            status.status(StatusListener.Level.WARN, "spool appender '" + appender + "': " + description + " ("
                    + out.getClass().getName() + ") reports a write error (PrintStream.checkError()); a PrintStream "
                    + "hides its IOExceptions, so lines it lost cannot be counted", null);
        } catch (RuntimeException ignored) {
            // a failing listener must not fail the write (RingWriter reports through it the same way)
        }
    }

    @Override
    public String describe() {
        return description;
    }

    /** Leaves the stream open: it belongs to the process. */
    @Override
    public void close() {
    }
}
