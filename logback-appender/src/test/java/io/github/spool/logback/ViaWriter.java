package io.github.spool.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.spool.io.RecordRenderer;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Renders an event as {@code <SpoolAppender render="writer">} does, in one thread: captured as the
 * appender captures it (or, when the capture declines, encoded here into a text record), then
 * rendered from the ring's bytes by the appender's {@link WriterRenderer}. Counts both outcomes, so
 * a test can show that it exercised each.
 */
final class ViaWriter {

    private final LineEncoder encoder;
    private final WriterRenderer renderer;
    private final String[] mdcKeys;
    private final EventCapture.Ids ids = new EventCapture.Ids();
    int captured;
    int textRecords;

    /** @param encoder a started encoder whose {@link SpoolEncoder#rendersFromCapture()} holds */
    ViaWriter(SpoolEncoder encoder) {
        this(LineEncoder.of(encoder));
    }

    /** @param encoder a started encoder's adapter whose {@link LineEncoder#rendersFromCapture()} holds */
    ViaWriter(LineEncoder encoder) {
        if (!encoder.rendersFromCapture()) {
            throw new IllegalArgumentException("not rendered on the writer: " + encoder.describe());
        }
        this.encoder = encoder;
        this.renderer = new WriterRenderer(encoder);
        this.mdcKeys = encoder.capturedMdcKeys();
    }

    /**
     * @return the line's bytes
     * @throws IllegalStateException if the writer left the record out (its line failed)
     */
    byte[] render(ILoggingEvent event) {
        ByteLineBuilder record = new ByteLineBuilder(256);
        if (encoder.capturable(event) && EventCapture.capture(event, record, ids, mdcKeys)) {
            captured++;
        } else {
            record.reset();
            RecordCodec.beginText(record);
            encoder.encodeTo(event, record);
            RecordCodec.endText(record);
            textRecords++;
        }
        ByteBuffer range = ByteBuffer.allocateDirect(record.length());
        range.put(record.array(), 0, record.length()).flip();
        ByteLineBuilder out = new ByteLineBuilder(256);
        RecordRenderer.Result result = new RecordRenderer.Result();
        renderer.render(range, out, result);
        if (result.left != 0) {
            throw new IllegalStateException("the writer left the record out");
        }
        if (result.passThrough > 0) { // a long text record: the writer writes it from the ring
            out.append(range, range.remaining());
        } else if (result.rendered != 1 || range.hasRemaining()) {
            throw new IllegalStateException("rendered " + result.rendered + ", " + range.remaining() + " bytes unread");
        }
        return Arrays.copyOf(out.array(), out.length());
    }
}
