package io.github.spool.bench.core;

import io.github.spool.AppendResult;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

/**
 * Light load, end to end: how long a line takes from {@code Spool.append} until a reader reads it
 * from the sink. One producer appends one 100-byte line at a time, paced; the core appender writes
 * to a FIFO (the {@code file} target, as a program piped into a log shipper would); a reader
 * thread reads the FIFO and subtracts the {@code System.nanoTime()} each line carries from the
 * time its {@code read(2)} returned. Prints, per group of lines, {@code mode group count p50 p90
 * p99 p99.9 max} of the delivery latency in µs and the share delivered within 1 ms, then the
 * producer's cost of the same appends.
 *
 * <ul>
 *   <li>{@code fixed <lines> <periodMicros>}: one line every period (2000: 2 ms);</li>
 *   <li>{@code random <lines> <seed>}: seeded gaps, 60% 0–1 ms, 30% 1–10 ms and 10% 55–105 ms —
 *       longer than the writer's 50 ms of napping, so it has gone to sleep untimed.</li>
 * </ul>
 * A fourth argument {@code direct} replaces Spool with one {@code FileChannel.write} per line on
 * the producer's thread: the floor of this machine (pipe, reader wake-up, scheduling noise),
 * measured the same way.
 *
 * <p>Lines are grouped by the gap before them: {@code busy} (under 50 ms: the writer naps 5 ms at a
 * time and picks the line up at its next wake-up; the producer pays nothing) and {@code quiet}
 * (50 ms or more: the writer sleeps untimed and the producer pays one {@code unpark}). The first
 * 1000 lines (1 ms apart) warm up and are not counted. The latency includes the reader's own
 * wake-up from {@code read(2)}.
 *
 * <pre>java -cp benchmarks.jar io.github.spool.bench.core.DeliveryLatency fixed 5000 2000 [spool|direct]</pre>
 */
public final class DeliveryLatency {
    private static final int LINE = 100;
    private static final int WARMUP = 1000;
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    // Fixed fields of a line: "<seq:9> <appendNanos:19> <gapMicros:9> " then the sample text.
    private static final int SEQ_AT = 0;
    private static final int NANOS_AT = 10;
    private static final int GAP_AT = 30;

    private DeliveryLatency() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int lines = Integer.parseInt(args[1]);
        long arg = Long.parseLong(args[2]);
        boolean direct = args.length > 3 && args[3].equals("direct");
        Gaps gaps;
        switch (mode) {
            case "fixed":
                gaps = i -> TimeUnit.MICROSECONDS.toNanos(arg);
                break;
            case "random":
                SplittableRandom random = new SplittableRandom(arg);
                gaps = i -> {
                    double u = random.nextDouble();
                    long micros = u < 0.6 ? random.nextLong(1_000) : u < 0.9 ? random.nextLong(1_000, 10_000) : random.nextLong(55_000, 105_000);
                    return TimeUnit.MICROSECONDS.toNanos(micros);
                };
                break;
            default:
                throw new IllegalArgumentException("mode fixed <lines> <periodMicros> | random <lines> <seed>");
        }

