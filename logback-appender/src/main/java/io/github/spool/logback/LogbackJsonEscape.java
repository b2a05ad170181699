package io.github.spool.logback;

import io.github.spool.text.ByteLineBuilder;

/**
 * Writes text inside a JSON string exactly as logback's {@code JsonEscapeUtil.jsonEscapeString}
 * escapes it and its {@code JsonEncoder} encodes it ({@code String.getBytes(UTF_8)}): {@code "},
 * {@code \}, {@code /} escaped with a backslash; {@code \b \t \n \f \r} short; every other char
 * below U+0020 as {@code \}{@code u00XX} with upper-case hex; everything else as UTF-8, an unpaired
 * surrogate as {@code ?}. Internal to the logback adapter.
 */
final class LogbackJsonEscape {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private LogbackJsonEscape() {
    }

    /** Appends {@code s[start, end)} escaped, without quotes; runs without escapes in one call. */
    static void append(ByteLineBuilder out, CharSequence s, int start, int end) {
        int run = start;
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && c != '/') {
                continue;
            }
            if (run < i) {
                out.append(s, run, i);
            }
            run = i + 1;
            byte e = switch (c) {
                case '"' -> '"';
                case '\\' -> '\\';
                case '/' -> '/';
                case '\b' -> 'b';
                case '\t' -> 't';
                case '\n' -> 'n';
                case '\f' -> 'f';
                case '\r' -> 'r';
                default -> 0;
            };
            if (e != 0) {
                out.append((byte) '\\').append(e);
            } else {
                out.append((byte) '\\').append((byte) 'u').append((byte) '0').append((byte) '0')
                        .append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
            }
        }
        if (run < end) {
            out.append(s, run, end);
        }
    }
}
