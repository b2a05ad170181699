package io.github.spool.bench.time;

import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.Utf8;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Encoding a ~90-char message: Spool's {@link Utf8#encode} and {@link ByteLineBuilder#append}
 * (bulk path: getChars into a scratch array, then the JDK encoder's ASCII loop) into a reused array against
 * {@code String.getBytes(UTF_8)}, from a {@code String} and from a {@code StringBuilder} (log4j2's
 * reusable messages hand over a StringBuilder; getBytes then needs a {@code toString()} first).
 * Lives beside the time benchmarks so {@code 'bench.time'} runs the whole issue-3 suite.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class Utf8Benchmark {

    /** ascii: a typical English log message; mixed: accents, CJK and an emoji in it. */
    @Param({"ascii", "mixed"})
    public String text;

    private String string;
    private StringBuilder builder;
    private final byte[] dst = new byte[1024];
    private final ByteLineBuilder line = new ByteLineBuilder(1024);

    /** Builds the message. */
    @Setup
    public void setUp() {
        string = "ascii".equals(text)
            ? "Order processed id=500000 status=OK size=7 customer=acme-industries region=eu-west-1 ms=12"
            : "Bestellung verarbeitet id=500000 status=OK größe=7 客户=acme 地区=eu-west-1 😀 ms=12 — fertig";
        builder = new StringBuilder(string);
    }

    /** Spool: String into a reused byte[]. */
    @Benchmark
    public int spoolEncodeString() {
        return Utf8.encode(string, 0, string.length(), dst, 0);
    }

    /** Anchor: {@code String.getBytes(UTF_8)} (allocates the result). */
    @Benchmark
    public byte[] stringGetBytes() {
        return string.getBytes(StandardCharsets.UTF_8);
    }

    /** Spool: StringBuilder into a reused byte[]. */
    @Benchmark
    public int spoolEncodeStringBuilder() {
        return Utf8.encode(builder, 0, builder.length(), dst, 0);
    }

    /** Anchor: {@code StringBuilder.toString().getBytes(UTF_8)}. */
    @Benchmark
    public byte[] stringBuilderToStringGetBytes() {
        return builder.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Spool: what the adapters call, String into the per-thread line (bulk path). */
    @Benchmark
    public int byteLineBuilderAppendString() {
        line.reset();
        line.append(string);
        return line.length();
    }

    /** Spool: StringBuilder into the per-thread line (bulk path). */
    @Benchmark
    public int byteLineBuilderAppendStringBuilder() {
        line.reset();
        line.append(builder);
        return line.length();
    }
}
