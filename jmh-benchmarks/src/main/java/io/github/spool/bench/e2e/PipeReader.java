package io.github.spool.bench.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;

/**
 * Drains a child's stdout pipe into an {@link OutputVerifier}, at full speed or with the reading
 * pattern of a slow sink ({@link Sink#STALLING_PIPE}, {@link Sink#OVERLOADED_PIPE}). The sleeps
 * here are the point: they model a consumer that does not keep up.
 */
final class PipeReader implements Runnable {

    private static final int FULL_CHUNK = 64 * 1024;
    private static final int OVERLOADED_CHUNK = 16 * 1024;
    private static final long OVERLOADED_SLEEP_MILLIS = 10;
    private static final long STALL_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long STALL_MILLIS = 20;

    private final InputStream in;
    private final Sink pattern;
    private final OutputVerifier verifier = new OutputVerifier();
    private volatile Throwable failure;

    PipeReader(InputStream in, Sink pattern) {
        this.in = in;
        this.pattern = pattern;
    }

    @Override
    public void run() {
        try (in) {
            switch (pattern) {
                case STALLING_PIPE -> stalling();
                case OVERLOADED_PIPE -> overloaded();
                default -> full();
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            failure = e;
        }
    }

    private void full() throws IOException {
        byte[] buf = new byte[FULL_CHUNK];
        for (int n; (n = in.read(buf)) >= 0; ) {
            verifier.accept(buf, 0, n);
        }
    }

    private void stalling() throws IOException, InterruptedException {
        byte[] buf = new byte[FULL_CHUNK];
        long nextStall = System.nanoTime() + STALL_PERIOD_NANOS;
        for (int n; (n = in.read(buf)) >= 0; ) {
            verifier.accept(buf, 0, n);
            if (System.nanoTime() >= nextStall) {
                Thread.sleep(STALL_MILLIS);
                nextStall += STALL_PERIOD_NANOS;
            }
        }
    }

    private void overloaded() throws IOException, InterruptedException {
        byte[] buf = new byte[OVERLOADED_CHUNK];
        while (true) {
            int filled = 0;
            while (filled < buf.length) {
                int n = in.read(buf, filled, buf.length - filled);
                if (n < 0) {
                    verifier.accept(buf, 0, filled);
                    return;
                }
                filled += n;
            }
            verifier.accept(buf, 0, filled);
            Thread.sleep(OVERLOADED_SLEEP_MILLIS);
        }
    }

    /**
     * @return the verifier, once the reader thread has been joined
     * @throws IllegalStateException if reading failed
     */
    OutputVerifier verifier() {
        if (failure != null) {
            throw new IllegalStateException("reading the child's stdout failed", failure);
        }
        return verifier;
    }
}
