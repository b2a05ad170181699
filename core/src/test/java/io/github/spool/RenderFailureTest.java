package io.github.spool;

import io.github.spool.io.RecordRenderer;
import io.github.spool.text.ByteLineBuilder;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A renderer on the writer that fails (issue 31, item 13): a transient failure — the heap briefly
 * exhausted — loses nothing, since the writer renders the range once more; a failure that repeats
 * loses the range, counted, and every such episode is reported: at most one message a second,
 * each saying how many episodes it covers, the last at the latest when the appender stops.
 */
class RenderFailureTest {

    /** Records: a length byte and that many bytes; rendered upper-cased with a line end; "boom" always throws. */
    private static final class Lines implements RecordRenderer {
        final AtomicInteger failFirstCalls;

        Lines(int failFirstCalls) {
            this.failFirstCalls = new AtomicInteger(failFirstCalls);
        }

        @Override
        public void render(ByteBuffer range, ByteLineBuilder out, Result result) {
            if (failFirstCalls.getAndDecrement() > 0) {
                range.get(); // part of the range consumed before the failure, as a real renderer may
                throw new OutOfMemoryError("injected: Java heap space");
            }
            while (range.hasRemaining()) {
                byte[] b = new byte[range.get() & 0xFF];
                range.get(b);
                String s = new String(b, StandardCharsets.UTF_8);
                if (s.equals("boom")) {
                    throw new OutOfMemoryError("injected: Java heap space, for good");
                }
                out.append(s.toUpperCase()).append((byte) '\n');
                result.rendered++;
            }
        }
    }

    private static void append(Spool spool, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] rec = new byte[b.length + 1];
        rec[0] = (byte) b.length;
        System.arraycopy(b, 0, rec, 1, b.length);
        assertEquals(AppendResult.ACCEPTED, spool.append(rec, 0, rec.length, Severity.INFO));
    }

    private static void awaitAccounted(Spool spool, long events) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (spool.stats().getEventsWritten() + spool.stats().getEventsLost() < events && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    @Test
    void aTransientRenderFailureLosesNothing() throws Exception {
        TestSink sink = new TestSink();
        Spool spool = Spool.start(SpoolConfig.builder("render-transient").statusListener(new RecordedStatus())
                .renderer(new Lines(1)).build(), sink);
        append(spool, "a");
        awaitAccounted(spool, 1);
        append(spool, "b");
        assertTrue(spool.stop(30, TimeUnit.SECONDS));
        assertEquals("A\nB\n", new String(sink.toByteArray(), StandardCharsets.UTF_8));
        assertEquals(2, spool.stats().getEventsWritten());
        assertEquals(0, spool.stats().getEventsLost());
    }

    @Test
    void everyEpisodeOfLostRecordsIsReported() throws Exception {
        TestSink sink = new TestSink();
        RecordedStatus status = new RecordedStatus();
        Spool spool = Spool.start(SpoolConfig.builder("render-episodes").statusListener(status)
                .renderer(new Lines(0)).build(), sink);
        for (int episode = 1; episode <= 3; episode++) {
            append(spool, "boom");
            awaitAccounted(spool, 2L * episode - 1);
            append(spool, "ok");
            awaitAccounted(spool, 2L * episode);
        }
        assertTrue(spool.stop(30, TimeUnit.SECONDS));
        assertEquals(3, spool.stats().getEventsLost());
        assertEquals(3, spool.stats().getEventsWritten());
        Matcher m = Pattern.compile("rendering records failed (\\d+) times?").matcher(status.toString());
        long episodes = 0;
        while (m.find()) {
            episodes += Long.parseLong(m.group(1));
        }
        assertEquals(3, episodes, status::toString);
    }
}
