package io.github.spool.undertow;

import io.github.spool.OwnedThreadLocal;
import io.github.spool.time.TimestampFormat;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * A {@link TimeText} over core's {@link TimestampFormat}, which renders the date part once per
 * second, plus the last {@code String} it made: Undertow's {@code ExchangeAttribute} must return a
 * {@code String}, so the remaining per-request cost is that object, and it is shared by every
 * request that falls in the same display unit (the same millisecond for a pattern with
 * {@code SSS}, the same second otherwise — {@code %{spoolTime}} changes once a second).
 *
 * <p>Thread-safe without locks: the last rendering is an immutable pair published with a release
 * store and read with an acquire load; racing threads that miss together each render and the last
 * store wins, with equal text.
 */
final class CachedTimestampText implements TimeText {

    private static final VarHandle LAST;

    static {
        try {
            LAST = MethodHandles.lookup().findVarHandle(CachedTimestampText.class, "last", Rendered.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The text of every instant whose {@code floorDiv(millis, unitMillis)} is {@code key}. Immutable. */
    private static final class Rendered {
        final long key;
        final String text;

        Rendered(long key, String text) {
            this.key = key;
            this.text = text;
        }
    }

    private final TimestampFormat format;
    private final long unitMillis;
    private final Charset charset;
    /** Per-thread render buffer, held by this object so pool threads keep no reference to it. */
    private final OwnedThreadLocal<byte[]> buffers;
    /** Read with getAcquire, written with setRelease; replaced, never mutated. */
    private Rendered last = new Rendered(Long.MIN_VALUE, "");

    /**
     * @param format     the compiled pattern
     * @param unitMillis 1 if the pattern shows milliseconds, 1000 if it shows seconds at most
     * @param ascii      whether every byte the pattern prints is ASCII (decoded as Latin-1: one copy)
     */
    CachedTimestampText(TimestampFormat format, long unitMillis, boolean ascii) {
        this.format = format;
        this.unitMillis = unitMillis;
        this.charset = ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8;
        final int length = format.maxLength();
        this.buffers = OwnedThreadLocal.withInitial(() -> new byte[length]);
    }

    @Override
    public String format(long epochMillis) {
        final long key = Math.floorDiv(epochMillis, unitMillis);
        final Rendered r = (Rendered) LAST.getAcquire(this);
        if (r.key == key) {
            return r.text;
        }
        final byte[] b = buffers.get();
        final String text = new String(b, 0, format.format(epochMillis, b, 0), charset);
        LAST.setRelease(this, new Rendered(key, text));
        return text;
    }

    @Override
    public boolean cached() {
        return true;
    }

    @Override
    public String toString() {
        return format.toString();
    }
}
