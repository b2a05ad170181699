package io.github.spool.io;

import io.github.spool.metrics.WriterCounters;
import io.github.spool.ring.Batch;
import io.github.spool.text.ByteLineBuilder;

import java.nio.ByteBuffer;

/**
 * Renders the records of a batch the writer collected and hands the text to {@link BatchWriter},
 * a range at a time; counts what it cannot render as lost and tells {@link LossReports}. Writer
 * thread only. Internal to Spool.
 */
final class BatchRenderer {
    private final RingWriter w;
    private final BatchWriter writes;
    private final LossReports losses;
    private final WriterCounters counters;
    /** Renders captured records. */
    private final RecordRenderer renderer;
    /** The rendered bytes of the current batch (writer only); keeps up to 4 MiB across batches. */
    private final ByteLineBuilder rendered;
    /** Holds one rendered range for {@link BatchWriter#write}. */
    private final Batch renderedBatch = new Batch();
    private final RecordRenderer.Result renderResult = new RecordRenderer.Result();

    BatchRenderer(RingWriter w, RecordRenderer renderer, BatchWriter writes, LossReports losses, WriterCounters counters) {
        this.w = w;
        this.renderer = renderer;
        this.rendered = new ByteLineBuilder(64 << 10, 4 << 20);
        this.writes = writes;
        this.losses = losses;
        this.counters = counters;
    }

    /**
     * Renders and writes the batch range by range, so the rendered text stays within about one
     * cell's worth (a whole batch could be 16 cells); a long text record the renderer passes
     * through is written straight from the ring, whole, as the writer writes text records. A
     * range the renderer fails on (it should not throw: it counts what it cannot render) is
     * counted as lost from there on; the writer goes on.
     */
    void writeRendered(Batch batch) {
        ByteBuffer[] segments = batch.segments();
        Batch one = renderedBatch;
        RecordRenderer.Result result = renderResult;
        for (int i = 0; i < batch.count(); i++) {
            ByteBuffer range = segments[i];
            long inRange = batch.records(i);
            long done = 0; // records of this range written, given up or counted lost so far
            boolean retried = false;
            Throwable failed = null;
            while (range.hasRemaining() && done < inRange) {
                if (w.givenUp) {
                    break; // past the stop deadline: the rest is lost, as BatchWriter.write counts it
                }
                ByteLineBuilder out = rendered;
                out.reset();
                result.clear();
                int at = range.position();
                try {
                    renderer.render(range, out, result);
                } catch (Throwable t) {
                    if (!retried) {
                        // Once more from where this call began: a failure can be transient (the heap
                        // exhausted for a moment by the application), and the records are all still here.
                        retried = true;
                        range.position(at);
                        continue;
                    }
                    failed = t;
                    break;
                }
                retried = false;
                done += result.rendered + result.left;
                if (result.left > 0) {
                    counters.lost(result.left, 0);
                }
                if (out.length() > 0 || result.rendered > 0) {
                    writes.renderedEnds = result.ends;
                    writes.renderedEndCount = result.endCount;
                    writes.writeOne(one, out.view(), result.rendered);
                    writes.renderedEnds = null;
                }
                if (result.passThrough > 0 && !w.givenUp) {
                    int limit = range.limit();
                    int end = range.position() + result.passThrough;
                    range.limit(end);
                    writes.writeOne(one, range, 1); // written or counted: either way the record is done
                    range.limit(limit);
                    range.position(end);
                    done++;
                }
            }
            if (done < inRange) {
                counters.lost(inRange - done, 0);
            }
            if (failed != null) {
                losses.renderFailed(inRange - done, failed);
            }
        }
        // Give back the array of a huge rendering now, not at the next batch (it may be long in coming).
        rendered.reset();
    }
}
