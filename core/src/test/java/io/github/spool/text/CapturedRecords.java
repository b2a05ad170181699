package io.github.spool.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.spool.io.EventRecordRenderer;
import io.github.spool.io.RecordRenderer;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;

/** Test helpers for render on the writer that both adapters use. */
public final class CapturedRecords {

    private CapturedRecords() {
    }

    /**
     * A message pattern the capture sends by id, so that the writer reads no text for it:
     * {@code ours}, or, when the JVM's earlier tests have filled the bounded table, a plain one
     * (with a placeholder, without a backslash) already in it.
     *
     * @param formats the adapter's table of message patterns
     * @param ours    the pattern the test would like
     * @return a pattern the table holds
     */
    public static String patternSentById(SymbolTable formats, String ours) {
        if (formats.idOf(ours) >= 0) {
            return ours;
        }
        for (int id = 0; id < formats.size(); id++) {
            String p = formats.name(id);
            if (p.contains("{}") && p.indexOf('\\') < 0) {
                return p;
            }
        }
        throw new IllegalStateException("the table is full and holds no plain pattern");
    }

    /**
     * Renders the one captured record in {@code record} from a direct buffer, as the writer does,
     * {@code warmup} times and then {@code measured} times, and counts what the measured renders
     * allocated on this thread.
     *
     * @param out receives the line (of the last render)
     * @return the bytes the measured renders allocated
     */
    public static long allocatedRendering(EventRecordRenderer renderer, ByteLineBuilder record, ByteLineBuilder out,
            int warmup, int measured) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ByteBuffer range = ByteBuffer.allocateDirect(record.length());
        range.put(record.array(), 0, record.length()).flip();
        RecordRenderer.Result result = new RecordRenderer.Result();
        for (int i = 0; i < warmup; i++) {
            renderOnce(renderer, range, out, result);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < measured; i++) {
            renderOnce(renderer, range, out, result);
        }
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    private static void renderOnce(EventRecordRenderer renderer, ByteBuffer range, ByteLineBuilder out,
            RecordRenderer.Result result) {
        range.position(0);
        out.reset();
        result.clear();
        renderer.render(range, out, result);
        assertEquals(1, result.rendered, "rendered");
    }
}
