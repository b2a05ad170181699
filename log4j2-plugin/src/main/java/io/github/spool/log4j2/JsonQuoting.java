package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.JsonAscii;

/**
 * Writes a JSON string as log4j2 2.26.1's {@code JsonWriter.writeString} writes it and
 * JsonTemplateLayout then encodes it to UTF-8: {@code "} and {@code \} escaped with a backslash,
 * {@code \b \t \n \f \r} as those short escapes, every other char below U+0020 as {@code \}{@code
 * u00XX} (upper-case hex), everything else (U+007F, {@code /}, U+2028 too) as is; a text longer than
 * {@code maxStringLength} chars is cut there (even between the two chars of a pair: 2.26.1 does
 * not step back) and the quoted suffix appended. A lone surrogate becomes {@code '?'} in the
 * UTF-8, as log4j2's encoder replaces it. Not logback's {@code JsonEscape}: Jackson escapes every surrogate as {@code \}{@code
 * uXXXX}, so the two cannot share one class. Immutable; internal API.
 */
final class JsonQuoting {


    private final int maxStringLength;
    /** The suffix quoted once, as JsonWriter quotes it in its constructor. */
    private final String quotedSuffix;

    JsonQuoting(int maxStringLength, String truncatedStringSuffix) {
        this.maxStringLength = maxStringLength;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < truncatedStringSuffix.length(); i++) {
            char c = truncatedStringSuffix.charAt(i);
            int e = c < 0x80 ? JsonAscii.escape(c) : 0;
            if (e == 0) {
                sb.append(c);
            } else if (e > 0) {
                sb.append('\\').append((char) e);
            } else {
                sb.append("\\u00").append((char) JsonAscii.hex(c >> 4)).append((char) JsonAscii.hex(c & 0xF));
            }
        }
        this.quotedSuffix = sb.toString();
    }

    /** Appends {@code s[0, length)} as a quoted JSON string, truncated as JsonWriter truncates. */
    void writeString(ByteLineBuilder out, CharSequence s, int length) {
        out.append((byte) '"');
        if (length <= maxStringLength) {
            quote(out, s, length);
        } else if (Character.isHighSurrogate(s.charAt(maxStringLength - 1)) && !quotedSuffix.isEmpty()
                && Character.isLowSurrogate(quotedSuffix.charAt(0))) {
            // log4j2 encodes the line whole: a cut ending in a high surrogate pairs with a suffix
            // starting with a low one (rare, so this path may allocate).
            quote(out, s, maxStringLength - 1);
            out.append(new String(new char[] {s.charAt(maxStringLength - 1), quotedSuffix.charAt(0)}));
            out.append(quotedSuffix, 1, quotedSuffix.length());
        } else {
            quote(out, s, maxStringLength);
            out.append(quotedSuffix);
        }
        out.append((byte) '"');
    }

    /**
     * Quotes {@code s[0, length)}; runs of chars that need no escape go through core's UTF-8
     * encoder in one call (escapes are ASCII, so a run never splits a surrogate pair).
     */
    private static void quote(ByteLineBuilder out, CharSequence s, int length) {
        int limit = length;
        int run = 0;
        for (int i = 0; i < limit; i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || JsonAscii.escape(c) == 0) {
                continue;
            }
            if (run < i) {
                out.append(s, run, i);
            }
            run = i + 1;
            int e = JsonAscii.escape(c);
            if (e > 0) {
                out.append((byte) '\\').append((byte) e);
            } else {
                out.append((byte) '\\').append((byte) 'u').append((byte) '0').append((byte) '0')
                        .append(JsonAscii.hex(c >> 4)).append(JsonAscii.hex(c & 0xF));
            }
        }
        if (run < limit) {
            out.append(s, run, limit);
        }
    }
}
