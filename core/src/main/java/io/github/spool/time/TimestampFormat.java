package io.github.spool.time;

import io.github.spool.OwnedThreadLocal;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
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
 * changes, leap days, negative and 30/45-minute offsets are right) into one of two reusable slots
 * (even and odd seconds, so threads whose events straddle a second boundary do not evict each
 * other); every call copies the slot's bytes and writes the fraction digits over their
 * placeholders. While Spool's writers run, they render each coming second ahead into its slot
 * ({@link #prepareNextSecond}), so the first call of a second rarely renders it. A slot is
 * rewritten in place under a sequence lock ({@code SecondSlot}): readers never block and retry
 * nothing. A reader that finds its slot being rewritten, or holding another second, uses its
 * thread's own slot instead (rendered only when that thread's second changes,
 * then offered to the shared slot), so threads in different seconds do not evict each other on
 * every call.
 *
 * <p>Thread-safe and lock-free. Allocation: none per call and none per second; each thread that
 * ever misses the shared slots allocates its own slot once ({@code maxLength()} bytes plus a small
 * header, held in a {@code ThreadLocal} of this instance; virtual threads borrow one from a small
 * pool instead, see {@code OwnedThreadLocal#acquire()}). The offset comes
 * from a cached window {@code [from, nextTransition)} of the zone's rules; only when an instant
 * leaves that window (a DST change, i.e. about twice a year, or timestamps jumping around) are
 * {@code ZoneRules} asked again, which allocates a few small objects.
 */
public final class TimestampFormat {

    private static final VarHandle WINDOW;
    /** Unaligned 8-byte access to byte arrays: copies a snapshot in a few moves, no stub call. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    static {
        try {
            WINDOW = MethodHandles.lookup().findVarHandle(TimestampFormat.class, "window", OffsetWindow.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The zone's offset over {@code [from, until)} epoch seconds. Immutable. */
    private static final class OffsetWindow {
        final long from;
        final long until;
        final int offsetSeconds;

        OffsetWindow(long from, long until, int offsetSeconds) {
            this.from = from;
            this.until = until;
            this.offsetSeconds = offsetSeconds;
        }
    }

    private final DatePattern compiled;
    private final ZoneId zone;
    private final ZoneRules rules;
    private final int[] fractionWidths;
    private final int maxLength;
    /** The common case: exactly one fraction field of three digits (SSS). */
    private final boolean millisOnly;
    private final boolean needsSubMillis;
    private final SecondSlot even;
    private final SecondSlot odd;
    /**
     * Each thread's own rendered second, used when the shared slot misses; touched by its thread
     * only (its version is unused). Allocated on a thread's first miss, never per call.
     */
    private final OwnedThreadLocal<SecondSlot> ownSlots; // owned by the format: pool threads keep no SecondSlot
    /** Published with release stores, read with acquire loads; replaced, never mutated. */
    private OffsetWindow window;
    /** Where {@link #renderAhead} renders; touched under SecondsAhead's lock only. */
    private SecondSlot ahead;

    private TimestampFormat(DatePattern compiled, ZoneId zone) {
        this.compiled = compiled;
        this.zone = zone;
        this.rules = zone.getRules();
        this.fractionWidths = compiled.fractionWidths();
        this.maxLength = compiled.maxLength();
        this.millisOnly = fractionWidths.length == 1 && fractionWidths[0] == 3;
        boolean sub = false;
        for (int w : fractionWidths) {
            sub |= w > 3;
        }
        this.needsSubMillis = sub;
        this.even = new SecondSlot(maxLength, fractionWidths.length);
        this.odd = new SecondSlot(maxLength, fractionWidths.length);
        final int slotLength = maxLength;
        final int fractions = fractionWidths.length;
        this.ownSlots = OwnedThreadLocal.withInitial(() -> new SecondSlot(slotLength, fractions));
        this.window = rules.isFixedOffset()
            ? new OffsetWindow(Long.MIN_VALUE, Long.MAX_VALUE, rules.getOffset(Instant.EPOCH).getTotalSeconds())
            : new OffsetWindow(0, 0, 0); // empty: the first call computes a real one
        if (fractionWidths.length <= 1) {
            SecondsAhead.register(this); // patterns with several fractions render whole: no slots
        }
    }

    /**
     * Renders the coming second of every format in use ahead of time, when {@code nowMillis} is
     * past the middle of its second, so that no logging call renders a whole second (the writer
     * threads call this on every pass, and each appender's ahead thread once a second; see
     * {@code SecondsAhead}). Cheap when there is nothing to do: one volatile read. Never throws: a
     * format that cannot render its next second is skipped, and fails on the call that needs it.
     *
     * @param nowMillis the wall clock, milliseconds since the epoch
     */
    public static void prepareNextSecond(long nowMillis) {
        SecondsAhead.tick(nowMillis);
    }

    /**
     * Renders {@code next} into its shared slot if this format was used in {@code current} (its
     * slot holds that second): an idle format is skipped. SecondsAhead calls this under its lock.
     */
    void renderAhead(long next, long current) {
        if (sharedSlot(current).epochSecond != current) { // a racy read: only a hint
            return;
        }
        SecondSlot target = sharedSlot(next);
        long version = target.lvVersion();
        if (target.epochSecond == next) {
            return;
        }
        SecondSlot a = ahead;
        if (a == null) {
            ahead = a = new SecondSlot(maxLength, fractionWidths.length);
        }
        renderAndOffer(a, next, target, version);
    }

    /**
     * Renders {@code epochSecond} into {@code slot} (one nobody else writes), then offers it to the
     * shared slot, if that is still at {@code sharedVersion}.
     */
    private void renderAndOffer(SecondSlot slot, long epochSecond, SecondSlot shared, long sharedVersion) {
        slot.length = compiled.render(epochSecond, offsetSeconds(epochSecond), 0, slot.bytes, 0,
            slot.fractionPositions);
        slot.epochSecond = epochSecond;
        shared.tryPublish(sharedVersion, slot);
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
        return maxLength;
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
     * as zeros. Needs {@link #maxLength()} bytes of room (bytes past the returned offset, within
     * that room, may be overwritten).
     *
     * @param epochMillis milliseconds since the epoch
     * @param dst destination
     * @param offset where to start
     * @return the offset after the last byte written
     */
    public int format(long epochMillis, byte[] dst, int offset) {
        final long epochSecond = Math.floorDiv(epochMillis, 1000L);
        final int millis = (int) (epochMillis - epochSecond * 1000L);
        final SecondSlot slot = sharedSlot(epochSecond);
        final long version = slot.lvVersion();
        if (millisOnly && slot.epochSecond == epochSecond && (version & 1) == 0) {
            final int length = slot.length;
            final int p = offset + slot.fractionPositions[0];
            copy(slot.bytes, dst, offset, length);
            VarHandle.acquireFence(); // the reads above complete before the version re-read
            if (slot.lvVersion() == version) {
                final int tens = millis / 10;
                dst[p] = (byte) ('0' + millis / 100);
                dst[p + 1] = (byte) ('0' + tens % 10);
                dst[p + 2] = (byte) ('0' + (millis - tens * 10));
                return offset + length;
            }
        }
        return format(epochSecond, millis * 1_000_000, dst, offset);
    }

    /**
     * Formats the instant {@code epochSecond + nanoOfSecond} into {@code dst} at {@code offset}.
     * Patterns with millisecond precision or less ignore the extra digits (truncation, as
     * DateTimeFormatter does). Needs {@link #maxLength()} bytes of room (bytes past the returned
     * offset, within that room, may be overwritten).
     *
     * @param epochSecond seconds since the epoch
     * @param nanoOfSecond 0 to 999,999,999
     * @param dst destination
     * @param offset where to start
     * @return the offset after the last byte written
     */
    public int format(long epochSecond, int nanoOfSecond, byte[] dst, int offset) {
        if (fractionWidths.length > 1) {
            // Several fraction fields (rare): the snapshot saves little, render whole.
            return renderDirect(epochSecond, nanoOfSecond, dst, offset);
        }
        final SecondSlot slot = sharedSlot(epochSecond);
        final long version = slot.lvVersion();
        if ((version & 1) == 0 && slot.epochSecond == epochSecond) {
            final int length = slot.length;
            final int[] positions = slot.fractionPositions;
            final int p0 = positions.length == 1 ? positions[0] : 0;
            copy(slot.bytes, dst, offset, length);
            VarHandle.acquireFence(); // the reads above complete before the version re-read
            if (slot.lvVersion() == version) {
                if (positions.length == 1) {
                    DatePattern.fraction(nanoOfSecond, fractionWidths[0], dst, offset + p0);
                }
                return offset + length;
            }
        }
        return formatFromOwnSlot(slot, version, epochSecond, nanoOfSecond, dst, offset);
    }

    /** The shared slot for {@code epochSecond}: even and odd seconds have one each. For tests too. */
    SecondSlot sharedSlot(long epochSecond) {
        return (epochSecond & 1) == 0 ? even : odd;
    }

    /** The calling thread's own slot (created if it has none yet). For tests. */
    SecondSlot ownSlot() {
        return ownSlots.get();
    }

    /**
     * The shared slot of {@code epochSecond}'s parity holds another second, is being rewritten,
     * or changed under the copy: use this thread's own slot, rendering it only when this thread's
     * own second changed, and offer that render to the shared slot.
     *
     * <p>Why a per-thread slot: without it, two threads formatting different seconds of the same
     * parity (a thread formatting late events, events replayed from a file, a clock stepped by
     * NTP) would rewrite the shared slot on every call, each rendering the whole second twice and
     * bouncing the slot's cache lines between cores. With it, each thread renders and publishes at
     * most once per change of its own second, however the threads' seconds interleave; the common
     * case (all threads in the same second) still hits the shared slot and never reaches here.
     */
    private int formatFromOwnSlot(SecondSlot shared, long sharedVersion, long epochSecond, int nanoOfSecond,
                                  byte[] dst, int offset) {
        final SecondSlot own = ownSlots.acquire();
        try {
            if (own.epochSecond != epochSecond) {
                renderAndOffer(own, epochSecond, shared, sharedVersion);
            }
            final int length = own.length;
            copy(own.bytes, dst, offset, length);
            if (fractionWidths.length == 1) {
                DatePattern.fraction(nanoOfSecond, fractionWidths[0], dst, offset + own.fractionPositions[0]);
            }
            return offset + length;
        } finally {
            ownSlots.release(own);
        }
    }

    private int renderDirect(long epochSecond, int nanoOfSecond, byte[] dst, int offset) {
        Objects.checkFromIndexSize(offset, maxLength, dst.length);
        return compiled.render(epochSecond, offsetSeconds(epochSecond), nanoOfSecond, dst, offset, null);
    }

    /** The zone's offset at {@code epochSecond}; allocation-free while inside the cached window. */
    private int offsetSeconds(long epochSecond) {
        final OffsetWindow w = (OffsetWindow) WINDOW.getAcquire(this);
        if (epochSecond >= w.from && epochSecond < w.until) {
            return w.offsetSeconds;
        }
        final Instant instant = Instant.ofEpochSecond(epochSecond);
        final int offset = rules.getOffset(instant).getTotalSeconds();
        final ZoneOffsetTransition next = rules.nextTransition(instant);
        // previousTransition is strictly before its argument: +1 s finds one at epochSecond itself.
        final ZoneOffsetTransition prev = rules.previousTransition(instant.plusSeconds(1));
        // The whole period between two transitions; racing threads publish equal windows, and the
        // last release store wins.
        WINDOW.setRelease(this, new OffsetWindow(prev == null ? Long.MIN_VALUE : prev.toEpochSecond(),
            next == null ? Long.MAX_VALUE : next.toEpochSecond(), offset));
        return offset;
    }

    /**
     * Copies {@code src[0, length)} to {@code dst[offset, offset + length)}. Timestamps are short
     * (typically 12 to 30 bytes): a few overlapping 8-byte moves beat the arraycopy stub call.
     */
    private static void copy(byte[] src, byte[] dst, int offset, int length) {
        if (length < 8 || length > 32) {
            System.arraycopy(src, 0, dst, offset, length);
            return;
        }
        // Bounds-check once up front so a short dst fails before any byte is written, as
        // arraycopy would.
        Objects.checkFromIndexSize(offset, length, dst.length);
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            LONGS.set(dst, offset + i, (long) LONGS.get(src, i));
        }
        if (i < length) {
            final int last = length - 8; // overlapping final move
            LONGS.set(dst, offset + last, (long) LONGS.get(src, last));
        }
    }

    @Override
    public String toString() {
        return "TimestampFormat[" + pattern() + ", " + zone + "]";
    }
}
