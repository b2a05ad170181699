package io.github.spool.undertow;

import io.github.spool.AppendResult;
import io.github.spool.OwnedThreadLocal;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;
import io.github.spool.metrics.SpoolAppenderStats;
import io.github.spool.text.ByteLineBuilder;
import io.undertow.server.handlers.accesslog.AccessLogReceiver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * An Undertow {@link AccessLogReceiver} that writes each access-log line through a Spool
 * appender: the calling thread (the one completing the exchange) encodes the line into UTF-8 in a
 * per-thread buffer and copies it into Spool's lock-free ring; Spool's writer thread writes the
 * ring to standard output, standard error or a file. No queue of {@code String}s and no executor,
 * unlike {@code DefaultAccessLogReceiver} (undertow-core 2.3.20), which queues each message and
 * writes it from a task on the XNIO worker.
 *
 * <p>Each line ends with {@link System#lineSeparator()}, as {@code DefaultAccessLogReceiver}'s
 * {@code BufferedWriter.newLine()} does. What Spool promises holds here: the request thread never
 * waits on I/O (under {@code OverflowPolicy.BLOCK} it waits only while the ring is at
 * {@code maxBufferSize}), lines are counted written or lost, the appender has its JMX MBean, and
 * a JVM shutdown hook drains it if it is never closed. Thread-safe.
 */
public final class SpoolAccessLogReceiver implements AccessLogReceiver, AutoCloseable {

    /** The appender name {@link #start(SpoolConfig)} users are advised to use (JMX, status messages). */
    public static final String DEFAULT_NAME = "undertow-accesslog";

    /**
     * The writer nap for access logs: 100 ms, against 5 ms for application logs. An access line
     * has no reader waiting for it within milliseconds, and on a 2-vCPU server the writer's
     * wake-ups were most of what the access log cost: with one line per request at 28,000
     * requests/s, 5 ms naps lost 3.6–9.1% of the requests/s, 100 ms naps −0.5% to +4.1%
     * (docs/benchmarks.md, "the access log and the clock thread"). A full cell still wakes the
     * writer at once; the exit drain writes everything; a SIGKILL loses up to 100 ms of lines.
     */
    public static final long WRITER_NAP_MICROS = 100_000;

    private static final byte[] LINE_SEPARATOR = System.lineSeparator().getBytes(StandardCharsets.US_ASCII);
    /** An access-log line is typically 100-300 bytes; longer ones grow the buffer once. */
    private static final int INITIAL_LINE_CAPACITY = 512;

    private final Spool spool;
    /** Held by the receiver, not by Undertow's pool threads: a redeploy leaves nothing behind. */
    private final OwnedThreadLocal<ByteLineBuilder> lines =
            OwnedThreadLocal.withInitial(() -> new ByteLineBuilder(INITIAL_LINE_CAPACITY));

    /**
     * Wraps a running appender; {@link #close()} stops it.
     *
     * @param spool the appender the lines go to
     */
    public SpoolAccessLogReceiver(Spool spool) {
        this.spool = Objects.requireNonNull(spool, "spool");
    }

    /**
     * The writer nap an access log should use: {@code spool.writerNapMicros} when that is set
     * (one choice for every appender of the JVM), else {@link #WRITER_NAP_MICROS}.
     *
     * @return microseconds, for {@link SpoolConfig.Builder#writerNapMicros(long)}
     */
    public static long defaultWriterNapMicros() {
        return SpoolConfig.jvmWriterNapMicros(WRITER_NAP_MICROS);
    }

    /**
     * Starts an appender with {@code config} and a receiver over it.
     *
     * @param config where to write and the shared settings ({@code bufferSize},
     *               {@code maxBufferSize}, {@code overflowPolicy}, ...)
     * @return the receiver
     * @throws IOException if the file cannot be opened
     */
    public static SpoolAccessLogReceiver start(SpoolConfig config) throws IOException {
        return new SpoolAccessLogReceiver(Spool.start(config));
    }

    /**
     * Appends {@code message} and a line separator as one record at severity INFO. Never throws
     * for flow control; a line refused because the appender is stopped or discarded at the cap
     * is counted by the appender.
     *
     * @param message the formatted access-log line; {@code null} prints "null"
     */
    @Override
    public void logMessage(String message) {
        append(message);
    }

    /**
     * {@link #logMessage} with its outcome, for tests and callers that care.
     *
     * @param message the line without its separator
     * @return what the ring did with it
     */
    public AppendResult append(String message) {
        final ByteLineBuilder line = lines.get();
        line.reset();
        line.append(message).append(LINE_SEPARATOR, 0, LINE_SEPARATOR.length);
        return spool.append(line.array(), 0, line.length(), Severity.INFO);
    }

    /** @return the appender the lines go to */
    public Spool spool() {
        return spool;
    }

    /** @return the appender's counters (also registered with JMX) */
    public SpoolAppenderStats stats() {
        return spool.stats();
    }

    /**
     * Stops taking lines and drains the ring, waiting at most {@code timeout}.
     *
     * @param timeout longest wait
     * @param unit    its unit
     * @return {@code true} if everything accepted was written (or counted lost to a sink fault)
     */
    public boolean stop(long timeout, TimeUnit unit) {
        return spool.stop(timeout, unit);
    }

    /** Stops and drains with {@link Spool#DEFAULT_STOP_TIMEOUT_MILLIS}. */
    @Override
    public void close() {
        spool.close();
    }

    @Override
    public String toString() {
        return "SpoolAccessLogReceiver[" + spool.config() + "]";
    }
}
