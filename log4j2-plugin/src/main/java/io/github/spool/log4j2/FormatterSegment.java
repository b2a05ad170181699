package io.github.spool.log4j2;

import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.pattern.PatternFormatter;

/**
 * A conversion SpoolLayout has no byte path for, rendered by the very {@link PatternFormatter}
 * (converter plus width/truncation modifiers) log4j2's {@code PatternParser} built for the pattern:
 * identical chars by construction, then encoded from the reusable scratch builder. It allocates
 * whatever the converter allocates (nothing for the converters log4j2 marks garbage-free). Internal
 * API.
 *
 * <p>The chars are rendered into an empty builder rather than after the line's previous chars; that
 * is the same output because every log4j2 converter works relative to the length it found
 * ({@code %notEmpty}, {@code %maxLen}, {@code %equals}, {@code %enc} and {@code FormattingInfo} all
 * record {@code toAppendTo.length()} first).
 */
final class FormatterSegment extends Segment {

    private final PatternFormatter formatter;
    /** Prints nothing for an event without a throwable (a throwable converter without modifiers). */
    private final boolean onlyWithThrowable;

    /**
     * @param formatter         log4j2's formatter
     * @param onlyWithThrowable {@code true} only if the formatter prints nothing when the event has
     *                          no throwable, so the call can be skipped
     */
    FormatterSegment(PatternFormatter formatter, boolean onlyWithThrowable) {
        this.formatter = formatter;
        this.onlyWithThrowable = onlyWithThrowable;
    }

    @Override
    void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        if (onlyWithThrowable && event.getThrown() == null) {
            return;
        }
        scratch.setLength(0);
        formatter.format(event, scratch);
        out.append(scratch);
    }

    @Override
    void format(LogEvent event, StringBuilder sb) {
        formatter.format(event, sb);
    }

    @Override
    boolean handlesThrowable() {
        return formatter.handlesThrowable();
    }

    /** A throwable converter that is skipped without a throwable costs nothing on other events. */
    @Override
    boolean isBytePath() {
        return onlyWithThrowable;
    }

    @Override
    public String toString() {
        return "delegated " + formatter.getConverter().getClass().getSimpleName();
    }
}
