package io.github.spool.logback;

import ch.qos.logback.core.pattern.FormatInfo;
import io.github.spool.text.ByteLineBuilder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.Arrays;

/**
 * One conversion's width modifiers ({@code %-20.30logger}, {@code %.-10msg}) applied exactly as
 * logback's {@code FormattingConverter.write} and {@code SpacePadder} apply them: lengths are
 * UTF-16 chars; longer than {@code max} is cut (from the left unless the max is negative); shorter
 * than {@code min} is padded with spaces (on the left unless the min is negative); a {@code null}
 * value becomes {@code min} spaces.
 *
 * <p>Internal to the logback adapter.
 */
final class Fmt {
    private static final byte[] SPACES = "                                                                ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    final int min;
    final int max;
    final boolean leftPad;
    final boolean leftTruncate;

    private Fmt(FormatInfo fi) {
        this.min = fi.getMin();
        this.max = fi.getMax();
        this.leftPad = fi.isLeftPad();
        this.leftTruncate = fi.isLeftTruncate();
    }

    /** @return the modifiers, or {@code null} when the conversion has none (logback then appends the raw value) */
    static Fmt of(FormatInfo fi) {
        return fi == null ? null : new Fmt(fi);
    }

    /** The value logback appends for {@code s} under {@code fmt}, as a String (cache fills, slow paths). */
    static String apply(Fmt fmt, String s) {
        if (fmt == null) {
            return String.valueOf(s); // StringBuilder.append(null) writes "null"
        }
        if (s == null) {
            return fmt.min > 0 ? " ".repeat(fmt.min) : "";
        }
        int len = s.length();
        if (len > fmt.max) {
            return fmt.leftTruncate ? s.substring(len - fmt.max) : s.substring(0, fmt.max);
        }
        if (len < fmt.min) {
            String pad = " ".repeat(fmt.min - len);
            return fmt.leftPad ? pad + s : s + pad;
        }
        return s;
    }

    /**
     * Appends {@code s} under {@code fmt} without building an intermediate String.
     *
     * @return {@code true} if a lone surrogate was written
     */
    static boolean write(ByteLineBuilder out, Fmt fmt, String s) {
        if (fmt == null) {
            return s == null ? ascii(out, "null") : Wtf8.append(out, s, 0, s.length());
        }
        if (s == null) {
            spaces(out, fmt.min);
            return false;
        }
        int len = s.length();
        if (len > fmt.max) {
            return fmt.leftTruncate ? Wtf8.append(out, s, len - fmt.max, len) : Wtf8.append(out, s, 0, fmt.max);
        }
        if (len < fmt.min) {
            if (fmt.leftPad) {
                spaces(out, fmt.min - len);
                return Wtf8.append(out, s, 0, len);
            }
            boolean lone = Wtf8.append(out, s, 0, len);
            spaces(out, fmt.min - len);
            return lone;
        }
        return Wtf8.append(out, s, 0, len);
    }

    /**
     * Applies {@code fmt} to what a conversion already wrote from {@code start} to the end of
     * {@code out} (dates, numbers, composites): counts its chars, cuts or pads in place.
     *
     * @param lone whether the region holds a lone surrogate
     * @return whether the region holds a lone surrogate afterwards
     */
    static boolean region(ByteLineBuilder out, Fmt fmt, int start, boolean lone) {
        return region(out, fmt, start, lone, null, null);
    }

    /**
     * As {@link #region(ByteLineBuilder, Fmt, int, boolean)}, for a region made of several pieces
     * (a group, all MDC keys). A cut through non-ASCII text must work on the region's exact UTF-16
     * text: a lone surrogate inside a piece has already been written as {@code '?'}, and the cut
     * may move it next to a neighbour it pairs with in logback's line. So on that rare path the
     * region is rendered again as text by {@code exact}.
     *
     * @param exact renders the region's text unformatted, or {@code null} if the written bytes
     *              decode to it exactly (a single piece, dates, numbers)
     * @param event the event the region was written for
     * @return whether the region holds a lone surrogate afterwards
     */
    static boolean region(ByteLineBuilder out, Fmt fmt, int start, boolean lone, ExactText exact, ILoggingEvent event) {
        if (fmt == null) {
            return lone;
        }
        int end = out.length();
        byte[] a = out.array();
        int chars = Wtf8.charCount(a, start, end);
        if (chars > fmt.max) {
            if (chars == end - start) { // all ASCII: one byte per char
                if (fmt.leftTruncate) {
                    System.arraycopy(a, end - fmt.max, a, start, fmt.max);
                }
                out.setLength(start + fmt.max);
                return false;
            }
            // rare: cut on char boundaries of the original UTF-16 text
            String s = exact != null ? exact.exactText(event) : Wtf8.decode(a, start, end);
            out.setLength(start);
            String cut = fmt.leftTruncate ? s.substring(s.length() - fmt.max) : s.substring(0, fmt.max);
            return Wtf8.append(out, cut, 0, cut.length());
        }
        if (chars < fmt.min) {
            int pad = fmt.min - chars;
            spaces(out, pad);
            if (fmt.leftPad) { // move the value right, spaces in front
                a = out.array();
                System.arraycopy(a, start, a, start + pad, end - start);
                Arrays.fill(a, start, start + pad, (byte) ' ');
            }
        }
        return lone;
    }

    /** A multi-piece region that can render its exact text again (see {@link #region(ByteLineBuilder, Fmt, int, boolean, ExactText, ILoggingEvent)}). */
    interface ExactText {
        /** @return the region's text for {@code event}, before modifiers */
        String exactText(ILoggingEvent event);
    }

    static void spaces(ByteLineBuilder out, int n) {
        while (n > 0) {
            int k = Math.min(n, SPACES.length);
            out.append(SPACES, 0, k);
            n -= k;
        }
    }

    private static boolean ascii(ByteLineBuilder out, String s) {
        Wtf8.append(out, s, 0, s.length());
        return false;
    }
}
