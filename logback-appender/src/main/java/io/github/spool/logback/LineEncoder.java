package io.github.spool.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import io.github.spool.text.ByteLineBuilder;
import java.util.List;

/**
 * What {@link SpoolAppender} and {@link WriterRenderer} need of a Spool encoder: encoding into a
 * {@link ByteLineBuilder} and rendering from a captured event. An adapter, so that
 * {@link SpoolEncoder} and {@link SpoolJsonEncoder} keep these methods out of their public API.
 * Internal to the logback adapter.
 */
interface LineEncoder {

    /**
     * @param encoder any encoder
     * @return its adapter, or {@code null} when it is not one of Spool's
     */
    static LineEncoder of(Encoder<ILoggingEvent> encoder) {
        if (encoder instanceof SpoolEncoder) {
            return new Pattern((SpoolEncoder) encoder);
        }
        if (encoder instanceof SpoolJsonEncoder) {
            return new Json((SpoolJsonEncoder) encoder);
        }
        return null;
    }

    /** Appends the event's bytes to {@code out}. */
    void encodeTo(ILoggingEvent event, ByteLineBuilder out);

    /** @return whether the writer can render lines from captured records */
    boolean rendersFromCapture();

    /** @return the MDC keys a capture copies, {@link EventCapture#ALL_KEYS}, or {@code null} for none */
    String[] capturedMdcKeys();

    /** @return whether this event may be captured; if not, the logging thread renders it */
    boolean capturable(ILoggingEvent event);

    /** @return how the encoder renders, for status messages */
    List<String> describe();

    /** {@link SpoolEncoder}: a pattern. */
    final class Pattern implements LineEncoder {
        private final SpoolEncoder encoder;

        Pattern(SpoolEncoder encoder) {
            this.encoder = encoder;
        }

        @Override
        public void encodeTo(ILoggingEvent event, ByteLineBuilder out) {
            encoder.encodeTo(event, out);
        }

        @Override
        public boolean rendersFromCapture() {
            return encoder.rendersFromCapture();
        }

        @Override
        public String[] capturedMdcKeys() {
            return encoder.capturedMdcKeys();
        }

        @Override
        public boolean capturable(ILoggingEvent event) {
            return true; // EventCapture declines what a pattern's record cannot carry
        }

        @Override
        public List<String> describe() {
            return encoder.describe();
        }
    }

    /** {@link SpoolJsonEncoder}: every event field, the whole MDC. */
    final class Json implements LineEncoder {
        private final SpoolJsonEncoder encoder;

        Json(SpoolJsonEncoder encoder) {
            this.encoder = encoder;
        }

        @Override
        public void encodeTo(ILoggingEvent event, ByteLineBuilder out) {
            encoder.encodeTo(event, out);
        }

        @Override
        public boolean rendersFromCapture() {
            return encoder.rendersFromCapture();
        }

        @Override
        public String[] capturedMdcKeys() {
            return encoder.capturedMdcKeys();
        }

        @Override
        public boolean capturable(ILoggingEvent event) {
            return encoder.capturable(event);
        }

        @Override
        public List<String> describe() {
            return List.of("json:" + encoder.getFormat());
        }
    }
}
