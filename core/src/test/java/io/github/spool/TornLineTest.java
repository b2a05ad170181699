package io.github.spool;

import io.github.spool.io.Sink;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write that ends mid-line and is followed by a fault (issue 31, item 14): the writer ends the
 * torn line with a newline before the next line it writes, so the next line never glues onto it,
 * and the torn record counts once, as lost — whether the sink returned a short count before the
 * failing write, or wrote part of a gather write and then threw (a rolling file meeting ENOSPC
 * mid-batch).
 */
class TornLineTest {
    private static final int LINE = 50;

    private static byte[] line(String tag, int seq) {
        StringBuilder b = new StringBuilder(String.format("%s %08d ", tag, seq));
        while (b.length() < LINE - 1) {
            b.append('x');
        }
        return b.append('\n').toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Holds the writer's first write until the test has appended what the second write is to
     * hold; {@code second} plays that write; with {@code thirdFails} the third throws; every later
     * write goes to memory.
     */
    private static final class ScriptedSink implements Sink {
        final TestSink memory = new TestSink();
        final CountDownLatch firstHeld = new CountDownLatch(1);
        final CountDownLatch go = new CountDownLatch(1);
        final AtomicInteger call = new AtomicInteger();
        final Second second;
        final boolean thirdFails;
        /** What {@link #sizeNow} says: {@code -1} (a stream) unless a test empties the "file". */
        volatile long size = -1;

        ScriptedSink(Second second, boolean thirdFails) {
            this.second = second;
            this.thirdFails = thirdFails;
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            int c = call.getAndIncrement();
            if (c == 0) {
                firstHeld.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            } else if (c == 1) {
                return second.write(memory, srcs, offset, length);
            } else if (c == 2 && thirdFails) {
                throw new IOException("injected: no space left on device");
            }
            return memory.write(srcs, offset, length);
        }

        @Override
        public String describe() {
            return "scripted";
        }

        @Override
        public long sizeNow() {
            return size;
        }

        @Override
        public void close() {
        }

        List<String> lines() {
            return Arrays.asList(new String(memory.toByteArray(), StandardCharsets.US_ASCII).split("\n", -1));
        }
    }

    /** The second write of a {@link ScriptedSink}. */
    private interface Second {
        long write(TestSink memory, ByteBuffer[] srcs, int offset, int length) throws IOException;
    }

    /** Writes {@code bytes} of {@code src} to memory and moves {@code src} past them. */
    private static long part(TestSink memory, ByteBuffer src, int bytes) throws IOException {
        ByteBuffer p = src.duplicate();
        p.limit(p.position() + bytes);
        long n = memory.write(new ByteBuffer[] {p}, 0, 1);
        src.position(p.position());
        return n;
    }

    private static Spool run(ScriptedSink sink, long bufferSize, int lines) throws Exception {
        return run(sink, bufferSize, lines, () -> { });
    }

    private static Spool run(ScriptedSink sink, long bufferSize, int lines, Runnable afterFault) throws Exception {
        Spool spool = Spool.start(SpoolConfig.builder("torn").bufferSize(bufferSize).statusListener(new RecordedStatus()).build(), sink);
        byte[] first = line("first", 0);
        spool.append(first, 0, first.length, Severity.INFO);
        assertTrue(sink.firstHeld.await(10, TimeUnit.SECONDS));
        for (int i = 0; i < lines; i++) {
            byte[] b = line("lost?", i);
            assertEquals(AppendResult.ACCEPTED, spool.append(b, 0, b.length, Severity.INFO));
        }
        sink.go.countDown();
        // The batch that fails is written and given up before the writer collects again: wait
        // for the fault to be counted, then log the line that must not glue onto the torn one.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (spool.stats().getWriteErrors() == 0 && System.nanoTime() < deadline) {
            Thread.yield();
        }
        assertEquals(1, spool.stats().getWriteErrors(), "the fault was met");
        afterFault.run();
        byte[] after = line("after", 0);
        assertEquals(AppendResult.ACCEPTED, spool.append(after, 0, after.length, Severity.INFO));
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        return spool;
    }

