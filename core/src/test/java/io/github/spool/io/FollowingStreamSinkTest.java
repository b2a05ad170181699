// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.StatusListener;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code follow}'s sink: one {@code write} and one {@code flush} per batch on the stream current
 * at that batch, every byte in order, large batches in chunks, a broken stream reported once.
 */
class FollowingStreamSinkTest {

    private final List<String> status = new ArrayList<>();
    private final AtomicReference<PrintStream> current = new AtomicReference<>();
    private final FollowingStreamSink sink = new FollowingStreamSink(current::get, "System.out", "f",
            (level, message, cause) -> status.add(level + " " + message));

    /** Counts the calls Spool makes; the bytes go to a buffer. */
    private static final class Counting extends PrintStream {
        final ByteArrayOutputStream bytes;
        int writes;
        int flushes;

        Counting() {
            this(new ByteArrayOutputStream());
        }

        private Counting(ByteArrayOutputStream bytes) {
            super(bytes, false, StandardCharsets.UTF_8);
            this.bytes = bytes;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writes++;
            super.write(b, off, len);
        }

        @Override
        public void flush() {
            flushes++;
            super.flush();
        }
    }

    private static ByteBuffer direct(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        ByteBuffer d = ByteBuffer.allocateDirect(b.length);
        d.put(b).flip();
        return d;
    }

    @Test
    void aBatchOfSeveralSegmentsIsOneWriteAndOneFlush() throws Exception {
        Counting out = new Counting();
        current.set(out);
        ByteBuffer[] batch = {direct("a1\n"), direct("b22\n"), direct("c333 ü\n")};
        assertEquals(15, sink.write(batch, 0, 3));
        for (ByteBuffer b : batch) {
            assertFalse(b.hasRemaining(), "every segment consumed");
        }
        assertEquals(1, out.writes);
        assertEquals(1, out.flushes);
        assertEquals("a1\nb22\nc333 ü\n", out.bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void eachBatchGoesToTheStreamCurrentAtThatBatch() throws Exception {
        Counting first = new Counting();
        Counting second = new Counting();
        current.set(first);
        sink.write(new ByteBuffer[] {direct("one\n")}, 0, 1);
        current.set(second);
        sink.write(new ByteBuffer[] {direct("two\n")}, 0, 1);
        assertEquals("one\n", first.bytes.toString(StandardCharsets.UTF_8));
        assertEquals("two\n", second.bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aBatchLargerThanTheLargestChunkArrivesWholeInChunks() throws Exception {
        Counting out = new Counting();
        current.set(out);
        byte[] expected = new byte[FollowingStreamSink.MAX_CHUNK * 2 + 12345];
        new SplittableRandom(12).nextBytes(expected);
        ByteBuffer[] batch = new ByteBuffer[3];
        int[] cuts = {0, 100_000, 1_500_000, expected.length};
        for (int i = 0; i < 3; i++) {
            batch[i] = ByteBuffer.allocateDirect(cuts[i + 1] - cuts[i]);
            batch[i].put(expected, cuts[i], cuts[i + 1] - cuts[i]).flip();
        }
        assertEquals(expected.length, sink.write(batch, 0, 3));
        assertArrayEquals(expected, out.bytes.toByteArray());
        assertEquals(3, out.writes, "1 MiB per write");
        assertEquals(1, out.flushes);
    }

    @Test
    void aStreamThatFailsIsReportedOnceNotThrown() throws Exception {
        PrintStream broken = new PrintStream(new OutputStream() {
            @Override
            public void write(int b) throws java.io.IOException {
                throw new java.io.IOException("gone");
            }

            @Override
            public void write(byte[] b, int off, int len) throws java.io.IOException {
                throw new java.io.IOException("gone");
            }
        }, false, StandardCharsets.UTF_8);
        current.set(broken);
        for (int i = 0; i < 3; i++) {
            assertEquals(3, sink.write(new ByteBuffer[] {direct("x" + i + "\n")}, 0, 1));
        }
        assertEquals(1, status.size(), status::toString);
        assertTrue(status.get(0).startsWith("WARN spool appender 'f': System.out (java.io.PrintStream) reports a write error"),
                status::toString);
    }

    @Test
    void aNullStreamIsAFaultOfTheWrite() {
        current.set(null);
        try {
            sink.write(new ByteBuffer[] {direct("x\n")}, 0, 1);
            throw new AssertionError("expected an IOException");
        } catch (java.io.IOException e) {
            assertEquals("System.out is null", e.getMessage());
        }
    }

    @Test
    void describesTheStreamItFollows() {
        StatusListener l = (level, message, cause) -> { };
        assertEquals("System.err", FollowingStreamSink.stderr("f", l).describe());
        assertEquals("System.out", FollowingStreamSink.stdout("f", l).describe());
    }
}
