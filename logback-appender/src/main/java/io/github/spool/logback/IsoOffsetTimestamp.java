package io.github.spool.logback;

import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * {@code DateTimeFormatter.ISO_OFFSET_DATE_TIME} in one zone, straight into bytes: what
 * logstash-logback-encoder's default {@code @timestamp} ({@code [ISO_OFFSET_DATE_TIME]} in
 * {@code TimeZone.getDefault()}) prints, e.g. {@code 2023-11-14T23:13:20.12+01:00}. The date, time
 * to the second and the offset come from {@code DateTimeFormatter} itself, once per second (so
 * offsets, DST changes and years are its own); per event only the fraction is written: none for
 * zero nanoseconds, else up to nine digits without trailing zeros, as its
 * {@code appendFraction(NANO_OF_SECOND, 0, 9, true)} prints them.
 *
 * <p>Thread-safe without locks; used by the logging threads and the writer. Internal.
 */
final class IsoOffsetTimestamp {

    private static final int[] POWERS = {100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

    private final DateTimeFormatter formatter;

    /**
     * The last second rendered. Volatile: its final fields are read only after the acquire that
     * found it, and a thread that renders a new second publishes it with a release store; two
     * threads may render the same second at once, both results are equal, either may stay.
     */
    private volatile Second last;

    IsoOffsetTimestamp(ZoneId zone) {
        this.formatter = DateTimeFormatter.ISO_OFFSET_DATE_TIME.withZone(zone);
    }

    void append(ByteLineBuilder out, long epochSecond, int nanoOfSecond) {
        Second s = last;
        if (s == null || s.epochSecond != epochSecond) {
            s = new Second(epochSecond, formatter);
            last = s;
        }
        out.append(s.upToSeconds, 0, s.upToSeconds.length);
        if (nanoOfSecond > 0) {
            out.append((byte) '.');
            int n = nanoOfSecond;
            for (int k = 0; k < POWERS.length && n != 0; k++) {
                int digit = n / POWERS[k];
                out.append((byte) ('0' + digit));
                n -= digit * POWERS[k];
            }
        }
        out.append(s.offset, 0, s.offset.length);
    }

    /** One second's text, split around where the fraction goes. */
    private static final class Second {
        final long epochSecond;
        final byte[] upToSeconds;
        final byte[] offset;

        Second(long epochSecond, DateTimeFormatter formatter) {
            this.epochSecond = epochSecond;
            String text = formatter.format(Instant.ofEpochSecond(epochSecond)); // no fraction: nanos are 0
            int end = text.indexOf('T') + 9; // THH:mm:ss
            this.upToSeconds = text.substring(0, end).getBytes(StandardCharsets.US_ASCII);
            this.offset = text.substring(end).getBytes(StandardCharsets.US_ASCII);
        }
    }
}
