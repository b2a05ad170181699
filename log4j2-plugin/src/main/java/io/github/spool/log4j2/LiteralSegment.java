package io.github.spool.log4j2;

import java.nio.charset.StandardCharsets;
import org.apache.logging.log4j.core.LogEvent;

/** Literal pattern text (and {@code %n}), encoded once at configuration time. Internal API. */
final class LiteralSegment extends Segment {

    private final String text;
    private final byte[] bytes;
    private final boolean lineSeparator;
    /** A lone surrogate at either end may pair with a neighbouring field: go through the text path. */
    private final boolean pairsWithNeighbours;

    LiteralSegment(String text, boolean lineSeparator) {
        this.text = text;
        // String.getBytes replaces unpaired surrogates with '?', as log4j2's encoders do.
        this.bytes = text.getBytes(StandardCharsets.UTF_8);
        this.lineSeparator = lineSeparator;
        this.pairsWithNeighbours = !text.isEmpty() && (Character.isLowSurrogate(text.charAt(0))
                || Character.isHighSurrogate(text.charAt(text.length() - 1)));
    }

    /** @return {@code true} for {@code %n}, which log4j2's alwaysWriteExceptions logic looks for */
    boolean isLineSeparator() {
        return lineSeparator;
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
