// SPDX-License-Identifier: Apache-2.0
package io.github.spool.text;

import java.nio.charset.StandardCharsets;

/**
 * How JSON escapes the ASCII characters, the part every JSON writer Spool reproduces agrees on
 * (log4j2's {@code JsonWriter}, Jackson as logstash-logback-encoder and Spring Boot use it): a
 * quote, a backslash and the control characters with a short form take a backslash and a letter,
 * the other control characters {@code \}{@code u00XX} with upper-case hex digits, everything else
 * below 0x80 is written as it is. Where the writers differ (characters above 0x7F, surrogates,
 * truncation) each adapter's escaper decides. Internal API.
 */
public final class JsonAscii {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    /** Per ASCII char: 0 written as is, -1 {@code \}{@code u00XX}, else the char after the backslash. */
    private static final int[] ESCAPES = new int[128];

    static {
        for (int c = 0; c < 0x20; c++) {
            ESCAPES[c] = -1;
        }
        ESCAPES['"'] = '"';
        ESCAPES['\\'] = '\\';
        ESCAPES['\b'] = 'b';
        ESCAPES['\t'] = 't';
        ESCAPES['\n'] = 'n';
        ESCAPES['\f'] = 'f';
        ESCAPES['\r'] = 'r';
    }

    private JsonAscii() {
    }

    /**
     * @param c a character below 0x80
     * @return 0 if it is written as it is, -1 if as {@code \}{@code u00XX}, else the character
     *         that follows the backslash
     */
    public static int escape(int c) {
        return ESCAPES[c];
    }

    /**
     * @param nibble 0 to 15
     * @return its upper-case hex digit
     */
    public static byte hex(int nibble) {
        return HEX[nibble];
    }
}
