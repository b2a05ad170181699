package io.github.spool.log4j2;

import java.nio.charset.StandardCharsets;
import org.apache.logging.log4j.core.LogEvent;

/**
 * Literal pattern text and {@code %n}: the text log4j2's literal or line-separator converter prints,
 * encoded once at configuration time. Internal API.
 */
final class LiteralSegment extends Segment {

    private final String text;
    private final byte[] bytes;
    /** A lone surrogate at either end may pair with a neighbouring field: go through the text path. */
    private final boolean pairsWithNeighbours;

    LiteralSegment(String text) {
        this.text = text;
        // String.getBytes replaces unpaired surrogates with '?', as log4j2's encoders do.
        this.bytes = text.getBytes(StandardCharsets.UTF_8);
        this.pairsWithNeighbours = !text.isEmpty() && (Character.isLowSurrogate(text.charAt(0))
                || Character.isHighSurrogate(text.charAt(text.length() - 1)));
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        if (pairsWithNeighbours) {
            out.append(text);
        } else {
            out.appendBytes(bytes, 0, bytes.length);
        }
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        sb.append(text);
    }
}
