package io.github.spool.bench.e2e;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The raw-write ceiling: each line encoded into one shared 64 KiB direct buffer, written to fd 1
 * through a {@code FileChannel} only when the buffer is full. No framework, no second thread;
 * a lock serialises producers. What any stdout logger could at best reach on this machine.
 */
final class ChannelSubject implements Subject {

    private static final int BUFFER = 64 * 1024;

    private final Object lock = new Object();
    private FileChannel channel;
    private ByteBuffer buffer;

    @Override
    public void start() {
        channel = new FileOutputStream(FileDescriptor.out).getChannel();
        buffer = ByteBuffer.allocateDirect(BUFFER);
    }

    @Override
    public Caller caller(int threadIndex) {
        LineFormatter f = new LineFormatter(EventLine.threadName(threadIndex));
        return seq -> {
            synchronized (lock) {
                int len = f.format(seq);
                if (buffer.remaining() < len) {
                    drain();
                }
                buffer.put(f.buffer(), 0, len);
            }
        };
    }

    @Override
    public void stop() {
        synchronized (lock) {
            drain();
        }
    }

    private void drain() {
        buffer.flip();
        try {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        buffer.clear();
    }
}
