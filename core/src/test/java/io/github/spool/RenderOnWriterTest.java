package io.github.spool;

import io.github.spool.io.RecordRenderer;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.SymbolTable;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The writer's render step: records a producer appended in a renderer's own framing reach the sink
 * as the renderer's text, in order, through batches of many cells; a record it cannot render, or a
 * renderer that throws, is counted as lost and the writer goes on.
 */
class RenderOnWriterTest {

    /**
     * Framing of the test records: a length byte, then that many bytes, rendered upper-cased with a
     * line end; "!" marks one it refuses, "boom" one it throws for. A zero length byte is followed
     * by an int length and bytes to pass through as they are.
     */
    private static final class UpperCaseLines implements RecordRenderer {
        @Override
        public void render(ByteBuffer range, ByteLineBuilder out, Result result) {
            while (range.hasRemaining()) {
                int len = range.get() & 0xFF;
                if (len == 0) {
                    result.passThrough = range.getInt();
                    return;
                }
                byte[] b = new byte[len];
                range.get(b);
                String s = new String(b, StandardCharsets.UTF_8);
                if (s.equals("!")) {
                    result.left++;
                    continue;
                }
                if (s.equals("boom")) {
                    throw new IllegalStateException("renderer bug");
                }
                out.append(s.toUpperCase()).append((byte) '\n');
                result.rendered++;
            }
        }
    }

    private static void appendPassThrough(Spool spool, String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        ByteBuffer rec = ByteBuffer.allocate(b.length + 5);
        rec.put((byte) 0).putInt(b.length).put(b).flip();
        assertEquals(AppendResult.ACCEPTED, spool.append(rec, Severity.INFO));
    }

    /** A sink that keeps each write's bytes apart, to see where writes begin and end; may hold the first. */
    private static final class WriteRecorder implements io.github.spool.io.Sink {
        private final List<String> writes = new ArrayList<>();
        private volatile java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(0);

        void hold() {
            gate = new java.util.concurrent.CountDownLatch(1);
        }

        void release() {
            gate.countDown();
        }

        synchronized List<String> writes() {
            return new ArrayList<>(writes);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws java.io.IOException {
            try {
                gate.await();
            } catch (InterruptedException e) {
                throw new java.io.IOException(e);
            }
            long n = 0;
            for (int i = offset; i < offset + length; i++) {
                byte[] b = new byte[srcs[i].remaining()];
                srcs[i].get(b);
                synchronized (this) {
                    writes.add(new String(b, StandardCharsets.UTF_8));
                }
                n += b.length;
            }
            return n;
        }

        @Override
        public String describe() {
            return "recording sink";
        }

        @Override
        public void close() {
        }
    }

    private static void append(Spool spool, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] rec = new byte[b.length + 1];
        rec[0] = (byte) b.length;
        System.arraycopy(b, 0, rec, 1, b.length);
        assertEquals(AppendResult.ACCEPTED, spool.append(rec, 0, rec.length, Severity.INFO));
    }

