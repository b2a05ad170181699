package io.github.spool.micrometer;

import io.github.spool.io.Sink;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;

/** A sink whose writes block until {@link #open()}: a stalled stdout reader. Keeps no bytes. */
final class GatedSink implements Sink {
    private final CountDownLatch gate = new CountDownLatch(1);

    void open() {
        gate.countDown();
    }

    /** @return this, open from the start */
    GatedSink opened() {
        open();
        return this;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the writer clears it; the write goes through
        }
        long n = 0;
        for (int i = offset; i < offset + length; i++) {
            n += srcs[i].remaining();
            srcs[i].position(srcs[i].limit());
        }
        return n;
    }

    @Override
    public String describe() {
        return "gated-sink";
    }

    @Override
    public void close() {
        open();
    }
}
