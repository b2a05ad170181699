package io.github.spool.logback;

import io.github.spool.text.ByteLineBuilder;

/**
 * Encodes text so that a whole line ends up byte-identical to logback's
 * {@code layout.doLayout(event).getBytes(UTF_8)}, although Spool encodes it piece by piece.
 *
 * <p>The one place where piecewise UTF-8 differs from encoding the finished line is an unpaired
 * surrogate at a piece boundary: logback builds one {@code String}, so a thread name ending in a
 * high surrogate followed by a message starting with a low surrogate becomes one valid 4-byte
 * character, while encoding the pieces separately would give two {@code '?'}. So pieces are written
 * in WTF-8 (a surrogate that is not paired inside its piece becomes its own 3-byte sequence
 * {@code ED A0..BF xx}, which is never valid UTF-8), and {@link #toUtf8} rewrites the finished line
 * once: adjacent high+low sequences become the 4-byte character, lone ones become {@code '?'} as
 * {@link String#getBytes} does. The rewrite runs only for lines in which a surrogate was written,
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
     * Appends {@code s[start, end)} in WTF-8.
     *
     * @return {@code true} if a lone surrogate was written (the line then needs {@link #toUtf8})
     */
    static boolean append(ByteLineBuilder out, CharSequence s, int start, int end) {
        int n = end - start;
        if (n <= 0) {
            return false;
        }
        out.ensureRoom(n * 3);
        byte[] a = out.array();
        int p = out.length();
        int i = start;
        // ASCII fast path: most log text is ASCII
        while (i < end) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            a[p++] = (byte) c;
            i++;
        }
        boolean lone = false;
        while (i < end) {
            char c = s.charAt(i++);
            if (c < 0x80) {
                a[p++] = (byte) c;
            } else if (c < 0x800) {
                a[p++] = (byte) (0xC0 | (c >> 6));
                a[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i < end && Character.isLowSurrogate(s.charAt(i))) {
                int cp = Character.toCodePoint(c, s.charAt(i++));
                a[p++] = (byte) (0xF0 | (cp >> 18));
                a[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                a[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                a[p++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                // includes lone surrogates D800..DFFF: ED A0..BF xx
                lone |= Character.isSurrogate(c);
                a[p++] = (byte) (0xE0 | (c >> 12));
                a[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                a[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        out.setLength(p);
        return lone;
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
            int n = bytes.length;
            out.ensureRoom(n);
            System.arraycopy(bytes, 0, out.array(), out.length(), n);
            out.setLength(out.length() + n);
            return lone;
        }
    }
}
