package io.github.spool.time;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.Objects;

/**
 * Formats instants straight into bytes with a {@link java.time.format.DateTimeFormatter}-style
 * pattern, rendering the date part once per second and only the sub-second digits per call.
 *
 * <h2>Supported pattern</h2>
 * {@code y} (year of era; {@code yy} two digits), {@code u} (proleptic year), {@code M}/{@code MM}
 * (month), {@code MMM}/{@code MMMM}/{@code MMMMM} (Jan / January / J), {@code d} {@code H}
 * {@code h} {@code K} {@code k} {@code m} {@code s} (one or two letters), {@code a} (AM/PM),
 * {@code E}..{@code EEEEE} (Mon / Monday / M), {@code S} (1-9 letters: fraction of second,
 * truncated), {@code n} (1-9 letters: the same fraction digits, log4j2's legacy
 * {@code FixedDateFormat} spelling; nine letters equal DateTimeFormatter's {@code nnnnnnnnn}),
 * {@code X}..{@code XXXXX} ({@code Z} at zero offset), {@code x}..{@code xxxxx} ({@code +00} ...
 * at zero), {@code Z}/{@code ZZ}/{@code ZZZ} ({@code +0000}) and {@code ZZZZZ}, text in single
 * quotes ({@code ''} is a quote), and any other non-letter character as itself. Output equals
 * {@code DateTimeFormatter.ofPattern(pattern, Locale.US).withZone(zone)} for all of these (text in
 * English whatever the default locale). Anything else — {@code G}, {@code z}, {@code VV},
 * optional sections {@code [ ]} — is rejected with an {@link IllegalArgumentException} naming it.
 *
 * <h2>How</h2>
 * The first call in a second renders the whole second (offset from {@link ZoneRules}, so DST
 * changes, leap days, negative and 30/45-minute offsets are right) into an immutable
 * {@code Second} snapshot and publishes it with a release store; every call copies the snapshot's
 * bytes and writes the fraction digits over their placeholders. Two slots (even and odd seconds)
 * keep threads whose events straddle a second boundary from evicting each other's snapshot.
 *
 * <p>Thread-safe and lock-free. Allocation: none per call; one snapshot (an object, a byte array
 * of {@link #maxLength()} bytes, a small int array, and the {@code Instant}/{@code LocalDateTime}
 * used to render it) per new second, on the thread that first formats that second.
 */
