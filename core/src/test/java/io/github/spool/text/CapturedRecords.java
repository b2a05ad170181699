package io.github.spool.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.spool.io.EventRecordRenderer;
import io.github.spool.io.RecordRenderer;
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

    /** Renders the one record of {@code range} into {@code out}, as the writer does, from the start. */
    public static void renderOnce(EventRecordRenderer renderer, ByteBuffer range, ByteLineBuilder out,
            RecordRenderer.Result result) {
        range.position(0);
        out.reset();
        result.clear();
        renderer.render(range, out, result);
        assertEquals(1, result.rendered, "rendered");
    }
}