    private static List<String> tail(List<String> lines) {
        return lines.subList(Math.max(0, lines.size() - 4), lines.size());
    }

    @Test
    void aShortWriteThenAFaultEndsTheTornLineBeforeTheNextOne() throws Exception {
        // One range of 100 lines; the sink takes 50 lines and half of the 51st, then fails.
        ScriptedSink sink = new ScriptedSink((memory, srcs, offset, length) -> part(memory, srcs[offset], 50 * LINE + LINE / 2), true);
        Spool spool = run(sink, SpoolConfig.DEFAULT_BUFFER_SIZE, 100);
        List<String> out = sink.lines();
        assertEquals(1 + 50 + 1 + 1 + 1, out.size(), () -> "first, 50 whole lines, the torn one, after, end: " + tail(out));
        assertEquals(new String(line("lost?", 50), StandardCharsets.US_ASCII).substring(0, LINE / 2), out.get(51),
                "the torn line, ended by a newline");
        assertTrue(out.get(52).startsWith("after "), () -> "the next line on a line of its own: " + out.get(52));
        assertEquals(1 + 50 + 1, spool.stats().getEventsWritten(), "the torn record is not counted as written");
        assertEquals(50, spool.stats().getEventsLost(), "the torn one and the rest count as lost, once");
    }

    @Test
    void aFaultMidGatherWriteCountsWhatGotOutAndEndsTheTornLine() throws Exception {
        // Cells of 4 KiB: the first cell holds the first line and 80 more, the second the other
        // 20, so the second write is a gather write of two ranges. The sink writes the first range
        // and 10.5 lines of the second, then throws (as a rolling file that meets ENOSPC mid-batch).
        ScriptedSink sink = new ScriptedSink((memory, srcs, offset, length) -> {
            if (length < 2) {
                throw new IllegalStateException("expected a gather write of two ranges, got " + length);
            }
            long n = memory.write(srcs, offset, 1);
            n += part(memory, srcs[offset + 1], 10 * LINE + LINE / 2);
            throw new IOException("injected: no space left on device after " + n + " bytes");
        }, false);
        Spool spool = run(sink, SpoolConfig.MIN_BUFFER_SIZE, 100);
        List<String> out = sink.lines();
        assertEquals(1 + 90 + 1 + 1 + 1, out.size(), () -> "first, 90 whole lines, the torn one, after, end: " + tail(out));
        assertEquals(new String(line("lost?", 90), StandardCharsets.US_ASCII).substring(0, LINE / 2), out.get(91),
                "the torn line, ended by a newline");
        assertTrue(out.get(92).startsWith("after "), () -> "the next line on a line of its own: " + out.get(92));
        assertEquals(1 + 90 + 1, spool.stats().getEventsWritten(), "what got out counts as written, the torn record not");
        assertEquals(10, spool.stats().getEventsLost(), "the torn one and the rest count as lost, once");
    }

    @Test
    void aFileEmptiedSinceTheTornWriteGetsNoEmptyLine() throws Exception {
        // logrotate's copytruncate after the fault: the torn bytes are gone with the file's
        // content, and a newline would only put an empty line first in the emptied file.
        ScriptedSink sink = new ScriptedSink((memory, srcs, offset, length) -> part(memory, srcs[offset], 50 * LINE + LINE / 2), true);
        Spool spool = run(sink, SpoolConfig.DEFAULT_BUFFER_SIZE, 100, () -> sink.size = 0);
        List<String> out = sink.lines();
        // The test sink keeps the old bytes; a real file would hold only the line after.
        assertTrue(out.get(51).endsWith("xafter 00000000 " + "x".repeat(LINE - 16)), () -> "no newline written: " + tail(out));
        assertEquals(1 + 50 + 1, spool.stats().getEventsWritten());
    }
}
