package io.github.spool.io;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A sink over a {@link FileChannel}: fd 1 or fd 2 through channels on {@link FileDescriptor#out}
 * and {@link FileDescriptor#err} (never {@code System.out}, whose autoflushing 128-byte
 * {@code PrintStream} costs a lock and a {@code write(2)} per line), or a special file. Files are
 * {@link io.github.spool.io.rolling.RollingFileSink}'s.
 * Gather writes of direct buffers become one {@code writev(2)} with no copy.
 *
 * <p>The standard descriptors are never closed by {@link #close()}: the process may still need them.
 * {@code FileChannel} closes its descriptor when the writing thread is interrupted; the writer
 * runs on a {@link WriterThread}, which cannot be interrupted, so that never happens.
 */
public final class ChannelSink implements Sink {

    private final FileChannel channel;
    private final String description;
    private final boolean ownsDescriptor;

    private ChannelSink(FileChannel channel, String description, boolean ownsDescriptor) {
        this.channel = channel;
        this.description = description;
        this.ownsDescriptor = ownsDescriptor;
    }

    /** @return a sink on file descriptor 1 */
    public static ChannelSink stdout() {
        return new ChannelSink(new FileOutputStream(FileDescriptor.out).getChannel(), "stdout", false);
    }

    /** @return a sink on file descriptor 2 */
    public static ChannelSink stderr() {
        return new ChannelSink(new FileOutputStream(FileDescriptor.err).getChannel(), "stderr", false);
    }

    /**
     * Opens {@code file} for appending, creating it if missing: a plain channel with none of a
     * file target's handling (rolling, logrotate), for special files (a FIFO, {@code /dev/full}).
     *
     * @param file the file
     * @return the sink
     * @throws IOException if it cannot be opened
     */
    public static ChannelSink append(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        return new ChannelSink(ch, file.toString(), true);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return length == 1 ? channel.write(srcs[offset]) : channel.write(srcs, offset, length);
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() throws IOException {
        if (ownsDescriptor) {
            channel.close();
        }
    }
}
