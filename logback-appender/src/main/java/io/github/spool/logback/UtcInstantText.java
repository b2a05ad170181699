package io.github.spool.logback;

import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * {@code Instant.toString()} straight into bytes, e.g. {@code 2024-01-01T10:00:00.120Z}: the part
 * up to the seconds from {@code Instant.toString()} itself, once per second; per event the
 * fraction as {@code DateTimeFormatter.ISO_INSTANT} prints it — none for zero nanoseconds, else
 * 3, 6 or 9 digits, as few as show every non-zero digit. Thread-safe without locks. Internal.
 */
final class UtcInstantText {

    /**
     * The last second rendered. Volatile: its final fields are read only after the acquire that
     * found it; a thread that renders a new second publishes it with a release store (two threads
     * may render the same second at once, both results are equal).
     */
    private volatile Second last;

    void append(ByteLineBuilder out, long epochSecond, int nanos) {
        Second s = last;
        if (s == null || s.epochSecond != epochSecond) {
            s = new Second(epochSecond);
            last = s;
        }
        out.append(s.upToSeconds, 0, s.upToSeconds.length);
        if (nanos > 0) {
            int digits = nanos % 1_000_000 == 0 ? 3 : nanos % 1000 == 0 ? 6 : 9;
            int value = digits == 3 ? nanos / 1_000_000 : digits == 6 ? nanos / 1000 : nanos;
            out.append((byte) '.');
            for (int p = digits - 1; p >= 0; p--) {
                int pow = POWERS[p];
                out.append((byte) ('0' + value / pow % 10));
            }
        }
        out.append((byte) 'Z');
    }

    private static final int[] POWERS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000};

    private static final class Second {
        final long epochSecond;
        final byte[] upToSeconds;

        Second(long epochSecond) {
            this.epochSecond = epochSecond;
            String text = Instant.ofEpochSecond(epochSecond).toString(); // no fraction: nanos are 0
            this.upToSeconds = text.substring(0, text.length() - 1).getBytes(StandardCharsets.US_ASCII);
        }
    }
}