    @Test
    void rendersEveryRecordInOrderAcrossCells() throws Exception {
        TestSink sink = new TestSink();
        Spool spool = Spool.start(SpoolConfig.builder("render").bufferSize(SpoolConfig.MIN_BUFFER_SIZE)
                .renderer(new UpperCaseLines()).build(), sink);
        Random random = new Random(17);
        StringBuilder expected = new StringBuilder();
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            String s = "line " + i + " " + "x".repeat(random.nextInt(100));
            append(spool, s);
            expected.append(s.toUpperCase()).append('\n');
        }
        assertTrue(spool.stop(30, TimeUnit.SECONDS));
        assertEquals(expected.toString(), new String(sink.toByteArray(), StandardCharsets.UTF_8));
        assertEquals(n, spool.stats().getEventsWritten());
        assertEquals(0, spool.stats().getEventsLost());
        assertEquals(expected.length(), spool.stats().getBytesWritten(), "bytes written are the rendered bytes");
    }

    /**
     * Rendered text goes out a slice at a time; each write(2) must hold whole lines, or an O_APPEND
     * file shared with another writer (a reconfiguration) could get a line cut by theirs.
     */
    @Test
    void everyWriteOfRenderedTextEndsWithALineEnd() throws Exception {
        WriteRecorder sink = new WriteRecorder();
        sink.hold(); // the first write waits until the ring holds several slices' worth
        Spool spool = Spool.start(SpoolConfig.builder("render-slices").bufferSize(4L << 20).maxBufferSize(8L << 20)
                .renderer(new UpperCaseLines()).build(), sink);
        Random random = new Random(5);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 30_000; i++) {
            String s = "line " + i + " " + "y".repeat(random.nextInt(200));
            append(spool, s);
            expected.append(s.toUpperCase()).append('\n');
        }
        sink.release();
        assertTrue(spool.stop(30, TimeUnit.SECONDS));
        List<String> writes = sink.writes();
        assertEquals(expected.toString(), String.join("", writes));
        assertTrue(writes.stream().anyMatch(w -> w.length() > 100_000), "some writes carry many lines");
        for (String w : writes) {
            assertTrue(w.endsWith("\n"), "a write ends inside a line");
        }
    }

    /** Long lines a renderer passes through go out whole, in one write each, between rendered ones. */
    @Test
    void passedThroughRecordsAreWrittenWholeInOrder() throws Exception {
        WriteRecorder sink = new WriteRecorder();
        Spool spool = Spool.start(SpoolConfig.builder("render-pass").renderer(new UpperCaseLines()).build(), sink);
        Random random = new Random(9);
        StringBuilder expected = new StringBuilder();
        List<String> longLines = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            if (random.nextInt(50) == 0) {
                String line = "long " + i + " " + "z".repeat(50_000 + random.nextInt(300_000)) + "\n";
                appendPassThrough(spool, line);
                expected.append(line);
                longLines.add(line);
            } else {
                String s = "short " + i;
                append(spool, s);
                expected.append(s.toUpperCase()).append('\n');
            }
        }
        assertTrue(spool.stop(30, TimeUnit.SECONDS));
        assertTrue(longLines.size() > 10, "long lines: " + longLines.size());
        List<String> writes = sink.writes();
        assertEquals(expected.toString(), String.join("", writes));
        for (String line : longLines) {
            assertTrue(writes.contains(line), "a long line went out in more than one write");
        }
        assertEquals(2_000, spool.stats().getEventsWritten());
        assertEquals(0, spool.stats().getEventsLost());
    }

    @Test
    void recordsTheRendererCannotRenderAreCountedLost() throws Exception {
        TestSink sink = new TestSink();
        RecordedStatus status = new RecordedStatus();
        Spool spool = Spool.start(SpoolConfig.builder("render-lost").statusListener(status)
                .renderer(new UpperCaseLines()).build(), sink);
        append(spool, "a");
        append(spool, "!");
        append(spool, "b");
        assertTrue(spool.stop(30, TimeUnit.SECONDS));
        assertEquals("A\nB\n", new String(sink.toByteArray(), StandardCharsets.UTF_8));
        assertEquals(2, spool.stats().getEventsWritten());
        assertEquals(1, spool.stats().getEventsLost());
    }

    @Test
    void aThrowingRendererLosesItsRangeAndTheWriterGoesOn() throws Exception {
        TestSink sink = new TestSink();
        RecordedStatus status = new RecordedStatus();
        Spool spool = Spool.start(SpoolConfig.builder("render-throws").statusListener(status)
                .renderer(new UpperCaseLines()).build(), sink);
        append(spool, "boom");
        // the writer may collect "boom" alone or with later records: wait for it to be accounted
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (spool.stats().getEventsLost() == 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(1, spool.stats().getEventsLost());
        append(spool, "after");
        assertTrue(spool.stop(30, TimeUnit.SECONDS));
        assertEquals("AFTER\n", new String(sink.toByteArray(), StandardCharsets.UTF_8));
        assertTrue(status.toString().contains("rendering records failed"), status.toString());
    }

    @Test
    void symbolIdsAreStableAndBounded() {
        SymbolTable t = new SymbolTable();
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ids.add(t.idOf("name-" + i));
        }
        for (int i = 0; i < 100; i++) {
            assertEquals(ids.get(i), t.idOf(new String("name-" + i)), "equal strings share an id");
            assertEquals("name-" + i, t.name(ids.get(i)));
        }
        int id = 0;
        for (int i = 100; id >= 0; i++) {
            id = t.idOf("n" + i);
        }
        assertEquals(SymbolTable.LIMIT, t.size());
        assertEquals(-1, t.idOf("one more"));
        assertEquals(ids.get(7), t.idOf("name-7"), "a full table still answers for what it holds");
    }
}