public final class TimestampFormat {

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Second[].class);
    private static final int[] POW10 = {1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
        1_000_000_000};

    /** One rendered second. Immutable: final fields, never written after publication. */
    private static final class Second {
        final long epochSecond;
        final byte[] bytes;
        final int length;
        final int[] fractionPositions;

        Second(long epochSecond, byte[] bytes, int length, int[] fractionPositions) {
            this.epochSecond = epochSecond;
            this.bytes = bytes;
            this.length = length;
            this.fractionPositions = fractionPositions;
        }
    }

    private final DatePattern compiled;
    private final ZoneId zone;
    private final ZoneRules rules;
    private final int[] fractionWidths;
    /** The common case: exactly one fraction field of three digits (SSS). */
    private final boolean millisOnly;
    private final boolean needsSubMillis;
    /** Slot {@code epochSecond & 1}; accessed with acquire loads and release stores only. */
    private final Second[] slots = new Second[2];

    private TimestampFormat(DatePattern compiled, ZoneId zone) {
        this.compiled = compiled;
        this.zone = zone;
        this.rules = zone.getRules();
        this.fractionWidths = compiled.fractionWidths();
        this.millisOnly = fractionWidths.length == 1 && fractionWidths[0] == 3;
        boolean sub = false;
        for (int w : fractionWidths) {
            sub |= w > 3;
        }
        this.needsSubMillis = sub;
    }

    /**
     * Compiles {@code pattern} for {@code zone}. Named formats are not resolved here: pass them
     * through {@link NamedDatePatterns} first.
     *
     * @param pattern a DateTimeFormatter-style pattern (see the class comment)
     * @param zone the zone to render in
     * @return the format
     * @throws IllegalArgumentException naming an unsupported letter or character
     */
    public static TimestampFormat ofPattern(String pattern, ZoneId zone) {
        Objects.requireNonNull(zone, "zone");
        return new TimestampFormat(DatePattern.parse(pattern), zone);
    }

    /**
     * Upper bound of one formatted timestamp; a caller needs this much room at {@code offset}.
     *
     * @return bytes
     */
    public int maxLength() {
        return compiled.maxLength();
    }

    /**
     * Whether the pattern shows more than millisecond precision ({@code SSSS} and longer), so the
     * caller should pass a precise instant to {@link #format(long, int, byte[], int)}.
     *
     * @return true if the pattern has a fraction field of more than three digits
     */
    public boolean needsSubMillis() {
        return needsSubMillis;
    }

    /**
     * The pattern as given.
     *
     * @return the pattern
     */
    public String pattern() {
        return compiled.pattern();
    }

    /**
     * The zone rendered in.
     *
     * @return the zone
     */
    public ZoneId zone() {
        return zone;
    }

    /**
     * Formats {@code epochMillis} into {@code dst} at {@code offset}; sub-millisecond digits print
     * as zeros. Needs {@link #maxLength()} bytes of room.
     *
     * @param epochMillis milliseconds since the epoch
     * @param dst destination
     * @param offset where to start
     * @return the offset after the last byte written
     */
    public int format(long epochMillis, byte[] dst, int offset) {
        final long epochSecond = Math.floorDiv(epochMillis, 1000L);
        final int millis = (int) (epochMillis - epochSecond * 1000L);
        final Second s = second(epochSecond);
        final int length = s.length;
        System.arraycopy(s.bytes, 0, dst, offset, length);
        if (millisOnly) {
            final int p = offset + s.fractionPositions[0];
            final int tens = millis / 10;
            dst[p] = (byte) ('0' + millis / 100);
            dst[p + 1] = (byte) ('0' + tens % 10);
            dst[p + 2] = (byte) ('0' + (millis - tens * 10));
        } else if (fractionWidths.length != 0) {
            writeFractions(s, millis * 1_000_000, dst, offset);
        }
        return offset + length;
    }

    /**
     * Formats the instant {@code epochSecond + nanoOfSecond} into {@code dst} at {@code offset}.
     * Patterns with millisecond precision or less ignore the extra digits (truncation, as
     * DateTimeFormatter does). Needs {@link #maxLength()} bytes of room.
     *
     * @param epochSecond seconds since the epoch
     * @param nanoOfSecond 0 to 999,999,999
     * @param dst destination
     * @param offset where to start
     * @return the offset after the last byte written
     */
    public int format(long epochSecond, int nanoOfSecond, byte[] dst, int offset) {
        final Second s = second(epochSecond);
        final int length = s.length;
        System.arraycopy(s.bytes, 0, dst, offset, length);
        if (fractionWidths.length != 0) {
            writeFractions(s, nanoOfSecond, dst, offset);
        }
        return offset + length;
    }

    private void writeFractions(Second s, int nanoOfSecond, byte[] dst, int offset) {
        final int[] widths = fractionWidths;
        final int[] positions = s.fractionPositions;
        for (int f = 0; f < widths.length; f++) {
            final int width = widths[f];
            int v = nanoOfSecond / POW10[9 - width];
            for (int p = offset + positions[f] + width - 1; p >= offset + positions[f]; p--) {
                dst[p] = (byte) ('0' + v % 10);
                v /= 10;
            }
        }
    }

    private Second second(long epochSecond) {
        final int slot = (int) epochSecond & 1;
        final Second s = (Second) SLOTS.getAcquire(slots, slot);
        if (s != null && s.epochSecond == epochSecond) {
            return s;
        }
        return render(epochSecond, slot);
    }

    /**
     * Slow path, once per second per slot. Several threads may render the same second at once;
     * they produce equal snapshots and the last release store wins, which is harmless. The release
     * store publishes the snapshot's contents (written before it) to every acquiring reader; the
     * fields are final as well, so even a racy read would see them complete (JLS 17.5).
     */
    private Second render(long epochSecond, int slot) {
        final ZoneOffset offset = rules.getOffset(Instant.ofEpochSecond(epochSecond));
        final LocalDateTime local = LocalDateTime.ofEpochSecond(epochSecond, 0, offset);
        final byte[] bytes = new byte[compiled.maxLength()];
        final int[] positions = new int[fractionWidths.length];
        final int length = compiled.render(local, offset.getTotalSeconds(), bytes, positions);
        final Second s = new Second(epochSecond, bytes, length, positions);
        SLOTS.setRelease(slots, slot, s);
        return s;
    }

    @Override
    public String toString() {
        return "TimestampFormat[" + pattern() + ", " + zone + "]";
    }
}
