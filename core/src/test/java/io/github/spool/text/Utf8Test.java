package io.github.spool.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Differential tests of {@link Utf8} against {@code String.getBytes(UTF_8)}. Seeded. */
class Utf8Test {

    /** A random string mixing every class of UTF-16 unit: the sequences the encoder must handle. */
    static String randomString(SplittableRandom rnd, int maxLength) {
        final int n = rnd.nextInt(maxLength + 1);
        StringBuilder sb = new StringBuilder(n + 1);
        while (sb.length() < n) {
            switch (rnd.nextInt(7)) {
                case 0:
                case 1:
                    sb.append((char) rnd.nextInt(0x80)); // ASCII, control chars included
                    break;
                case 2:
                    sb.append((char) rnd.nextInt(0x80, 0x800)); // 2 bytes
                    break;
                case 3: {
                    char c = (char) rnd.nextInt(0x800, 0x10000); // 3 bytes
                    sb.append(Character.isSurrogate(c) ? '\uFFFD' : c);
                    break;
                }
                case 4:
                    sb.appendCodePoint(rnd.nextInt(0x10000, 0x110000)); // pair, 4 bytes
                    break;
                case 5:
                    sb.append((char) rnd.nextInt(0xD800, 0xDC00)); // lone high (unless a low follows)
                    break;
                default:
                    sb.append((char) rnd.nextInt(0xDC00, 0xE000)); // lone low (unless after a high)
                    break;
            }
        }
        return sb.toString();
    }

    @Test
    void byteArrayEncodingMatchesTheJdk() {
        final long seed = Long.getLong("spool.test.seed", System.nanoTime());
        final SplittableRandom rnd = new SplittableRandom(seed);
        byte[] dst = new byte[3 * 200 + 16];
        for (int i = 0; i < 200_000; i++) {
            String s = randomString(rnd, 200);
            int start = s.isEmpty() ? 0 : rnd.nextInt(s.length() + 1);
            int end = start + rnd.nextInt(s.length() - start + 1);
            byte[] expected = s.substring(start, end).getBytes(StandardCharsets.UTF_8);
            int offset = rnd.nextInt(16);
            CharSequence input = (i & 1) == 0 ? s : new StringBuilder(s);
            int stop = Utf8.encode(input, start, end, dst, offset);
            final int iteration = i;
            assertArrayEquals(expected, Arrays.copyOfRange(dst, offset, stop),
                () -> "seed " + seed + " iteration " + iteration + " input " + escape(s));
            assertEquals(expected.length, Utf8.encodedLength(input, start, end), () -> "seed " + seed);
        }
    }

    @Test
    void byteBufferEncodingMatchesTheJdkAcrossBufferBoundaries() {
        final long seed = Long.getLong("spool.test.seed", System.nanoTime());
        final SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 100_000; i++) {
            String s = randomString(rnd, 100);
            byte[] expected = s.getBytes(StandardCharsets.UTF_8);
            // Tiny buffers (1..9 bytes) so pairs and multi-byte chars land on every boundary.
            int capacity = rnd.nextInt(1, 10);
            ByteBuffer buf = (i & 1) == 0 ? ByteBuffer.allocate(capacity) : ByteBuffer.allocateDirect(capacity);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int consumed = 0;
            while (consumed < s.length()) {
                buf.clear();
                int n = Utf8.encode(s, consumed, s.length(), buf);
                final int at = consumed;
                final int cap = capacity;
                if (n == 0) {
                    // Only allowed when the next character needs more room than the buffer has.
                    assertTrue(cap < 4, () -> "seed " + seed + ": no progress at " + at + " with " + cap);
                    capacity = 4;
                    buf = ByteBuffer.allocate(capacity);
                    continue;
                }
                consumed += n;
                final int cut = consumed;
                assertTrue(cut == s.length() || !(Character.isHighSurrogate(s.charAt(cut - 1))
                    && Character.isLowSurrogate(s.charAt(cut))), () -> "seed " + seed + ": pair split at " + cut);
                buf.flip();
                byte[] chunk = new byte[buf.remaining()];
                buf.get(chunk);
                // Each chunk is exactly the JDK encoding of the chars it consumed.
                assertArrayEquals(s.substring(at, cut).getBytes(StandardCharsets.UTF_8), chunk,
                    () -> "seed " + seed + " chunk " + at + ".." + cut);
                out.writeBytes(chunk);
            }
            final int iteration = i;
            assertArrayEquals(expected, out.toByteArray(), () -> "seed " + seed + " iteration " + iteration);
        }
    }

    @Test
    void writesAtThePositionAndStopsAtTheLimit() {
        ByteBuffer buf = ByteBuffer.allocate(16);
        buf.position(3).limit(8);
        // "a€b": 1 + 3 + 1 bytes fit in 5; the following pair does not fit in the 0 left.
        int n = Utf8.encode("a\u20ACb\uD83D\uDE00", 0, 5, buf);
        assertEquals(3, n);
        assertEquals(8, buf.position());
        assertArrayEquals("a\u20ACb".getBytes(StandardCharsets.UTF_8), Arrays.copyOfRange(buf.array(), 3, 8));
    }

    @Test
    void unpairedSurrogatesBecomeQuestionMarks() {
        String s = "x\uD800y\uDC00z\uD800";
        byte[] dst = new byte[32];
        int end = Utf8.encode(s, 0, s.length(), dst, 0);
        assertEquals("x?y?z?", new String(dst, 0, end, StandardCharsets.UTF_8));
        assertArrayEquals(s.getBytes(StandardCharsets.UTF_8), Arrays.copyOf(dst, end));
        // A range ending between the halves of a pair: the high half is unpaired within it.
        String pair = "\uD83D\uDE00";
        end = Utf8.encode(pair, 0, 1, dst, 0);
        assertEquals(1, end);
        assertEquals('?', dst[0]);
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        s.chars().forEach(c -> sb.append(String.format("\\u%04X", c)));
        return sb.toString();
    }
}
