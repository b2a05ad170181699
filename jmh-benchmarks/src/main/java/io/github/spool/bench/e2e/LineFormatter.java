package io.github.spool.bench.e2e;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * Formats {@link EventLine}'s line by hand for the configurations that have no framework
 * ({@code System.out.println}, the raw channel, the per-line file writer): the same bytes the
 * frameworks print for {@link EventLine#PATTERN}, so every configuration writes the same volume.
 *
 * <p>The date part is rendered once per second and only the millisecond digits per line, as a
 * tuned framework would do; otherwise these anchors would measure {@code DateTimeFormatter}
 * rather than the write path. One instance per producer thread; not thread-safe.
 */
public final class LineFormatter {

    private static final DateTimeFormatter SECONDS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.").withZone(ZoneId.systemDefault());

    private final byte[] middle;
    private final byte[] tail = EventLine.MESSAGE_TAIL.concat("\n").getBytes(StandardCharsets.US_ASCII);
    private final byte[] line = new byte[256];
    private long cachedSecond = Long.MIN_VALUE;

    /**
     * Creates a formatter for lines printed by one thread.
     *
     * @param threadName the name printed between brackets
     */
    public LineFormatter(String threadName) {
        warmUpOnce();
        middle = (" [" + threadName + "] INFO  " + EventLine.LOGGER + " - " + EventLine.MESSAGE_HEAD)
                .getBytes(StandardCharsets.US_ASCII);
    }

    private static final java.util.concurrent.atomic.AtomicBoolean WARM = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Formats 20,000 seconds once per JVM, so that the once-a-second date rendering is compiled
     * before it is measured: run once a second it stays interpreted, and cold it took 80–330 µs of
     * the call that crossed the second — a cost of this harness, not of the configurations that
     * use it.
     */
    private static void warmUpOnce() {
        if (WARM.compareAndSet(false, true)) {
            LineFormatter f = new LineFormatter(new byte[0]);
            long t = 1_767_225_600_000L;
            for (int i = 0; i < 20_000; i++) {
                for (int k = 0; k < 4; k++) { // a new second, then calls within it: both branches profiled
                    f.format(i, t + i * 1000L + k * 250);
                }
            }
        }
    }

    private LineFormatter(byte[] middle) {
        this.middle = middle;
    }

    /**
     * Formats the line for sequence number {@code seq} at the current time into {@link #buffer()}.
     *
     * @param seq the per-thread sequence number printed after {@code id=}
     * @return the line's length in bytes, its {@code '\n'} included
     */
    public int format(long seq) {
        return format(seq, System.currentTimeMillis());
    }

    /**
     * Formats the line for sequence number {@code seq} at time {@code epochMillis}.
     *
     * @param seq         the per-thread sequence number
     * @param epochMillis the timestamp to print
     * @return the line's length in bytes, its {@code '\n'} included
     */
    public int format(long seq, long epochMillis) {
        byte[] b = line;
        long second = Math.floorDiv(epochMillis, 1000);
        if (second != cachedSecond) {
            // once per second: the only place that allocates
            byte[] date = SECONDS.format(Instant.ofEpochSecond(second)).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(date, 0, b, 0, 20);
            cachedSecond = second;
        }
        int millis = Math.floorMod(epochMillis, 1000);
        b[20] = (byte) ('0' + millis / 100);
        b[21] = (byte) ('0' + millis / 10 % 10);
        b[22] = (byte) ('0' + millis % 10);
        int pos = 23;
        System.arraycopy(middle, 0, b, pos, middle.length);
        pos += middle.length;
        pos = putDecimal(b, pos, seq);
        System.arraycopy(tail, 0, b, pos, tail.length);
        return pos + tail.length;
    }

    /** @return the buffer {@link #format} wrote into; valid until the next call */
    public byte[] buffer() {
        return line;
    }

    /**
     * Formats and returns the line as a {@code String} without its {@code '\n'}, for
     * {@code println}.
     *
     * @param seq the per-thread sequence number
     * @return the line
     */
    public String formatString(long seq) {
        int len = format(seq);
        return new String(line, 0, len - 1, StandardCharsets.ISO_8859_1);
    }

    private static int putDecimal(byte[] b, int pos, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative sequence " + value);
        }
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        long v = value;
        for (int i = pos + digits - 1; i >= pos; i--) {
            b[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return pos + digits;
    }
}
