package io.github.spool;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * One asynchronous appender: the facade an adapter uses. {@link #start} opens the sink and starts
 * the writer thread; {@link #append} copies an encoded record into the ring and returns at once;
 * {@link #stop} drains with a bounded wait. Thread-safe.
 *
 * <p>PLACEHOLDER: this first version writes synchronously under a lock so adapters can be built
 * against the final API; the ring and writer thread replace it.
 */
public final class Spool implements AutoCloseable {

    /** Default bounded wait of {@link #close()}. */
    public static final long DEFAULT_STOP_TIMEOUT_MILLIS = 10_000;

    private final SpoolConfig config;
    private final FileChannel channel;
    private volatile boolean stopped;

    private Spool(SpoolConfig config, FileChannel channel) {
        this.config = config;
        this.channel = channel;
    }

    /**
     * Opens the sink and starts the writer.
     *
     * @param config validated settings
     * @return the running appender
     * @throws IOException if the file cannot be opened
     */
    public static Spool start(SpoolConfig config) throws IOException {
        FileChannel ch;
        switch (config.target()) {
            case STDOUT:
                ch = new FileOutputStream(FileDescriptor.out).getChannel();
                break;
            case STDERR:
                ch = new FileOutputStream(FileDescriptor.err).getChannel();
                break;
            default:
                if (config.file().getParent() != null) {
                    Files.createDirectories(config.file().getParent());
                }
                ch = FileChannel.open(config.file(), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        }
        return new Spool(config, ch);
    }

    /** @return the appender's name */
    public String name() {
        return config.name();
    }

    /** @return the settings it was started with */
    public SpoolConfig config() {
        return config;
    }

    /**
     * Appends one encoded record (normally one line, its line separator included).
     *
     * @param src      bytes
     * @param offset   first byte
     * @param length   number of bytes; {@code 0} is accepted and writes nothing
     * @param severity the record's {@link Severity}
     * @return what happened to the record; never throws for flow control
     */
    public AppendResult append(byte[] src, int offset, int length, int severity) {
        return append(ByteBuffer.wrap(src, offset, length), severity);
    }

    /**
     * Appends the remaining bytes of {@code src} as one record; advances its position.
     *
     * @param src      bytes between position and limit
     * @param severity the record's {@link Severity}
     * @return what happened to the record
     */
    public synchronized AppendResult append(ByteBuffer src, int severity) {
        if (stopped) {
            return AppendResult.CLOSED;
        }
        try {
            while (src.hasRemaining()) {
                channel.write(src);
            }
        } catch (IOException e) {
            config.statusListener().status(StatusListener.Level.ERROR, "write failed", e);
        }
        return AppendResult.ACCEPTED;
    }

    /**
     * Stops taking records and drains what the ring holds, waiting at most {@code timeout}.
     * Idempotent; concurrent callers all wait for the same drain.
     *
     * @param timeout longest wait
     * @param unit    its unit
     * @return {@code true} if everything accepted was written (or counted as lost to a sink fault)
     */
    public synchronized boolean stop(long timeout, TimeUnit unit) {
        stopped = true;
        return true;
    }

    /** @return {@code true} once {@link #stop} has begun */
    public boolean isStopped() {
        return stopped;
    }

    /** Same as {@link #stop} with {@link #DEFAULT_STOP_TIMEOUT_MILLIS}. */
    @Override
    public void close() {
        stop(DEFAULT_STOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }
}
