package io.github.spool;

import io.github.spool.io.Sink;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A sink test double: keeps everything written in memory; can be stalled (writes block until
 * {@link #release()}) and can fail (every write throws until {@link #heal()}).
 */
final class TestSink implements Sink {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private final CountDownLatch firstWriteBlocked = new CountDownLatch(1);
    private volatile IOException failure;
    private volatile boolean closed;
    /** {@link #close()} blocks until this opens: a rolling file waiting for its compressions. */
    private volatile CountDownLatch closeGate = new CountDownLatch(0);
    private long size;
    private long writes;

    /** Makes the next writes block until {@link #release()}. */
    TestSink stall() {
        gate = new CountDownLatch(1);
        return this;
    }

    void release() {
        gate.countDown();
    }

    /** Waits until the writer is blocked inside a stalled write. */
    boolean awaitBlocked(long timeout, TimeUnit unit) throws InterruptedException {
        return firstWriteBlocked.await(timeout, unit);
    }

    void fail(IOException e) {
        failure = e;
    }

    void heal() {
        failure = null;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        CountDownLatch g = gate;
        if (g.getCount() > 0) {
            firstWriteBlocked.countDown();
            try {
                g.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        IOException f = failure;
        if (f != null) {
            throw f;
        }
        long n = 0;
        synchronized (this) {
            for (int i = offset; i < offset + length; i++) {
                ByteBuffer b = srcs[i];
                int r = b.remaining();
                byte[] tmp = new byte[r];
                b.get(tmp);
                bytes.write(tmp, 0, r);
                n += r;
            }
            size += n;
            writes++;
            notifyAll();
        }
        return n;
    }

    synchronized byte[] toByteArray() {
        return bytes.toByteArray();
    }

    synchronized long size() {
        return size;
    }

    /** @return how many write calls the writer made */
    synchronized long writes() {
        return writes;
    }

    /** Waits (bounded) until at least {@code n} bytes have arrived. */
    synchronized boolean awaitSize(long n, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (size < n) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public String describe() {
        return "test-sink";
    }

    /** Makes {@link #close()} block until {@link #releaseClose()}. */
    TestSink stallClose() {
        closeGate = new CountDownLatch(1);
        return this;
    }

    void releaseClose() {
        closeGate.countDown();
    }

    @Override
    public void close() {
        try {
            closeGate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closed = true;
    }
}
