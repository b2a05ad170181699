package io.github.spool.logback;

import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.JsonAscii;

/**
 * Writes text inside a JSON string exactly as Jackson's {@code UTF8JsonGenerator} (2.x, default
 * features, as logstash-logback-encoder uses it) writes it: {@code "} and {@code \} escaped with a
 * backslash; {@code \b \t \n \f \r} as those short escapes; every other char below U+0020 as
 * {@code \}{@code u00XX} with upper-case hex; U+007F, {@code /} and all other non-ASCII chars of
 * the Basic Multilingual Plane as their UTF-8 bytes; and every surrogate, paired or not, as its
 * own {@code \}{@code uXXXX} escape (Jackson does not combine pairs into 4-byte UTF-8 unless
 * {@code COMBINE_UNICODE_SURROGATES_IN_UTF8} is on, which it is not by default).
 *
 * <p>Because each UTF-16 char is written on its own, a string escaped piece by piece gives the same
 * bytes as escaping it whole: message pieces and arguments need not be joined first.
 *
 * <p>Internal to the logback adapter.
 */
final class JsonEscape {


    private JsonEscape() {
    }

    /** Appends {@code s} as a quoted JSON string. */
    static void appendQuoted(ByteLineBuilder out, CharSequence s) {
        out.append((byte) '"');
        append(out, s, 0, s.length());
        out.append((byte) '"');
    }

    /**
     * Appends {@code s[start, end)} escaped, without quotes. Runs of chars that need no escape go
     * through core's UTF-8 encoder in one call (exact for them: no surrogate is among them).
     */
    static void append(ByteLineBuilder out, CharSequence s, int start, int end) {
        int run = start;
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            if (c < 0x80 ? JsonAscii.escape(c) == 0 : !Character.isSurrogate(c)) {
                continue;
            }
            if (run < i) {
                out.append(s, run, i);
            }
            run = i + 1;
            int e = c < 0x80 ? JsonAscii.escape(c) : -1;
            if (e > 0) {
                out.append((byte) '\\').append((byte) e);
            } else {
                unicodeEscape(out, c);
            }
        }
        if (run < end) {
            out.append(s, run, end);
        }
    }

    private static void unicodeEscape(ByteLineBuilder out, char c) {
        out.append((byte) '\\').append((byte) 'u').append(JsonAscii.hex((c >> 12) & 0xF)).append(JsonAscii.hex((c >> 8) & 0xF))
                .append(JsonAscii.hex((c >> 4) & 0xF)).append(JsonAscii.hex(c & 0xF));
    }
}
