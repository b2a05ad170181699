package io.github.spool;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Large and odd records: written whole and byte for byte. */
class OddInputTest {

    @Test
    void aFiveMebibyteLineIsWrittenWholeBetweenItsNeighbours() throws Exception {
        TestSink sink = new TestSink();
        Spool spool = Spool.start(SpoolConfig.builder("big").statusListener(new RecordedStatus()).build(), sink);
        byte[] big = new byte[5 << 20];
        new Random(42).nextBytes(big);
        big[big.length - 1] = '\n';
        byte[] before = "before\n".getBytes(StandardCharsets.US_ASCII);
        byte[] after = "after\n".getBytes(StandardCharsets.US_ASCII);
        assertEquals(AppendResult.ACCEPTED, spool.append(before, 0, before.length, Severity.INFO));
        assertEquals(AppendResult.ACCEPTED, spool.append(big, 0, big.length, Severity.INFO));
        assertEquals(AppendResult.ACCEPTED, spool.append(after, 0, after.length, Severity.INFO));
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        byte[] out = sink.toByteArray();
        byte[] expected = new byte[before.length + big.length + after.length];
        System.arraycopy(before, 0, expected, 0, before.length);
        System.arraycopy(big, 0, expected, before.length, big.length);
        System.arraycopy(after, 0, expected, before.length + big.length, after.length);
        assertArrayEquals(expected, out);
        assertEquals(3, spool.stats().getEventsWritten());
    }

    @Test
    void aLineLargerThanTheCapIsStillWrittenWhole() throws Exception {
        TestSink sink = new TestSink();
        Spool spool = Spool.start(SpoolConfig.builder("over-cap").bufferSize(16 << 10).maxBufferSize(64 << 10)
                .statusListener(new RecordedStatus()).build(), sink);
        byte[] big = new byte[200 << 10];
        Arrays.fill(big, (byte) 'z');
        assertEquals(AppendResult.ACCEPTED, spool.append(big, 0, big.length, Severity.INFO));
        assertEquals(AppendResult.ACCEPTED, spool.append(big, 0, big.length, Severity.INFO));
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(2L * big.length, sink.toByteArray().length);
    }

    @Test
    void emptyRecordsAndArbitraryBytesPassThroughUnchanged() throws Exception {
        TestSink sink = new TestSink();
        Spool spool = Spool.start(SpoolConfig.builder("odd").statusListener(new RecordedStatus()).build(), sink);
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        // Bytes the UTF-8 encoder emits for an unpaired surrogate ('?') and a valid pair.
        byte[] text = "a\uD800b\uDC00c\uD83D\uDE00\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(AppendResult.ACCEPTED, spool.append(new byte[0], 0, 0, Severity.INFO));
        assertEquals(AppendResult.ACCEPTED, spool.append("\n".getBytes(StandardCharsets.US_ASCII), 0, 1, Severity.INFO));
        assertEquals(AppendResult.ACCEPTED, spool.append(all, 0, all.length, Severity.INFO));
        ByteBuffer direct = ByteBuffer.allocateDirect(text.length + 4);
        direct.position(2);
        direct.put(text);
        direct.flip().position(2);
        assertEquals(AppendResult.ACCEPTED, spool.append(direct, Severity.INFO));
        assertEquals(2, direct.position(), "append(ByteBuffer) leaves the position alone");
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        byte[] expected = new byte[1 + all.length + text.length];
        expected[0] = '\n';
        System.arraycopy(all, 0, expected, 1, all.length);
        System.arraycopy(text, 0, expected, 1 + all.length, text.length);
        assertArrayEquals(expected, sink.toByteArray());
        assertEquals(3, spool.stats().getEventsWritten(), "the empty record writes nothing");
    }
}
