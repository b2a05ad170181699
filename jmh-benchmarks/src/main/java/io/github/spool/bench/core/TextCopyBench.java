package io.github.spool.bench.core;

import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor of the log4j2 capture's largest step: copying a formatted message out of a
 * {@code StringBuilder} (log4j2's reused event holds its text in one) into record bytes. Spool's
 * path ({@code recordPutString}: {@link RecordCodec#putString}, {@code builderAppend}: the
 * {@link ByteLineBuilder} encode under it) against the two plain loops it could use instead: the
 * chars copied out with {@code getChars} (an intrinsic) and narrowed, or read with {@code charAt}.
 * All four take about the same time for the benchmarks' 42-char message (docs/benchmarks.md,
 * 2026-11-27): the copy itself, not the encoder's overhead, is the cost.
 *
 * <pre>java -cp benchmarks.jar org.openjdk.jmh.Main TextCopyBench</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TextCopyBench {

    /** The message the producer benchmarks log, formatted. */
    @Param({"Order processed id=500000 status=OK size=7"})
    public String text;

    private final StringBuilder formatted = new StringBuilder(256);
    private final ByteLineBuilder record = new ByteLineBuilder(1024);
    private final byte[] bytes = new byte[1024];
    private final char[] chars = new char[1024];

    /** Fills the builder once, as log4j2 formats the message before the appender sees it. */
    @Setup
    public void setUp() {
        formatted.setLength(0);
        formatted.append(text);
    }

    /** @return record length */
    @Benchmark
    public int recordPutString() {
        record.reset();
        RecordCodec.putString(record, formatted, false, Integer.MAX_VALUE);
        return record.length();
    }

    /** @return record length */
    @Benchmark
    public int builderAppend() {
        record.reset();
        record.append(formatted, 0, formatted.length());
        return record.length();
    }

    /** @return chars copied, or -1 if any is not ASCII */
    @Benchmark
    public int getCharsNarrow() {
        int n = formatted.length();
        formatted.getChars(0, n, chars, 0);
        int or = 0;
        for (int i = 0; i < n; i++) {
            char c = chars[i];
            or |= c;
            bytes[i] = (byte) c;
        }
        return or < 0x80 ? n : -1;
    }

    /** @return chars copied, or -1 at the first that is not ASCII */
    @Benchmark
    public int charAtNarrow() {
        int n = formatted.length();
        for (int i = 0; i < n; i++) {
            char c = formatted.charAt(i);
            if (c >= 0x80) {
                return -1;
            }
            bytes[i] = (byte) c;
        }
        return n;
    }
}
