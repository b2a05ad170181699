package io.github.spool.ring;

import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import io.github.spool.StatusListener;
import io.github.spool.io.RingWriter;
import io.github.spool.io.Sink;
import io.github.spool.io.WriterThread;
import io.github.spool.metrics.WriterCounters;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A ring with a real writer thread draining it into memory, for tests that play a producer
 * failing half-way through the protocol. The stall bound is short, so recoveries happen quickly.
 */
final class RingRig implements AutoCloseable {
    final ManyToOneCellRing ring;
    final WriterCounters counters = new WriterCounters();
    final List<String> status = Collections.synchronizedList(new ArrayList<>());
    final MemorySink sink = new MemorySink();
    final RingWriter writer;
    final WriterThread thread;

    RingRig(long bufferSize, long maxBufferSize, OverflowPolicy policy, long stallMillis) {
        ring = new ManyToOneCellRing(bufferSize, maxBufferSize, policy, Severity.INFO, TimeUnit.MILLISECONDS.toNanos(stallMillis));
        StatusListener listener = (level, message, cause) -> status.add(level + " " + message);
        writer = new RingWriter("rig", ring, sink, counters, listener, Severity.INFO);
        thread = writer.newThread("spool-writer-rig");
        thread.start();
    }

    /** Stops with a bound and waits for the writer thread; returns whether it drained. */
    boolean stop(long millis) throws InterruptedException {
        writer.requestStop(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
        thread.join(millis + 10_000);
        return writer.drained();
    }

    /** Records accounted for by the writer and the ring once stopped. */
    long accounted() {
        return counters.recordsWritten() + counters.recordsLost() + ring.lostRecords();
    }

    /** Output lines (a failed copy leaves none: the writer skips its range). */
    List<String> recordLines() {
        return sink.lines();
    }

    @Override
    public void close() {
        if (thread.isAlive()) {
            try {
                stop(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Keeps everything written; can be held at a gate. */
    static final class MemorySink implements Sink {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        /** Writes wait here while it is closed (a stalled sink). */
        final java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        volatile boolean stalled;

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            if (stalled) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return copy(srcs, offset, length);
        }

        private synchronized long copy(ByteBuffer[] srcs, int offset, int length) {
            long n = 0;
            for (int i = offset; i < offset + length; i++) {
                ByteBuffer b = srcs[i];
                while (b.hasRemaining()) {
                    out.write(b.get());
                    n++;
                }
            }
            notifyAll();
            return n;
        }

        synchronized List<String> lines() {
            return new String(out.toByteArray(), StandardCharsets.UTF_8).lines().collect(Collectors.toList());
        }

        synchronized int size() {
            return out.size();
        }

        @Override
        public String describe() {
            return "memory";
        }

        @Override
        public void close() {
        }
    }
}
