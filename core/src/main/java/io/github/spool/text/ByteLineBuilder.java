package io.github.spool.text;

import io.github.spool.time.TimestampFormat;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte array that a layout encodes one log line into before handing
 * {@code array()[0, length())} to the ring. Not thread-safe: one per thread (a {@code ThreadLocal}
 * or a per-thread layout state). Appends allocate only when the line outgrows the array; after a
 * huge line, {@link #reset()} gives the big array back (see {@link #maxRetainedCapacity()}), so
 * memory stays bounded by what ordinary lines need.
 */
public final class ByteLineBuilder {

    /** Default cap on what {@link #reset()} keeps: 256 KiB. */
    public static final int DEFAULT_MAX_RETAINED_CAPACITY = 256 * 1024;

    /** Strings longer than this are measured exactly before growing, not reserved at 3 bytes/char. */
    private static final int EXACT_LENGTH_THRESHOLD = 1024;

    /** Largest array size the JVM reliably allocates. */
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    private static final java.lang.invoke.VarHandle INT =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.BIG_ENDIAN);
    private static final java.lang.invoke.VarHandle LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);
    private static final java.lang.invoke.VarHandle CHAR =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(char[].class, java.nio.ByteOrder.BIG_ENDIAN);

    /** Chars copied per bulk-encoding step; bounds the scratch array. */
    static final int CHUNK = 256;

    /** Copies of at most this many bytes are done with a loop instead of {@code System.arraycopy}. */
    private static final int SMALL_COPY = 8;

    /** Below this many chars the per-char loop of {@link Utf8} beats the bulk path's fixed cost. */
    private static final int BULK_THRESHOLD = 16;

    private final int initialCapacity;
    private final int maxRetainedCapacity;
    private byte[] buf;
    private int len;

    // Bulk encoding state, per builder (hence per thread): String/StringBuilder chars are copied
    // with getChars (an intrinsic) into the scratch array, and the JDK's UTF-8 encoder encodes
    // that array with its ASCII fast path (JavaLangAccess.encodeASCII in JDK 17). About 3x faster
    // than a charAt loop for a 90-char ASCII message, measured. REPLACE with the encoder's default
    // replacement "?" is exactly what String.getBytes(UTF_8) does with an unpaired surrogate, and
    // the CoderResults for malformed lengths 1..4 are preallocated: nothing allocates per call.
    private final char[] scratch = new char[CHUNK];
    private final CharBuffer scratchChars = CharBuffer.wrap(scratch);
    private final CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
        .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    /** A view of {@link #buf}; re-wrapped only when {@code buf} is replaced. */
    private ByteBuffer bufView;

    /**
     * Creates a builder that keeps at most {@code max(initialCapacity,}
     * {@value #DEFAULT_MAX_RETAINED_CAPACITY}{@code )} bytes across {@link #reset()}.
     *
     * @param initialCapacity bytes to allocate now (and to shrink back to)
     */
    public ByteLineBuilder(int initialCapacity) {
        this(initialCapacity, Math.max(initialCapacity, DEFAULT_MAX_RETAINED_CAPACITY));
    }

    /**
     * Creates a builder with an explicit retention cap.
     *
     * @param initialCapacity bytes to allocate now (and to shrink back to)
     * @param maxRetainedCapacity {@link #reset()} replaces a larger array with a new one of
     *     {@code initialCapacity} bytes
     */
    public ByteLineBuilder(int initialCapacity, int maxRetainedCapacity) {
        if (initialCapacity < 1 || maxRetainedCapacity < initialCapacity) {
            throw new IllegalArgumentException("need 1 <= initialCapacity <= maxRetainedCapacity, got "
                + initialCapacity + ", " + maxRetainedCapacity);
        }
        this.initialCapacity = initialCapacity;
        this.maxRetainedCapacity = maxRetainedCapacity;
        this.buf = new byte[initialCapacity];
        this.bufView = ByteBuffer.wrap(buf);
    }

    /**
     * Empties the builder for the next line; if a huge line grew the array past
     * {@link #maxRetainedCapacity()}, replaces it with one of the initial capacity.
     */
    public void reset() {
        len = 0;
        if (buf.length > maxRetainedCapacity) {
            buf = new byte[initialCapacity];
            bufView = ByteBuffer.wrap(buf);
        }
    }

    /**
     * The retention cap of {@link #reset()}.
     *
     * @return bytes
     */
    public int maxRetainedCapacity() {
        return maxRetainedCapacity;
    }

    /**
     * Bytes appended since the last reset.
     *
     * @return the line length
     */
    public int length() {
        return len;
    }

    /**
     * Cuts the line back to {@code length} bytes (e.g. to drop a trailing separator).
     *
     * @param length new length, at most {@link #length()}
     */
    public void setLength(int length) {
        if (length < 0 || length > len) {
            throw new IndexOutOfBoundsException("length " + length + " not in [0, " + len + "]");
        }
        len = length;
    }

    /**
     * The backing array; valid bytes are {@code [0, length())}. Appends may replace it.
     *
     * @return the current array (not a copy)
     */
    public byte[] array() {
        return buf;
    }

    /**
     * The bytes as a buffer over the builder's own array, position 0 and limit {@link #length()}:
     * for handing them to a channel without a copy or an allocation. Valid until the next append
     * or {@link #reset()}; the builder moves this buffer's position and limit itself.
     *
     * @return the view
     */
    public ByteBuffer view() {
        bufView.limit(len).position(0);
        return bufView;
    }

    /**
     * Current array size.
     *
     * @return bytes
     */
    public int capacity() {
        return buf.length;
    }

    /**
     * Makes sure {@code bytes} more bytes fit without another allocation.
     *
     * @param bytes room needed after {@link #length()}
     */
    public void ensureRoom(int bytes) {
        if (bytes > buf.length - len) {
            grow((long) len + bytes);
        }
    }

    private void grow(long needed) {
        if (needed > MAX_ARRAY) {
            throw new OutOfMemoryError("line of " + needed + " bytes exceeds the maximum array size");
        }
        long doubled = Math.min((long) buf.length << 1, MAX_ARRAY);
        buf = Arrays.copyOf(buf, (int) Math.max(needed, doubled));
        bufView = ByteBuffer.wrap(buf);
    }

    /**
     * Appends {@code length} bytes from {@code src}'s position, moving it past them.
     *
     * @param src    the bytes
     * @param length how many
     * @return this
     */
    public ByteLineBuilder append(ByteBuffer src, int length) {
        ensureRoom(length);
        src.get(buf, len, length);
        len += length;
        return this;
    }

    /**
     * Appends {@code v} as four raw bytes, big-endian: for binary records, not text.
     *
     * @param v the value
     * @return this
     */
    public ByteLineBuilder putInt(int v) {
        ensureRoom(4);
        INT.set(buf, len, v);
        len += 4;
        return this;
    }

    /**
     * Overwrites four bytes already appended with {@code v}, big-endian (a length known only after
     * what it measures was appended).
     *
     * @param at index of the first byte; {@code at + 4 <= length()}
     * @param v  the value
     */
    public void setInt(int at, int v) {
        if (at < 0 || at + 4 > len) {
            throw new IndexOutOfBoundsException("int at " + at + " not in [0, " + len + ")");
        }
        INT.set(buf, at, v);
    }

    /**
     * Appends {@code v} as eight raw bytes, big-endian: for binary records, not text.
     *
     * @param v the value
     * @return this
     */
    public ByteLineBuilder putLong(long v) {
        ensureRoom(8);
        LONG.set(buf, len, v);
        len += 8;
        return this;
    }

    /**
     * Appends the chars {@code s[start, end)} as raw UTF-16, big-endian, two bytes each (lone
     * surrogates kept): for binary records, not text.
     *
     * @param s     the chars
     * @param start first index
     * @param end   end index, exclusive
     * @return this
     */
    public ByteLineBuilder putChars(CharSequence s, int start, int end) {
        ensureRoom(2 * (end - start));
        final byte[] b = buf;
        int p = len;
        for (int i = start; i < end; i++) {
            CHAR.set(b, p, s.charAt(i));
            p += 2;
        }
        len = p;
        return this;
    }

    /**
     * Appends the chars of {@code s} as single bytes: for text known to be ASCII (level names,
     * separators); a char above 0x7F becomes {@code '?'}. {@code null} appends "null".
     *
     * @param s ASCII text
     * @return this
     */
    public ByteLineBuilder appendAscii(String s) {
        if (s == null) {
            return append(NULL, 0, NULL.length);
        }
        final int n = s.length();
        ensureRoom(n);
        final byte[] b = buf;
        int p = len;
        for (int i = 0; i < n; i++) {
            final char c = s.charAt(i);
            b[p++] = c < 0x80 ? (byte) c : (byte) '?';
        }
        len = p;
        return this;
    }

    /**
     * Appends {@code s} in UTF-8 (unpaired surrogates become {@code '?'}); {@code null} appends
     * "null", as {@link StringBuilder#append(CharSequence)} does.
     *
     * @param s text
     * @return this
     */
    public ByteLineBuilder append(CharSequence s) {
        if (s == null) {
            return append(NULL, 0, NULL.length);
        }
        return append(s, 0, s.length());
    }

    /**
     * Appends {@code s[start, end)} in UTF-8.
     *
     * @param s text
     * @param start first index, inclusive
     * @param end last index, exclusive
     * @return this
     */
    public ByteLineBuilder append(CharSequence s, int start, int end) {
        final int n = end - start;
        if (n > EXACT_LENGTH_THRESHOLD && 3L * n > buf.length - len) {
            // A huge message: reserve what it needs, not three times its length.
            ensureRoom(Utf8.encodedLength(s, start, end));
        } else {
            ensureRoom(3 * n);
        }
        if (n >= BULK_THRESHOLD && (s instanceof String || s instanceof StringBuilder)) {
            len = encodeBulk(s, start, end);
        } else {
            len = Utf8.encode(s, start, end, buf, len);
        }
        return this;
    }

    /**
     * Encodes {@code s[start, end)} chunk by chunk through the scratch array; room is ensured.
     * A chunk never ends on a high surrogate with more input after it, so a pair is never split
     * and each chunk can be encoded as complete input.
     */
    private int encodeBulk(CharSequence s, int start, int end) {
        final ByteBuffer out = bufView;
        out.limit(out.capacity()).position(len);
        int i = start;
        while (i < end) {
            int n = Math.min(end - i, CHUNK);
            if (i + n < end && Character.isHighSurrogate(s.charAt(i + n - 1))) {
                n--; // keep a possible pair together: it starts the next chunk
            }
            if (s instanceof String) {
                ((String) s).getChars(i, i + n, scratch, 0);
            } else {
                ((StringBuilder) s).getChars(i, i + n, scratch, 0);
            }
            scratchChars.limit(n).position(0);
            encoder.reset();
            // Cannot overflow (the caller ensured 3 bytes per char, or the exact length, and the
            // encoder checks room per character) and REPLACE handles malformed input, so the
            // chunk is always consumed whole; anything else would lose text, so say so loudly.
            encoder.encode(scratchChars, out, true);
            if (scratchChars.hasRemaining()) {
                throw new IllegalStateException("UTF-8 encoder stopped at " + scratchChars.position() + " of " + n);
            }
            i += n;
        }
        return out.position();
    }

    /**
     * Appends one byte.
     *
     * @param b the byte
     * @return this
     */
    public ByteLineBuilder append(byte b) {
        if (len == buf.length) {
            grow(len + 1L);
        }
        buf[len++] = b;
        return this;
    }

    /**
     * Appends {@code b[off, off + len)}.
     *
     * @param b source
     * @param off first byte
     * @param len number of bytes
     * @return this
     */
    public ByteLineBuilder append(byte[] b, int off, int len) {
        ensureRoom(len);
        final byte[] d = buf;
        final int p = this.len;
        if (len <= SMALL_COPY) {
            // Separators and short literals ("] ", " - ", "\n"): a plain loop beats the call into
            // the arraycopy stub, which costs more than the copy at this size.
            for (int i = 0; i < len; i++) {
                d[p + i] = b[off + i];
            }
        } else {
            System.arraycopy(b, off, d, p, len);
        }
        this.len = p + len;
        return this;
    }

    /**
     * Appends {@code v} in decimal, as {@link Long#toString(long)} prints it, without allocating.
     *
     * @param v the value
     * @return this
     */
    public ByteLineBuilder appendDecimal(long v) {
        ensureRoom(20);
        final byte[] b = buf;
        int p = len;
        if (v < 0) {
            b[p++] = '-';
        }
        // Work on the negative value: -Long.MIN_VALUE does not exist. Two digits per division, as
        // Long.getChars does: a 64-bit division costs tens of cycles, so halving their number is
        // what makes this cheaper than one digit at a time (e2e profile, docs/benchmarks.md).
        long neg = v < 0 ? v : -v;
        int end = p + digits(neg);
        int k = end;
        while (neg <= -100) {
            long q = neg / 100;
            int r = (int) (q * 100 - neg); // 0..99
            b[--k] = DIGIT_ONES[r];
            b[--k] = DIGIT_TENS[r];
            neg = q;
        }
        int r = (int) -neg; // 0..99
        b[--k] = DIGIT_ONES[r];
        if (r >= 10) {
            b[--k] = DIGIT_TENS[r];
        }
        len = end;
        return this;
    }

    /** Number of decimal digits of {@code neg}, a value {@code <= 0}. */
    private static int digits(long neg) {
        long t = -10;
        for (int d = 1; d < 19; d++) {
            if (neg > t) {
                return d;
            }
            t *= 10;
        }
        return 19;
    }

    private static final byte[] DIGIT_TENS = new byte[100];
    private static final byte[] DIGIT_ONES = new byte[100];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_TENS[i] = (byte) ('0' + i / 10);
            DIGIT_ONES[i] = (byte) ('0' + i % 10);
        }
    }

    /**
     * Appends {@code epochMillis} formatted by {@code f}.
     *
     * @param f the format
     * @param epochMillis milliseconds since the epoch
     * @return this
     */
    public ByteLineBuilder appendTimestamp(TimestampFormat f, long epochMillis) {
        ensureRoom(f.maxLength());
        len = f.format(epochMillis, buf, len);
        return this;
    }

    /**
     * Appends the instant {@code epochSecond + nanoOfSecond} formatted by {@code f}.
     *
     * @param f the format
     * @param epochSecond seconds since the epoch
     * @param nanoOfSecond 0 to 999,999,999
     * @return this
     */
    public ByteLineBuilder appendTimestamp(TimestampFormat f, long epochSecond, int nanoOfSecond) {
        ensureRoom(f.maxLength());
        len = f.format(epochSecond, nanoOfSecond, buf, len);
        return this;
    }

    @Override
    public String toString() {
        return "ByteLineBuilder[length=" + len + ", capacity=" + buf.length + "]";
    }
}
