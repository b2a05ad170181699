package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import org.apache.logging.log4j.core.time.Instant;

/**
 * A {@code timestamp} field, any pattern, zone, locale or epoch unit: once per second it is
 * rendered by log4j2 ({@link JsonFieldLayout}) three times, with nanos 0, 123456789 and
 * 987654321; where the three have one length and differ only in digits that are those nanos'
 * digits (the 2nd render's digit d at a place is nano digit d-1, the 3rd's is 9-(d-1), the 1st's
 * is 0), the second's text is kept with those places, and each event of that second gets the text
 * with its own nano digits written in. That covers {@code SSS}-style fractions, nano- and
 * milli-of-day and the fixed-width epochs. A second where the renders do not line up that way
 * (an epoch unit printed without padding, a pattern that prints the nanos unpadded) renders each
 * event through log4j2 (allocating), so the bytes stay log4j2's. Internal API.
 */
final class JsonTimestampNode extends JsonNode {

    private static final int PROBE_A = 123_456_789;
    private static final int PROBE_B = 987_654_321;
    private static final int[] POW10 = {100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

    /** One second's text; immutable, so writer threads may share the field without a fence. */
    private static final class Second {
        final long epochSecond;
        /** The text with nanos 0, or {@code null} when this second renders per event. */
        final byte[] base;
        final int[] places;
        /** For each place, which of the nine nano digits goes there (0 = hundreds of millis). */
        final int[] digits;

        Second(long epochSecond, byte[] base, int[] places, int[] digits) {
            this.epochSecond = epochSecond;
            this.base = base;
            this.places = places;
            this.digits = digits;
        }
    }

    private final JsonFieldLayout layout;
    private Second second;

    JsonTimestampNode(JsonFieldLayout layout) {
        this.layout = layout;
    }

    @Override
    void render(CapturedEvent event, ByteLineBuilder out, JsonScratch scratch) {
        Instant instant = event.getInstant();
        long epochSecond = instant.getEpochSecond();
        Second s = second;
        if (s == null || s.epochSecond != epochSecond) {
            s = probe(event, epochSecond);
            second = s;
        }
        if (s.base == null) {
            byte[] b = layout.render(event);
            out.append(b, 0, b.length);
            return;
        }
        int at = out.length();
        out.append(s.base, 0, s.base.length);
        byte[] a = out.array();
        int nanos = instant.getNanoOfSecond();
        int[] places = s.places;
        int[] digits = s.digits;
        for (int i = 0; i < places.length; i++) {
            a[at + places[i]] = (byte) ('0' + nanos / POW10[digits[i]] % 10);
        }
    }

    /** Renders {@code epochSecond} three times and works out where the nano digits go. */
    private Second probe(CapturedEvent event, long epochSecond) {
        CapturedEvent probe = new CapturedEvent(new CapturedContext());
        byte[] zero = render(probe, event, epochSecond, 0);
        byte[] a = render(probe, event, epochSecond, PROBE_A);
        byte[] b = render(probe, event, epochSecond, PROBE_B);
        if (zero.length == 0 || a.length != zero.length || b.length != zero.length) {
            return new Second(epochSecond, null, null, null);
        }
        int n = 0;
        int[] places = new int[zero.length];
        int[] digits = new int[zero.length];
        for (int i = 0; i < zero.length; i++) {
            if (zero[i] == a[i] && zero[i] == b[i]) {
                continue;
            }
            int d = a[i] - '1';
            if (zero[i] != '0' || d < 0 || d > 8 || b[i] != '9' - d) {
                return new Second(epochSecond, null, null, null);
            }
            places[n] = i;
            digits[n] = d;
            n++;
        }
        return new Second(epochSecond, zero, java.util.Arrays.copyOf(places, n), java.util.Arrays.copyOf(digits, n));
    }

    private byte[] render(CapturedEvent probe, CapturedEvent event, long epochSecond, int nanos) {
        probe.set(epochSecond, nanos, event.getLevel(), event.getLoggerName(), event.getThreadName(),
                event.getMessage());
        return layout.render(probe);
    }
}
