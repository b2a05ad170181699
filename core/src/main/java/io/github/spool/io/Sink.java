package io.github.spool.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where the writer thread puts bytes. Only the writer thread calls it. Implementations: {@link
 * ChannelSink} (fd 1, fd 2, a file) and the test doubles that stall or fail on demand.
 */
public interface Sink extends Closeable {

    /**
     * Writes as much of {@code srcs[offset, offset+length)} as the sink takes now, advancing the
     * buffers' positions; a gather write where the sink supports it.
     *
     * @param srcs   buffers, in order
     * @param offset first buffer
     * @param length number of buffers
     * @return bytes written; {@code 0} means "would block" (a non-blocking descriptor)
     * @throws IOException when the write fails (ENOSPC, EPIPE, EBADF, ...)
     */
    long write(ByteBuffer[] srcs, int offset, int length) throws IOException;

    /** @return a short description for status messages, e.g. {@code "stdout"} or a path */
    String describe();

    /**
     * Called by the writer on its idle passes (about once a second while nothing is written), for
     * housekeeping that must not wait for the next line, such as noticing that logrotate moved
     * the file. Must not throw; the default does nothing.
     */
    default void idle() {
    }

    /**
     * How many bytes the destination holds now, for the writer's decision after a torn line
     * (RingWriter): a file that holds none — truncated by logrotate's {@code copytruncate}, or new
     * — has no torn line to end. The default: unknown ({@code -1}), a stream.
     *
     * @return the destination's size in bytes, or {@code -1} if unknown
     */
    default long sizeNow() {
        return -1;
    }

    /**
     * Asks the sink to close and reopen its file before the next write; the one method any thread
     * may call (the MBean's {@code reopen()}). The default does nothing (fd 1 and fd 2).
     */
    default void requestReopen() {
    }

    /**
     * Whether the sink must know where records end: a file that rolls by size rolls between two
     * records, as the frameworks' appenders do (they check before each event), so that an event of
     * several lines (a stack trace) is never split across two files. The writer then frames the
     * records (even text written by its caller) and calls {@link #recordEnds} before each write.
     * Asked once, when the writer is made.
     *
     * @return {@code true} to be told; the default says no
     */
    default boolean needsRecordEnds() {
        return false;
    }

    /**
     * Where the records of the next {@link #write} end, for a sink that {@link #needsRecordEnds}:
     * {@code ends[from .. from+count)} ascending, each minus {@code base} being the number of bytes,
     * from the write's first byte, up to and including a record's last byte. A write whose last
     * byte is no record's end (a record longer than one write) continues that record in the next
     * one. {@code count < 0}: not known for this write (the sink falls back to line ends).
     *
     * @param ends  record ends; read during the next write only
     * @param from  first entry
     * @param count entries, or {@code -1}
     * @param base  subtracted from each entry
     */
    default void recordEnds(int[] ends, int from, int count, int base) {
    }
}
