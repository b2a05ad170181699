package io.github.spool.micrometer;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * System.out's replacement for an appender with {@code follow}: every write blocks until
 * {@link #open()} (a stalled reader, which fills the ring and forces discards); keeps what it gets.
 */
final class GatedStream extends OutputStream {
    private final CountDownLatch gate = new CountDownLatch(1);
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private long lines;

    void open() {
        gate.countDown();
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            bytes.write(b, off, len);
            for (int i = off; i < off + len; i++) {
                lines += b[i] == '\n' ? 1 : 0;
            }
        }
    }

    /** @return the lines of events: all but the discard summaries ({@code spool: discarded ...}) */
    synchronized long eventLines() {
        return lines - bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("spool: ")).count();
    }

    synchronized boolean contains(String s) {
        return bytes.toString(StandardCharsets.UTF_8).contains(s);
    }

    synchronized String tail() {
        String all = bytes.toString(StandardCharsets.UTF_8);
        return all.substring(Math.max(0, all.length() - 2000));
    }
}
