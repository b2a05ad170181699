// SPDX-License-Identifier: Apache-2.0
package io.github.spool.dropin;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Replaces {@code System.out} or {@code System.err} the way test frameworks do (Spring Boot's
 * {@code OutputCaptureExtension}, Surefire's forked booter: a {@code PrintStream} subclass set with
 * {@code System.setOut}), keeps every byte written to it, counts the {@code write(byte[], int, int)}
 * and {@code flush()} calls, and puts the previous stream back on {@link #close()}. Waiting for
 * output is bounded and wakes on each write: no sleeps. Test support.
 */
public final class StreamCapture extends PrintStream {

    private final Buffer buffer;
    private final PrintStream previous;
    private final boolean stderr;
    private int writeCalls;
    private int flushCalls;

    private StreamCapture(Buffer buffer, PrintStream previous, boolean stderr) {
        super(buffer, false, StandardCharsets.UTF_8);
        this.buffer = buffer;
        this.previous = previous;
        this.stderr = stderr;
    }

    /** @return a capture now installed as {@code System.out} */
    public static StreamCapture stdout() {
        StreamCapture c = new StreamCapture(new Buffer(), System.out, false);
        System.setOut(c);
        return c;
    }

    /** @return a capture now installed as {@code System.err} */
    public static StreamCapture stderr() {
        StreamCapture c = new StreamCapture(new Buffer(), System.err, true);
        System.setErr(c);
        return c;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        synchronized (buffer) {
            writeCalls++;
        }
        super.write(b, off, len);
    }

    @Override
    public void flush() {
        synchronized (buffer) {
            flushCalls++;
            buffer.notifyAll();
        }
        super.flush();
    }

    /** @return everything written so far, as UTF-8 */
    public String text() {
        synchronized (buffer) {
            return new String(buffer.bytes, 0, buffer.size, StandardCharsets.UTF_8);
        }
    }

    /** @return how many times {@code write(byte[], int, int)} was called */
    public int writeCalls() {
        synchronized (buffer) {
            return writeCalls;
        }
    }

    /**
     * Waits until {@code flush()} has been called at least {@code count} times, or fails at the
     * deadline. A writer's batch is one write and then one flush: lines can be seen before it.
     *
     * @param count   how many flushes are expected at least
     * @param timeout longest wait
     * @throws InterruptedException if interrupted
     */
    public void awaitFlushes(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (buffer) {
            while (flushCalls < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("expected " + count + " flushes within " + timeout + ", got " + flushCalls);
                }
                buffer.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    /**
     * Waits until exactly {@code count} complete lines match, or fails at the deadline.
     *
     * @param filter  which lines count
     * @param count   how many are expected
     * @param timeout longest wait
     * @return the matching lines, in order
     * @throws InterruptedException if interrupted
     */
    public List<String> awaitLines(Predicate<String> filter, int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (buffer) {
            for (;;) {
                List<String> lines = lines(filter);
                if (lines.size() >= count) {
                    if (lines.size() > count) {
                        throw new AssertionError("expected " + count + " matching lines, got " + lines.size() + ":\n" + text());
                    }
                    return lines;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("expected " + count + " matching lines within " + timeout + ", got "
                            + lines.size() + ":\n" + text());
                }
                buffer.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    /**
     * @param filter which lines count
     * @return the complete lines that match now
     */
    public List<String> lines(Predicate<String> filter) {
        List<String> out = new ArrayList<>();
        String all = text();
        int from = 0;
        for (int nl = all.indexOf('\n'); nl >= 0; nl = all.indexOf('\n', from)) {
            String line = all.substring(from, nl);
            if (filter.test(line)) {
                out.add(line);
            }
            from = nl + 1;
        }
        return out;
    }

    /** Puts the previous stream back. */
    @Override
    public void close() {
        if (stderr) {
            if (System.err == this) {
                System.setErr(previous);
            }
        } else if (System.out == this) {
            System.setOut(previous);
        }
    }

    /** The bytes; every write wakes the waiters. */
    private static final class Buffer extends OutputStream {
        byte[] bytes = new byte[1024];
        int size;

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            if (size + len > bytes.length) {
                bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + len));
            }
            System.arraycopy(b, off, bytes, size, len);
            size += len;
            notifyAll();
        }
    }
}
