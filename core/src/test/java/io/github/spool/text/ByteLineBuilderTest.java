package io.github.spool.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.time.TimestampFormat;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link ByteLineBuilder}: appends against their String oracles, growth and trimming. */
class ByteLineBuilderTest {

    private static String text(ByteLineBuilder b) {
        return new String(b.array(), 0, b.length(), StandardCharsets.UTF_8);
    }

    @Test
    void appendsLikeAStringBuilder() {
        final long seed = Long.getLong("spool.test.seed", System.nanoTime());
        final SplittableRandom rnd = new SplittableRandom(seed);
        ByteLineBuilder b = new ByteLineBuilder(4);
        for (int i = 0; i < 20_000; i++) {
            b.reset();
            // Each append is encoded on its own (a lone high surrogate ending one piece never pairs
            // with a low one starting the next), so the oracle is the concatenation of encodings.
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (int k = rnd.nextInt(8); k > 0; k--) {
                switch (rnd.nextInt(5)) {
                    case 0: {
                        String s = Utf8Test.randomString(rnd, 40);
                        b.append(s);
                        expected.writeBytes(s.getBytes(StandardCharsets.UTF_8));
                        break;
                    }
                    case 1: {
                        long v = rnd.nextInt(4) == 0 ? rnd.nextInt(-20, 20) : rnd.nextLong();
                        b.appendDecimal(v);
                        expected.writeBytes(Long.toString(v).getBytes(StandardCharsets.UTF_8));
                        break;
                    }
                    case 2: {
                        b.appendAscii("INFO ");
                        expected.writeBytes("INFO ".getBytes(StandardCharsets.UTF_8));
                        break;
                    }
                    case 3: {
                        b.append((byte) '|');
                        expected.write('|');
                        break;
                    }
                    default: {
                        String s = Utf8Test.randomString(rnd, 10);
                        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
                        b.append(bytes, 0, bytes.length);
                        expected.writeBytes(s.getBytes(StandardCharsets.UTF_8));
                        break;
                    }
                }
            }
            final int iteration = i;
            assertArrayEquals(expected.toByteArray(),
                Arrays.copyOf(b.array(), b.length()), () -> "seed " + seed + " iteration " + iteration);
        }
    }

    @Test
    void bulkEncodingMatchesTheJdkAcrossChunkBoundaries() {
        final long seed = Long.getLong("spool.test.seed", System.nanoTime());
        final SplittableRandom rnd = new SplittableRandom(seed);
        ByteLineBuilder b = new ByteLineBuilder(16);
        for (int i = 0; i < 5_000; i++) {
            // Long enough for several chunks, so pairs and lone surrogates land on the boundaries.
            String s = Utf8Test.randomString(rnd, 4 * ByteLineBuilder.CHUNK);
            int start = s.isEmpty() ? 0 : rnd.nextInt(s.length());
            CharSequence input = (i & 1) == 0 ? s : new StringBuilder(s);
            b.reset();
            b.appendAscii(">").append(input, start, s.length());
            final int iteration = i;
            assertArrayEquals((">" + s.substring(start)).getBytes(StandardCharsets.UTF_8),
                Arrays.copyOf(b.array(), b.length()), () -> "seed " + seed + " iteration " + iteration);
        }
        // A pair straddling the first chunk boundary, and a lone high surrogate just before it.
        for (String tail : new String[] {"\uD83D\uDE00tail", "\uD83Dx", "\uDE00"}) {
            String s = "a".repeat(ByteLineBuilder.CHUNK - 1) + tail;
            b.reset();
            b.append(s);
            assertArrayEquals(s.getBytes(StandardCharsets.UTF_8), Arrays.copyOf(b.array(), b.length()), tail);
        }
    }

    @Test
    void printsExtremeLongs() {
        ByteLineBuilder b = new ByteLineBuilder(1);
        for (long v : new long[] {0, -1, 9, 10, -10, Long.MAX_VALUE, Long.MIN_VALUE, 1_000_000_000_000L}) {
            b.reset();
            b.appendDecimal(v);
            assertEquals(Long.toString(v), text(b));
        }
        // Every digit-count boundary, both signs: the digit count and the two-digit steps.
        for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10 * 10; p = p <= Long.MAX_VALUE / 10 ? p * 10 : -1) {
            for (long v : new long[] {p - 1, p, p + 1, -(p - 1), -p, -(p + 1)}) {
                b.reset();
                b.appendDecimal(v);
                assertEquals(Long.toString(v), text(b));
            }
        }
    }

    @Test
    void nullAppendsNullAndNonAsciiBecomesQuestionMark() {
        ByteLineBuilder b = new ByteLineBuilder(2);
        b.append((CharSequence) null).appendAscii(null).appendAscii("a\u00E9");
        assertEquals("nullnulla?", text(b));
    }

    @Test
    void givesBackAHugeArrayOnReset() {
        ByteLineBuilder b = new ByteLineBuilder(256, 64 * 1024);
        byte[] small = b.array();
        b.append("x").reset();
        assertSame(small, b.array(), "an ordinary line keeps its array");
        char[] big = new char[10 * 1024 * 1024];
        Arrays.fill(big, 'm');
        String message = new String(big);
        b.append(message);
        assertEquals(message.length(), b.length());
        // Measured, not reserved at 3 bytes per char: an ASCII message needs only its length.
        assertTrue(b.capacity() < 2 * message.length(), "capacity " + b.capacity());
        b.reset();
        assertEquals(0, b.length());
        assertEquals(256, b.capacity(), "the 10 MiB array must be released");
    }

    @Test
    void setLengthCutsBack() {
        ByteLineBuilder b = new ByteLineBuilder(8);
        b.appendAscii("abc\n");
        b.setLength(3);
        assertEquals("abc", text(b));
        assertThrows(IndexOutOfBoundsException.class, () -> b.setLength(4));
    }

    @Test
    void appendsTimestamps() {
        ZoneId zone = ZoneId.of("Europe/Berlin");
        TimestampFormat f = TimestampFormat.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS", zone);
        ByteLineBuilder b = new ByteLineBuilder(1);
        long millis = 1_711_846_800_123L;
        b.appendAscii("[").appendTimestamp(f, millis).appendAscii("] [").appendTimestamp(f, 1_711_846_800L, 123_456_789)
            .appendAscii("]");
        DateTimeFormatter oracle = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS").withZone(zone);
        assertEquals("[" + oracle.format(Instant.ofEpochMilli(millis)) + "] ["
            + oracle.format(Instant.ofEpochSecond(1_711_846_800L, 123_456_789)) + "]", text(b));
    }
}
