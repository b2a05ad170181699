package io.github.spool.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The record pieces both adapters share: values written and read back, text-record framing. */
class RecordCodecTest {

    private static ByteBuffer read(ByteLineBuilder out) {
        return ByteBuffer.wrap(out.array(), 0, out.length());
    }

    /** Random text over ASCII, Latin-1, CJK, pairs and lone surrogates (at the ends too). */
    private static String text(SplittableRandom r, int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = r.nextInt(max + 1); i > 0; i--) {
            switch (r.nextInt(6)) {
                case 0 -> sb.append((char) r.nextInt(0xD800, 0xE000)); // lone surrogate
                case 1 -> sb.append("\uD83D\uDE00");
                case 2 -> sb.append((char) r.nextInt(0x80, 0x800));
                case 3 -> sb.append('日');
                default -> sb.append((char) r.nextInt(0x20, 0x7F));
            }
        }
        return sb.toString();
    }

    @Test
    void exactStringsComeBackCharForChar() {
        SplittableRandom r = new SplittableRandom(0x5EED_C0DEL);
        int ascii = 0;
        for (int i = 0; i < 5_000; i++) {
            String s = r.nextInt(3) == 0 ? "plain ascii " + i : text(r, 20);
            ByteLineBuilder out = new ByteLineBuilder(16);
            assertTrue(RecordCodec.putString(out, s, true, 100));
            ByteBuffer in = read(out);
            byte type = in.get();
            ascii += type == RecordCodec.STR_ASCII ? 1 : 0;
            assertEquals(s, RecordCodec.readString(in, type));
            assertFalse(in.hasRemaining(), "read whole");
        }
        assertTrue(ascii > 1_000 && ascii < 5_000, "both encodings taken: " + ascii);
    }

    @Test
    void asciiKeepsALoneSurrogateInsideOnlyWhenNotExact() {
        String inside = "a\uD800b";
        ByteLineBuilder out = new ByteLineBuilder(16);
        RecordCodec.putString(out, inside, false, 100);
        assertEquals(RecordCodec.STR_ASCII, out.array()[0], "its UTF-8 is '?' either way");
        out.reset();
        RecordCodec.putString(out, inside, true, 100);
        assertEquals(RecordCodec.STR_UTF16, out.array()[0]);
        out.reset();
        RecordCodec.putString(out, "\uDC00ab", false, 100);
        assertEquals(RecordCodec.STR_UTF16, out.array()[0], "an edge may pair with a neighbour's surrogate");
    }

    @Test
    void valuesOfEachTypeComeBackEqualAndOthersAreDeclined() {
        List<Object> values = java.util.Arrays.asList(null, 7, -1L << 40, 2.5e-300, -0.0f, true, 'λ', (short) -3,
                (byte) 0x7F, Long.MIN_VALUE, Double.NaN);
        ByteLineBuilder out = new ByteLineBuilder(16);
        for (Object v : values) {
            assertTrue(RecordCodec.putValue(out, v, true, 100), String.valueOf(v));
        }
        assertTrue(RecordCodec.putValue(out, new StringBuilder("built"), true, 100));
        ByteBuffer in = read(out);
        for (Object v : values) {
            byte type = in.get();
            assertEquals(v != null, RecordCodec.isPrimitive(type), "a boxed primitive: " + v);
            assertEquals(v, type == RecordCodec.NULL ? null : RecordCodec.readBoxed(in, type));
        }
        byte type = in.get();
        assertFalse(RecordCodec.isPrimitive(type), "a string");
        assertEquals("built", RecordCodec.readString(in, type), "a builder's chars, copied at the call");
        assertFalse(in.hasRemaining());
        assertFalse(RecordCodec.putValue(out, new Object(), true, 100));
        assertFalse(RecordCodec.putValue(out, java.math.BigDecimal.ONE, true, 100));
        assertFalse(RecordCodec.putValue(out, "x".repeat(101), true, 100), "longer than the bound");
        assertThrows(IllegalStateException.class, () -> RecordCodec.readBoxed(ByteBuffer.allocate(8), (byte) 99));
    }

    @Test
    void aTextRecordFramesWhatWasAppended() {
        ByteLineBuilder out = new ByteLineBuilder(16);
        RecordCodec.beginText(out);
        out.appendAscii("line\n");
        RecordCodec.endText(out);
        ByteBuffer in = read(out);
        assertEquals(RecordCodec.RECORD_TEXT, in.get());
        assertEquals(5, in.getInt());
        assertEquals(RecordCodec.TEXT_HEADER + 5, out.length());
        ByteLineBuilder header = RecordCodec.textRecord("--head--\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(RecordCodec.RECORD_TEXT, header.array()[0]);
        assertEquals(9, read(header).getInt(1));
        assertEquals("--head--\n", new String(header.array(), RecordCodec.TEXT_HEADER, 9, java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Test
    void theSymbolCacheAnswersTheTablesIds() {
        SymbolTable table = new SymbolTable();
        SymbolCache cache = new SymbolCache(table, 4);
        String a = "com.example.A";
        int id = cache.idOf(a);
        assertEquals(id, cache.idOf(a));
        assertEquals(id, cache.idOf(new String(a)), "an equal string from another object");
        assertEquals(a, table.name(id));
        for (int i = 0; i < 100; i++) { // more names than slots: evictions still answer the table's ids
            String s = "n" + i;
            assertEquals(table.idOf(s), cache.idOf(s));
        }
        assertEquals(id, cache.idOf(a));
        assertThrows(IllegalArgumentException.class, () -> new SymbolCache(table, 6));
    }
}