        Path dir = Files.createTempDirectory("spool-latency");
        Path fifo = dir.resolve("fifo");
        if (new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor() != 0) {
            throw new IOException("mkfifo " + fifo + " failed");
        }
        int total = WARMUP + lines;
        long[] latency = new long[total];
        long[] gap = new long[total];
        Reader reader = new Reader(fifo, latency, gap);
        reader.start();
        // Opening the FIFO for writing waits until the reader has opened it.
        Spool spool = direct ? null : Spool.start(SpoolConfig.builder("delivery-latency").file(fifo).build());
        FileChannel channel = direct ? FileChannel.open(fifo, StandardOpenOption.WRITE) : null;
        ByteBuffer directLine = ByteBuffer.allocateDirect(LINE);
        long[] appendCost = new long[total];
        byte[] line = RingAppendBench.line();
        line[LINE - 1] = '\n';
        Arrays.fill(line, 0, GAP_AT + 10, (byte) ' ');
        long last = System.nanoTime();
        long next = last;
        for (int i = 0; i < total; i++) {
            next += i < WARMUP ? TimeUnit.MILLISECONDS.toNanos(1) : gaps.next(i);
            for (long wait; (wait = next - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(wait);
            }
            long t = System.nanoTime();
            digits(line, SEQ_AT, 9, i);
            digits(line, NANOS_AT, 19, t);
            digits(line, GAP_AT, 9, (t - last) / 1000);
            if (direct) {
                directLine.clear().put(line).flip();
                while (directLine.hasRemaining()) {
                    channel.write(directLine);
                }
            } else if (spool.append(line, 0, LINE, Severity.INFO) != AppendResult.ACCEPTED) {
                throw new IllegalStateException("not accepted");
            }
            appendCost[i] = System.nanoTime() - t;
            last = t;
        }
        if (direct) {
            channel.close();
        } else if (!spool.stop(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("not drained");
        }
        reader.join(10_000);
        if (reader.failure != null) {
            throw reader.failure;
        }
        if (reader.received != total) {
            throw new IllegalStateException("received " + reader.received + " of " + total + " lines");
        }
        Files.delete(fifo);
        Files.delete(dir);

        System.out.printf("# %s %d %d %s: delivery latency in us (append to read), %d write calls%n",
                mode, lines, arg, direct ? "direct" : "spool", direct ? total : spool.stats().getWriteCalls());
        System.out.println("# mode group count p50 p90 p99 p99.9 max within_1ms");
        print(mode, "all", Arrays.copyOfRange(latency, WARMUP, total));
        print(mode, "busy", select(latency, gap, false));
        print(mode, "quiet", select(latency, gap, true));
        System.out.println(direct ? "# producer cost of write in us" : "# producer cost of append in us");
        print(mode, "busy", select(appendCost, gap, false));
        print(mode, "quiet", select(appendCost, gap, true));
    }

    /** The measured (post-warm-up) values of the lines whose preceding gap was quiet, or not. */
    private static long[] select(long[] values, long[] gapMicros, boolean quiet) {
        return IntStream.range(WARMUP, values.length)
                .filter(i -> (gapMicros[i] * 1000 >= QUIET_NANOS) == quiet)
                .mapToLong(i -> values[i]).toArray();
    }

    private static void print(String mode, String group, long[] nanos) {
        if (nanos.length == 0) {
            System.out.printf("%s %s 0%n", mode, group);
            return;
        }
        long[] s = nanos.clone();
        Arrays.sort(s);
        long withinMilli = Arrays.stream(s).filter(v -> v <= 1_000_000).count();
        System.out.printf("%s %s %d %.1f %.1f %.1f %.1f %.1f %.2f%%%n", mode, group, s.length,
                pct(s, 0.5), pct(s, 0.9), pct(s, 0.99), pct(s, 0.999), s[s.length - 1] / 1e3, 100.0 * withinMilli / s.length);
    }

    private static double pct(long[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, i)] / 1e3;
    }

    /** Writes {@code v} as {@code width} zero-padded decimal digits at {@code at}. */
    private static void digits(byte[] b, int at, int width, long v) {
        for (int i = at + width - 1; i >= at; i--) {
            b[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
    }

    private static long parse(byte[] b, int at, int width) {
        long v = 0;
        for (int i = at; i < at + width; i++) {
            v = v * 10 + (b[i] - '0');
        }
        return v;
    }

    private interface Gaps {
        long next(int i);
    }

    /** Reads the FIFO to EOF; each complete line's latency is measured at the read that completed it. */
    private static final class Reader extends Thread {
        private final Path fifo;
        private final long[] latency;
        private final long[] gap;
        volatile int received;
        volatile Exception failure;

        Reader(Path fifo, long[] latency, long[] gap) {
            super("fifo-reader");
            this.fifo = fifo;
            this.latency = latency;
            this.gap = gap;
        }

        @Override
        public void run() {
            try (FileChannel in = FileChannel.open(fifo, StandardOpenOption.READ)) {
                ByteBuffer buf = ByteBuffer.allocate(256 << 10);
                byte[] a = buf.array();
                int n = 0;
                while (in.read(buf) >= 0) {
                    long now = System.nanoTime();
                    int from = 0;
                    while (buf.position() - from >= LINE) {
                        int seq = (int) parse(a, from + SEQ_AT, 9);
                        latency[seq] = now - parse(a, from + NANOS_AT, 19);
                        gap[seq] = parse(a, from + GAP_AT, 9);
                        if (a[from + LINE - 1] != '\n' || seq != n) {
                            throw new IllegalStateException("line " + n + " garbled or out of order");
                        }
                        n++;
                        from += LINE;
                    }
                    buf.limit(buf.position()).position(from);
                    buf.compact();
                    received = n;
                }
            } catch (IOException e) {
                failure = new UncheckedIOException(e);
            } catch (RuntimeException e) {
                failure = e;
            }
        }
    }
}
