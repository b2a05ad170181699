package io.github.spool.bench.core;

import io.github.spool.AppendResult;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Producer cost of one pre-encoded 100-byte record: Spool's ring ({@code spoolAppend}) against the
 * synchronous alternative, one {@code FileChannel.write} per record ({@code channelWritePerRecord}),
 * into the same sink in the same run. Spool's number includes any waiting for the writer when the
 * sink cannot keep up (BLOCK), so it is the sustained cost, not just the claim.
 *
 * <pre>java -cp benchmarks.jar org.openjdk.jmh.Main RingAppendBench -t 1 -prof gc</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
public class RingAppendBench {

    /** {@code /dev/null}, or a temporary file (truncated at each trial). */
    @Param({"devnull", "file"})
    public String sink;

    private Path path;
    private Spool spool;
    private FileChannel channel;
    private final byte[] record = line();
    private final ByteBuffer recordBuffer = ByteBuffer.allocateDirect(record.length);

    static byte[] line() {
        byte[] b = "2026-11-22 01:32:26.721 [producer-2] INFO  anchors.Bench - Order processed id=500000 status=OK size=7 \n"
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        return Arrays.copyOf(b, 100);
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        record[99] = '\n';
        recordBuffer.put(record).flip();
        if (sink.equals("devnull")) {
            path = Path.of("/dev/null");
        } else {
            path = Files.createTempFile("spool-bench", ".log");
        }
        spool = Spool.start(SpoolConfig.builder("bench-" + sink).file(path).build());
        channel = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        spool.stop(30, TimeUnit.SECONDS);
        channel.close();
        if (!sink.equals("devnull")) {
            Files.deleteIfExists(path);
        }
    }

    @Benchmark
    public AppendResult spoolAppend() {
        return spool.append(record, 0, record.length, Severity.INFO);
    }

    @Benchmark
    public int channelWritePerRecord() throws IOException {
        // Synchronised: FileChannel positions are shared; one write(2) per record either way.
        synchronized (channel) {
            recordBuffer.rewind();
            return channel.write(recordBuffer);
        }
    }
}
