package io.github.spool.log4j2;

import java.nio.charset.StandardCharsets;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.pattern.FormattingInfo;

/**
 * {@code %p}, {@code %level} without options, with or without modifiers ({@code %-5level}): the
 * level's name. The bytes for the standard levels, already padded or truncated, are computed once;
 * custom levels take the general path (log4j2's {@link FormattingInfo} on chars). Internal API.
 */
final class LevelSegment extends Segment {

    private static final Level[] STANDARD = {Level.OFF, Level.FATAL, Level.ERROR, Level.WARN, Level.INFO,
        Level.DEBUG, Level.TRACE, Level.ALL};

    /** {@code null} for the default (no modifiers). */
    private final FormattingInfo formatting;
    /** Output for {@code STANDARD[i]}. */
    private final byte[][] standardBytes = new byte[STANDARD.length][];

    /**
     * @param formatting the field's modifiers, or {@code null}/{@link FormattingInfo#getDefault()} for none
     */
    LevelSegment(FormattingInfo formatting) {
        this.formatting = formatting == FormattingInfo.getDefault() ? null : formatting;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < STANDARD.length; i++) {
            sb.setLength(0);
            formatChars(STANDARD[i], sb);
            standardBytes[i] = sb.toString().getBytes(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        Level level = event.getLevel();
        for (int i = 0; i < STANDARD.length; i++) {
            if (STANDARD[i] == level) {
                byte[] b = standardBytes[i];
                out.appendBytes(b, 0, b.length);
                return;
            }
        }
        scratch.setLength(0);
        formatChars(level, scratch);
        out.append(scratch);
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        formatChars(event.getLevel(), sb);
    }

    private void formatChars(Level level, StringBuilder sb) {
        int start = sb.length();
        sb.append(level); // Level.toString() is its name, as in LevelPatternConverter
        if (formatting != null) {
            formatting.format(start, sb);
        }
    }
}
