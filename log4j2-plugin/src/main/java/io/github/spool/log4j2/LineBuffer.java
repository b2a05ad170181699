package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import io.github.spool.time.TimestampFormat;

/**
 * The line a {@link SpoolLayout} encodes into: core's {@link ByteLineBuilder} plus the one piece
 * of state that makes field-by-field encoding equal to log4j2's whole-line encoding. Internal API.
 *
 * <p>log4j2 builds the whole line as chars and encodes it at once, so a high surrogate ending one
 * field (a thread name) and a low surrogate starting the next (the message) form one valid
 * supplementary character. Encoding each field alone would print {@code ??} instead. So when a
 * text append ends with a high surrogate (written as {@code '?'}), its position is remembered; if
 * the very next append starts with a low surrogate, the {@code '?'} is replaced by the pair's four
 * bytes. Any byte append in between moves the end of the line and cancels the pairing, as a
 * non-surrogate char would in log4j2's line.
 */
final class LineBuffer {

    private final ByteLineBuilder line;
    /** Index of the {@code '?'} written for a trailing high surrogate, or -1. */
    private int pendingHighAt = -1;
    private char pendingHigh;

    LineBuffer(int initialCapacity) {
        this.line = new ByteLineBuilder(initialCapacity);
    }

    /**
     * A line buffer that appends to {@code target}, after what it holds: the writer renders its
     * lines straight into its output ({@link #startLine()} before each).
     *
     * @param target the builder lines are appended to
     */
    LineBuffer(ByteLineBuilder target) {
        this.line = target;
    }

    /** Empties the line. */
    void reset() {
        line.reset();
        pendingHighAt = -1;
    }

    /** Starts a line after what the builder holds: no surrogate of an earlier line pairs with it. */
    void startLine() {
        pendingHighAt = -1;
    }

    /** @return the builder (bytes {@code [0, length())} of its array) */
    ByteLineBuilder bytes() {
        return line;
    }

    /**
     * Appends text in UTF-8, pairing surrogates across appends as described above.
     *
     * @param s the text, not null
     */
    void append(CharSequence s) {
        append(s, 0, s.length());
    }

    /**
     * Appends {@code s[start, end)} in UTF-8, pairing surrogates across appends.
     *
     * @param s     the text, not null
     * @param start first index
     * @param end   end index, exclusive
     */
    void append(CharSequence s, int start, int end) {
        if (start >= end) {
            return;
        }
        int from = start;
        if (pendingHighAt >= 0 && pendingHighAt == line.length() - 1 && Character.isLowSurrogate(s.charAt(start))) {
            int cp = Character.toCodePoint(pendingHigh, s.charAt(start));
            line.setLength(pendingHighAt);
            line.append((byte) (0xF0 | (cp >> 18)));
            line.append((byte) (0x80 | ((cp >> 12) & 0x3F)));
            line.append((byte) (0x80 | ((cp >> 6) & 0x3F)));
            line.append((byte) (0x80 | (cp & 0x3F)));
            from++;
        }
        line.append(s, from, end);
        char last = s.charAt(end - 1);
        if (end - 1 >= from && Character.isHighSurrogate(last)) {
            pendingHigh = last;
            pendingHighAt = line.length() - 1;
        } else {
            pendingHighAt = -1;
        }
    }

    /**
     * The UTF-8 bytes {@link #append(CharSequence, int, int)} writes for {@code s[start, end)} in any
     * line, or {@code null} when they depend on the line (a surrogate in the range may pair with a
     * neighbour's). For caching names.
     *
     * @param s     the text
     * @param start first index
     * @param end   end index, exclusive
     * @return the bytes, or {@code null}
     */
    static byte[] encodeAlone(CharSequence s, int start, int end) {
        if (RecordCodec.hasSurrogate(s, start, end)) {
            return null;
        }
        ByteLineBuilder b = new ByteLineBuilder(Math.max(16, 3 * (end - start)));
        b.append(s, start, end);
        return java.util.Arrays.copyOf(b.array(), b.length());
    }


    /**
     * Appends bytes that are complete UTF-8 (a pre-encoded literal).
     *
     * @param b   the bytes
     * @param off first
     * @param len count
     */
    void appendBytes(byte[] b, int off, int len) {
        line.append(b, off, len);
    }

    /**
     * Appends a timestamp.
     *
     * @param f           the format
     * @param epochMillis the instant
     */
    void appendTimestamp(TimestampFormat f, long epochMillis) {
        line.appendTimestamp(f, epochMillis);
    }

    /**
     * Appends a precise timestamp.
     *
     * @param f            the format
     * @param epochSecond  seconds
     * @param nanoOfSecond nanoseconds
     */
    void appendTimestamp(TimestampFormat f, long epochSecond, int nanoOfSecond) {
        line.appendTimestamp(f, epochSecond, nanoOfSecond);
    }

    /**
     * Appends a decimal number.
     *
     * @param v the value
     */
    void appendDecimal(long v) {
        line.appendDecimal(v);
    }
}
