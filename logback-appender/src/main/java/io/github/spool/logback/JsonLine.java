package io.github.spool.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.spool.text.ByteLineBuilder;

/**
 * One {@link SpoolJsonEncoder} format: renders an event's line, on a logging thread or on the
 * writer (from a {@link CapturedEvent}). Internal to the logback adapter.
 */
interface JsonLine {

    /**
     * Appends the event's line, separator included.
     *
     * @return {@code false} if this renderer does not write this event as its anchor does; what it
     *         appended is then to be dropped and the anchor's own encoder used
     */
    boolean render(ILoggingEvent event, ByteLineBuilder out);

    /** @return whether the writer may render this format from a captured event */
    default boolean capturable() {
        return true;
    }

    /** Releases what {@code start} took (converters). */
    void stop();
}
