package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import org.apache.logging.log4j.core.LogEvent;

/**
 * A layout whose lines the writer thread can render from {@link EventCapture}'s records: {@link
 * SpoolLayout} and {@link SpoolJsonTemplateLayout}. {@link SpoolAppender} captures on the caller
 * and {@link WriterRenderer} renders on the writer through these methods, whichever layout it is.
 * Internal API.
 */
interface CapturingLayout {

    /**
     * @return {@code true} if the writer can render every captured event of this layout exactly as
     *         the caller would (else the appender renders on the calling thread)
     */
    boolean rendersFromCapture();

    /** @return whether a capture must keep a text's lone surrogates as they are */
    boolean formatsMessageChars();

    /**
     * @return the context-map keys a capture copies: {@code null} for none, {@link
     *         EventCapture#ALL_KEYS} for the whole map
     */
    String[] capturedContextKeys();

    /**
     * @param event an event about to be captured
     * @return {@code false} if the event carries something the captured record does not (the
     *         caller then renders it into a text record); {@link EventCapture} checks the rest
     */
    boolean capturable(LogEvent event);

    /**
     * Renders the event on the calling thread into a text record ({@link
     * io.github.spool.text.RecordCodec#RECORD_TEXT}) in {@code scratch}'s line.
     *
     * @return the builder holding the record
     */
    ByteLineBuilder encodeTextRecord(LogEvent event, SpoolLayout.Scratch scratch);

    /**
     * Renders a captured event on the writer, appending its line to {@code line}.
     *
     * @param event   the writer's event, rebuilt from the record
     * @param scratch the writer's scratch
     * @param line    the writer's output
     */
    void renderCaptured(LogEvent event, SpoolLayout.Scratch scratch, LineBuffer line);

    /** @return how the layout renders, for a status message */
    String describe();
}
