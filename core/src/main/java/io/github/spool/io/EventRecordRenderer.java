package io.github.spool.io;

import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The writer's loop over an adapter's captured records ({@link RecordCodec}): text records are
 * copied (or, when long, passed through from the ring), event records are rendered by the adapter.
 * Used by one writer thread only.
 */
public abstract class EventRecordRenderer implements RecordRenderer {

    /** Text records longer than this are written from the ring as they are, not copied. */
    public static final int PASS_THROUGH_BYTES = 32 << 10;

    /** Creates a renderer. */
    protected EventRecordRenderer() {
    }

    @Override
    public final void render(ByteBuffer range, ByteLineBuilder out, Result result) {
        range.order(ByteOrder.BIG_ENDIAN);
        while (range.hasRemaining()) {
            int at = range.position();
            byte kind = range.get();
            if (kind == RecordCodec.RECORD_TEXT) {
                int length = range.getInt();
                if (length > PASS_THROUGH_BYTES) {
                    result.passThrough = length; // written from the ring as it is, in one write
                    return;
                }
                out.append(range, length);
                result.rendered++;
                result.recordEnd(out.length());
                continue;
            }
            if (kind != RecordCodec.RECORD_EVENT) {
                range.position(at);
                throw new IllegalStateException("unknown record kind " + kind); // the rest of the range is lost
            }
            int mark = out.length();
            if (renderEvent(range, out)) {
                result.rendered++;
                result.recordEnd(out.length());
            } else {
                out.setLength(mark); // nothing of a line that failed half-way
                result.left++; // this record only: the next one is framed already
            }
        }
    }

    /**
     * Reads one event record, after its kind byte, and appends its line to {@code out}.
     *
     * @param in  the range, positioned after the kind byte; to be moved past the record
     * @param out where the line goes
     * @return {@code false} if the record was read but its line could not be rendered (it is
     *         counted as lost; whatever was appended is removed)
     * @throws RuntimeException if the record cannot be read: the rest of the range is lost
     */
    protected abstract boolean renderEvent(ByteBuffer in, ByteLineBuilder out);
}
