package io.github.spool.logback;

import io.github.spool.text.ByteLineBuilder;

/**
 * Writes text inside a JSON string exactly as Spring Boot's {@code JsonValueWriter} (3.5) writes
 * it into the {@code OutputStreamWriter} of {@code StructuredLogEncoder}: {@code "} and {@code \}
 * escaped with a backslash; {@code \b \f \n \r \t} as those short escapes; every other ISO control
 * char ({@code Character.isISOControl}: U+0000–U+001F and U+007F–U+009F) as {@code \}{@code uXXXX}
 * with upper-case hex; everything else as UTF-8, a surrogate pair as its 4-byte sequence and an
 * unpaired surrogate as {@code ?} — what the UTF-8 encoder does with them.
 *
 * <p>Unlike {@link JsonEscape}, a string escaped in pieces can differ from the string escaped whole
 * when a surrogate pair is cut between two pieces; {@link JsonMessage} joins such messages first.
 *
 * <p>Internal to the logback adapter.
 */
final class SpringJsonEscape {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private SpringJsonEscape() {
    }

    /** Appends {@code s} as a quoted JSON string. */
    static void appendQuoted(ByteLineBuilder out, CharSequence s) {
        out.append((byte) '"');
        append(out, s, 0, s.length());
        out.append((byte) '"');
    }

    /**
     * Appends {@code s[start, end)} escaped, without quotes. Runs of chars that need no escape go
     * through core's UTF-8 encoder in one call: a pair inside a run stays a pair.
     */
    static void append(ByteLineBuilder out, CharSequence s, int start, int end) {
        int run = start;
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && (c < 0x7F || c > 0x9F)) {
                continue;
            }
            if (run < i) {
                out.append(s, run, i);
            }
            run = i + 1;
            byte e = switch (c) {
                case '"' -> '"';
                case '\\' -> '\\';
                case '\b' -> 'b';
                case '\f' -> 'f';
                case '\n' -> 'n';
                case '\r' -> 'r';
                case '\t' -> 't';
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
