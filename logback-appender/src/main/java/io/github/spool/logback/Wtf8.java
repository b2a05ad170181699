package io.github.spool.logback;

import io.github.spool.text.ByteLineBuilder;

/**
 * Encodes text so that a whole line ends up byte-identical to logback's
 * {@code layout.doLayout(event).getBytes(UTF_8)}, although Spool encodes it piece by piece.
 *
 * <p>The one place where piecewise UTF-8 differs from encoding the finished line is an unpaired
 * surrogate at a piece boundary: logback builds one {@code String}, so a thread name ending in a
 * high surrogate followed by a message starting with a low surrogate becomes one valid 4-byte
 * character, while encoding the pieces separately would give two {@code '?'}. So a surrogate at
 * either edge of a piece is written in WTF-8 (its own 3-byte sequence {@code ED A0..BF xx}, which
 * is never valid UTF-8), and {@link #toUtf8} rewrites the finished line once: adjacent high+low
 * sequences become the 4-byte character, lone ones become {@code '?'} as {@link String#getBytes}
 * does. The rewrite runs only for lines in which a surrogate was written,
 * which every append method reports through its return value.
 *
 * <p>Char counts of encoded text (for logback's width modifiers, which count UTF-16 chars) follow:
 * a 1-, 2- or 3-byte sequence is one char, a 4-byte sequence two.
 *
 * <p>Internal to the logback adapter.
 */
final class Wtf8 {

    private Wtf8() {
    }

    /**
     * Appends {@code s[start, end)}. Core's {@link ByteLineBuilder#append(CharSequence, int, int)}
     * (exactly {@code getBytes(UTF_8)}) encodes everything except a low surrogate at the start and
     * a high surrogate at the end of the range: only those can pair with a neighbouring piece, so
     * only those are written as 3-byte WTF-8 sequences for {@link #toUtf8} to settle. A lone
     * surrogate inside the range is {@code '?'} whatever its neighbours, as in logback.
     *
     * @return {@code true} if a WTF-8 surrogate was written (the line then needs {@link #toUtf8})
     */
    static boolean append(ByteLineBuilder out, CharSequence s, int start, int end) {
        if (start >= end) {
            return false;
        }
        boolean lowFirst = Character.isLowSurrogate(s.charAt(start));
        boolean highLast = Character.isHighSurrogate(s.charAt(end - 1));
        if (!lowFirst && !highLast) {
            out.append(s, start, end);
            return false;
        }
        if (lowFirst) {
            surrogate(out, s.charAt(start));
            start++;
        }
        if (highLast && end > start) {
            out.append(s, start, end - 1);
            surrogate(out, s.charAt(end - 1));
        } else {
            out.append(s, start, end);
        }
        return true;
    }

    /** Writes one surrogate as its 3-byte WTF-8 sequence {@code ED A0..BF 80..BF}. */
    private static void surrogate(ByteLineBuilder out, char c) {
        out.append((byte) (0xE0 | (c >> 12)));
        out.append((byte) (0x80 | ((c >> 6) & 0x3F)));
        out.append((byte) (0x80 | (c & 0x3F)));
    }

    /** Encodes a whole string for caching (logger names, literals, levels); see {@link Encoded}. */
    static Encoded encode(String s) {
        ByteLineBuilder b = new ByteLineBuilder(Math.max(16, s.length() * 3));
        boolean lone = append(b, s, 0, s.length());
        byte[] bytes = new byte[b.length()];
        System.arraycopy(b.array(), 0, bytes, 0, bytes.length);
        return new Encoded(bytes, lone);
    }

    /** @return the number of UTF-16 chars that WTF-8 bytes {@code a[from, to)} encode */
    static int charCount(byte[] a, int from, int to) {
        int chars = 0;
        for (int i = from; i < to; i++) {
            int b = a[i] & 0xFF;
            if ((b & 0xC0) != 0x80) {
                chars += b >= 0xF0 ? 2 : 1;
            }
        }
        return chars;
    }

    /** Decodes WTF-8 bytes back to the exact UTF-16 text, lone surrogates included (slow path). */
    static String decode(byte[] a, int from, int to) {
        StringBuilder sb = new StringBuilder(to - from);
        int i = from;
        while (i < to) {
            int b = a[i] & 0xFF;
            if (b < 0x80) {
                sb.append((char) b);
                i += 1;
            } else if (b < 0xE0) {
                sb.append((char) (((b & 0x1F) << 6) | (a[i + 1] & 0x3F)));
                i += 2;
            } else if (b < 0xF0) {
                sb.append((char) (((b & 0x0F) << 12) | ((a[i + 1] & 0x3F) << 6) | (a[i + 2] & 0x3F)));
                i += 3;
            } else {
                int cp = ((b & 0x07) << 18) | ((a[i + 1] & 0x3F) << 12) | ((a[i + 2] & 0x3F) << 6) | (a[i + 3] & 0x3F);
                sb.appendCodePoint(cp);
                i += 4;
            }
        }
        return sb.toString();
    }

    /**
     * Rewrites WTF-8 bytes {@code a[from, to)} in place into what {@code String.getBytes(UTF_8)}
     * gives for the same text: an encoded high surrogate directly followed by an encoded low one
     * becomes the 4-byte character; any other encoded surrogate becomes {@code '?'}.
     *
     * @return the new end (never greater than {@code to})
     */
    static int toUtf8(byte[] a, int from, int to) {
        int w = from;
        int i = from;
        while (i < to) {
            int b = a[i] & 0xFF;
            if (b == 0xED && i + 2 < to && (a[i + 1] & 0xFF) >= 0xA0) {
                char c = (char) (0xD000 | ((a[i + 1] & 0x3F) << 6) | (a[i + 2] & 0x3F));
                if (Character.isHighSurrogate(c) && i + 5 < to && (a[i + 3] & 0xFF) == 0xED && (a[i + 4] & 0xFF) >= 0xB0) {
                    char low = (char) (0xD000 | ((a[i + 4] & 0x3F) << 6) | (a[i + 5] & 0x3F));
                    int cp = Character.toCodePoint(c, low);
                    a[w++] = (byte) (0xF0 | (cp >> 18));
                    a[w++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    a[w++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    a[w++] = (byte) (0x80 | (cp & 0x3F));
                    i += 6;
                } else {
                    a[w++] = '?';
                    i += 3;
                }
            } else {
                a[w++] = a[i++];
            }
        }
        return w;
    }

    /** Pre-encoded text and whether it holds a lone surrogate. */
    static final class Encoded {
        final byte[] bytes;
        final boolean lone;

        Encoded(byte[] bytes, boolean lone) {
            this.bytes = bytes;
            this.lone = lone;
        }

        /** Appends the bytes; @return {@link #lone} */
        boolean appendTo(ByteLineBuilder out) {
            out.append(bytes, 0, bytes.length);
            return lone;
        }
    }
}
