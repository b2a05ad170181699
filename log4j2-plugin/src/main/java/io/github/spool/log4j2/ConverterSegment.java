package io.github.spool.log4j2;

import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.pattern.LogEventPatternConverter;

/**
 * Delegates to log4j2's own converter for conversions whose options would only be re-implemented
 * to the same effect and whose {@code format(LogEvent, StringBuilder)} appends without allocating:
 * {@code %level{...}} with options, {@code %logger{1.}}-style abbreviation patterns. Identical output
 * by construction; the chars are encoded from the reusable scratch builder. Internal API.
 */
final class ConverterSegment extends Segment {

    private final LogEventPatternConverter converter;
    /** A throwable converter prints nothing for an event without a throwable: skip the call. */
    private final boolean onlyWithThrowable;

    ConverterSegment(LogEventPatternConverter converter) {
        this.converter = converter;
        this.onlyWithThrowable = converter.handlesThrowable();
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        if (onlyWithThrowable && event.getThrown() == null) {
            return;
        }
        scratch.setLength(0);
        converter.format(event, scratch);
        out.append(scratch);
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        converter.format(event, sb);
    }

    @Override
    public boolean handlesThrowable() {
        return converter.handlesThrowable();
    }
}
