package io.github.spool.io;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A sink over a {@link FileChannel}: fd 1 or fd 2 through channels on {@link FileDescriptor#out}
 * and {@link FileDescriptor#err} (never {@code System.out}, whose autoflushing 128-byte
 * {@code PrintStream} costs a lock and a {@code write(2)} per line), or a file.
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
     * Opens {@code file} for appending, creating it and its parent directories if missing.
     *
     * @param file the file
     * @return the sink
     * @throws IOException if it cannot be opened
     */
    public static ChannelSink append(Path file) throws IOException {
        return open(file, true);
    }

    /**
     * Opens {@code file}, creating it and its parent directories if missing.
     *
     * @param file   the file
     * @param append {@code true} to append ({@code O_APPEND}); {@code false} to truncate it first,
     *               as logback's and log4j2's file appenders do with {@code append="false"}
     * @return the sink
     * @throws IOException if it cannot be opened
     */
    public static ChannelSink open(Path file, boolean append) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (!append) {
            // Truncate, then append like every other writer: FileChannel refuses APPEND with
            // TRUNCATE_EXISTING, and a writer at its own position would leave a hole of zero bytes
            // where a previous appender still writing the file (a reconfiguration) had appended.
            FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING).close();
        }
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
