package io.github.spool.log4j2;

import java.nio.charset.StandardCharsets;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.layout.template.json.JsonTemplateLayout;

/**
 * One field of the template rendered by log4j2's own JsonTemplateLayout, alone in an object: the
 * bytes of {@code "key":value} exactly as the whole template writes that field (its resolver, its
 * key's quoting and truncation), or none when the field is not resolvable. Used where a value
 * depends on little (the level, a logger or thread name, the second): rendered once per such
 * value and cached by the nodes, never per event. Internal API.
 */
final class JsonFieldLayout {

    private static final byte[] NONE = new byte[0];

    private final JsonTemplateLayout layout;

    /**
     * @param base    a builder with the layout's settings (configuration, string length, suffix)
     * @param oneField the JSON of an object holding the one field
     */
    JsonFieldLayout(JsonTemplateLayout.Builder base, String oneField) {
        this.layout = base.setEventTemplate(oneField).build();
    }

    /** @return the field's bytes for {@code event}, empty when the field is not written (allocates) */
    byte[] render(LogEvent event) {
        String s = layout.toSerializable(event);
        int open = s.indexOf('{');
        int close = s.lastIndexOf('}');
        if (open < 0 || close <= open + 1) {
            return NONE;
        }
        // UTF-8 with '?' for a lone surrogate, as the layout's encoder writes it.
        return s.substring(open + 1, close).getBytes(StandardCharsets.UTF_8);
    }
}
