package io.github.spool.log4j2;

import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.pattern.FormattingInfo;

/**
 * A conversion with width, alignment or truncation modifiers ({@code %-5level}, {@code %.-10m},
 * {@code %20.30c}). log4j2 pads and truncates the field's chars (UTF-16 units, so a truncation may
 * split a surrogate pair, which the encoder then replaces by {@code '?'}); to match that exactly
 * this renders the field to chars in the reusable scratch builder and applies log4j2's own {@link
 * FormattingInfo#format(int, StringBuilder)}, which is garbage-free. Internal API.
 */
final class FormattedSegment extends Segment {

    private final Segment field;
    private final FormattingInfo formatting;

    FormattedSegment(Segment field, FormattingInfo formatting) {
        this.field = field;
        this.formatting = formatting;
    }

    /** @return the conversion being padded or truncated */
    Segment field() {
        return field;
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        scratch.setLength(0);
        field.format(event, scratch);
        formatting.format(0, scratch);
        out.append(scratch);
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        int start = sb.length();
        field.format(event, sb);
        formatting.format(start, sb);
    }

    @Override
    public boolean handlesThrowable() {
        return field.handlesThrowable();
    }

    @Override
    boolean isBytePath() {
        return field.isBytePath();
    }

    @Override
    boolean rendersFromCapture() {
        return field.rendersFromCapture();
    }

    @Override
    public String toString() {
        return "Formatted" + field;
    }
}
