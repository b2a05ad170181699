package io.github.spool.bench.core;

import io.github.spool.AppendResult;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.TimeUnit;

/**
 * End to end: N pre-encoded 100-byte records to stdout (redirect it to a file or pipe), timed from
 * the first record until everything is written and the appender stopped. Prints one result line
 * to stderr: {@code mode records threads millis lines_per_second}.
 *
 * <ul>
 *   <li>{@code spool}: {@code Spool.append} per record, then {@code stop};</li>
 *   <li>{@code channel}: the raw-write ceiling — a {@code FileChannel} on fd 1 fed from a 64 KiB
 *       direct buffer, one thread (the same bytes, no logging machinery);</li>
 *   <li>{@code perline}: a synchronous per-line writer — one {@code FileOutputStream.write} per
 *       record (RingLog's baseline).</li>
 * </ul>
 *
 * <pre>java -cp benchmarks.jar io.github.spool.bench.core.StdoutThroughput spool 10000000 1 &gt; /tmp/out.log</pre>
 */
public final class StdoutThroughput {
    private StdoutThroughput() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int records = Integer.parseInt(args[1]);
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        byte[] line = RingAppendBench.line();
        line[99] = '\n';
        long t0 = System.nanoTime();
        switch (mode) {
            case "spool":
                spool(records, threads, line);
                break;
            case "channel":
                channel(records, line);
                break;
            case "perline":
                perLine(records, threads, line);
                break;
            default:
                throw new IllegalArgumentException("mode spool|channel|perline");
        }
        long nanos = System.nanoTime() - t0;
        System.err.printf("%s %d %d %.1f %.0f%n", mode, records, threads, nanos / 1e6, records / (nanos / 1e9));
    }

    private static void spool(int records, int threads, byte[] line) throws Exception {
        SpoolConfig.Builder b = SpoolConfig.builder("stdout-throughput");
        // Optional sizes for experiments: -Dbench.bufferSize=..., -Dbench.maxBufferSize=...
        b.bufferSize(Long.getLong("bench.bufferSize", SpoolConfig.DEFAULT_BUFFER_SIZE));
        b.maxBufferSize(Long.getLong("bench.maxBufferSize", SpoolConfig.DEFAULT_MAX_BUFFER_SIZE));
        Spool spool = Spool.start(b.build());
        runThreads(threads, records, () -> {
            int n = records / threads;
            for (int i = 0; i < n; i++) {
                if (spool.append(line, 0, line.length, Severity.INFO) != AppendResult.ACCEPTED) {
                    throw new IllegalStateException("not accepted");
                }
            }
        });
        if (!spool.stop(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("not drained");
        }
        System.err.printf("spool: %d write calls, %.0f bytes per call, high water %d bytes%n",
                spool.stats().getWriteCalls(), (double) spool.stats().getBytesWritten() / spool.stats().getWriteCalls(),
                spool.stats().getBufferBytesHighWater());
    }

    private static void channel(int records, byte[] line) throws IOException {
        FileChannel ch = new FileOutputStream(FileDescriptor.out).getChannel();
        ByteBuffer buf = ByteBuffer.allocateDirect(64 << 10);
        for (int i = 0; i < records; i++) {
            if (buf.remaining() < line.length) {
                buf.flip();
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                buf.clear();
            }
            buf.put(line);
        }
        buf.flip();
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    private static void perLine(int records, int threads, byte[] line) throws Exception {
        FileOutputStream out = new FileOutputStream(FileDescriptor.out);
        runThreads(threads, records, () -> {
            int n = records / threads;
            try {
                for (int i = 0; i < n; i++) {
                    out.write(line);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    private static void runThreads(int threads, int records, Runnable body) throws InterruptedException {
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            ts[t] = new Thread(body, "producer-" + t);
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
    }
}
