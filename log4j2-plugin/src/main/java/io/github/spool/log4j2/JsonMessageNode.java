package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.util.StringBuilderFormattable;

/**
 * A {@code message} field of a captured event: its formatted text as a JSON string, inside {@code
 * {"fallbackKey":…}} when the resolver has one and is not {@code stringified} — what log4j2's
 * message resolver writes for a simple or parameterized message or a logger's own reusable event,
 * the only ones captured ({@link SpoolJsonTemplateLayout#capturable}). Internal API.
 */
final class JsonMessageNode extends JsonNode {

    private final byte[] prefix;
    /** {@code {"fallbackKey":}, or {@code null}. */
    private final byte[] fallbackOpen;
    private final JsonQuoting quoting;

    JsonMessageNode(byte[] prefix, byte[] fallbackOpen, JsonQuoting quoting) {
        this.prefix = prefix;
        this.fallbackOpen = fallbackOpen;
        this.quoting = quoting;
    }

    @Override
    void render(CapturedEvent event, ByteLineBuilder out, JsonScratch scratch) {
        out.append(prefix, 0, prefix.length);
        if (fallbackOpen != null) {
            out.append(fallbackOpen, 0, fallbackOpen.length);
        }
        Message m = event.getMessage();
        StringBuilder text = scratch.text;
        text.setLength(0);
        if (m instanceof StringBuilderFormattable) {
            ((StringBuilderFormattable) m).formatTo(text);
        } else {
            text.append(m.getFormattedMessage());
        }
        quoting.writeString(out, text, text.length());
        if (fallbackOpen != null) {
            out.append((byte) '}');
        }
    }
}
