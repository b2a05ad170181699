package io.github.spool.text;

import java.nio.ByteBuffer;

/**
 * Allocation-free UTF-8 encoding of {@link CharSequence}s ({@code String}, {@code StringBuilder},
 * log4j2's reusable messages). Output is byte-for-byte what {@code String.getBytes(UTF_8)} gives:
 * a surrogate pair becomes four bytes, an unpaired surrogate (high without a following low, or a
 * low without a preceding high) becomes {@code '?'}, as the JDK encoder's replacement does.
 * Static and stateless, hence thread-safe. A per-char loop: for long runs of text from a
 * {@code String} or {@code StringBuilder}, {@link ByteLineBuilder#append(CharSequence)} is faster
 * (it bulk-copies into per-thread scratch and uses the JDK encoder's ASCII loop).
 */
public final class Utf8 {

    private Utf8() {
    }

    /**
     * Encodes {@code s[start, end)} into {@code dst} from {@code offset}. The caller guarantees
     * room: {@code 3 * (end - start)} bytes always suffice (a pair is 2 chars and 4 bytes), or
     * exactly {@link #encodedLength}.
     *
     * @param s the characters
     * @param start first index, inclusive
     * @param end last index, exclusive
     * @param dst destination
     * @param offset where to start writing
     * @return the offset after the last byte written
     * @throws ArrayIndexOutOfBoundsException if {@code dst} is too small (bytes before that point
     *     are written)
     */
    public static int encode(CharSequence s, int start, int end, byte[] dst, int offset) {
        int i = start;
        int p = offset;
        // ASCII run first: the common case, and a loop the JIT keeps tight.
        while (i < end) {
            final char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            dst[p++] = (byte) c;
            i++;
        }
        while (i < end) {
            final char c = s.charAt(i++);
            if (c < 0x80) {
                dst[p++] = (byte) c;
            } else if (c < 0x800) {
                dst[p++] = (byte) (0xC0 | (c >> 6));
                dst[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (!Character.isSurrogate(c)) {
                dst[p++] = (byte) (0xE0 | (c >> 12));
                dst[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                dst[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i < end && Character.isLowSurrogate(s.charAt(i))) {
                final int cp = Character.toCodePoint(c, s.charAt(i++));
                dst[p++] = (byte) (0xF0 | (cp >> 18));
                dst[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                dst[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                dst[p++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                dst[p++] = '?'; // unpaired surrogate: the JDK encoder's replacement
            }
        }
        return p;
    }

    /**
     * Encodes as much of {@code s[start, end)} as fits into {@code dst}, with relative puts from
     * its position (which advances). Stops before a character whose bytes do not all fit, and
     * never splits a surrogate pair; call again with {@code start + returned} once there is room.
     *
     * @param s the characters
     * @param start first index, inclusive
     * @param end last index, exclusive
     * @param dst destination; its position advances by the bytes written
     * @return the number of chars consumed (encoded)
     */
    public static int encode(CharSequence s, int start, int end, ByteBuffer dst) {
        int i = start;
        int p = dst.position();
        final int limit = dst.limit();
        while (i < end) {
            final char c = s.charAt(i);
            if (c < 0x80) {
                if (p >= limit) {
                    break;
                }
                dst.put(p++, (byte) c);
                i++;
            } else if (c < 0x800) {
                if (limit - p < 2) {
                    break;
                }
                dst.put(p++, (byte) (0xC0 | (c >> 6)));
                dst.put(p++, (byte) (0x80 | (c & 0x3F)));
                i++;
            } else if (!Character.isSurrogate(c)) {
                if (limit - p < 3) {
                    break;
                }
                dst.put(p++, (byte) (0xE0 | (c >> 12)));
                dst.put(p++, (byte) (0x80 | ((c >> 6) & 0x3F)));
                dst.put(p++, (byte) (0x80 | (c & 0x3F)));
                i++;
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(s.charAt(i + 1))) {
                if (limit - p < 4) {
                    break;
                }
                final int cp = Character.toCodePoint(c, s.charAt(i + 1));
                dst.put(p++, (byte) (0xF0 | (cp >> 18)));
                dst.put(p++, (byte) (0x80 | ((cp >> 12) & 0x3F)));
                dst.put(p++, (byte) (0x80 | ((cp >> 6) & 0x3F)));
                dst.put(p++, (byte) (0x80 | (cp & 0x3F)));
                i += 2;
            } else {
                if (p >= limit) {
                    break;
                }
                dst.put(p++, (byte) '?');
                i++;
            }
        }
        dst.position(p);
        return i - start;
    }

    /**
     * The number of bytes {@link #encode} writes for {@code s[start, end)}.
     *
     * @param s the characters
     * @param start first index, inclusive
     * @param end last index, exclusive
     * @return encoded length in bytes
     */
    public static int encodedLength(CharSequence s, int start, int end) {
        int n = 0;
        int i = start;
        while (i < end) {
            final char c = s.charAt(i++);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (!Character.isSurrogate(c)) {
                n += 3;
            } else if (Character.isHighSurrogate(c) && i < end && Character.isLowSurrogate(s.charAt(i))) {
                i++;
                n += 4;
            } else {
                n++;
            }
        }
        return n;
    }
}
