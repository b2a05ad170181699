package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;

/**
 * One field of a {@link NativeJsonTemplate}: writes its {@code "key":value} (or, when it
 * flattens, its entries) for a captured event straight into the writer's bytes. Implementations
 * are safe for several writer threads: what they cache is published as immutable entries.
 * Internal API.
 */
abstract class JsonNode {

    /**
     * @param event the writer's event
     * @return whether the field is written for this event (JsonTemplateLayout's {@code
     *         isResolvable}: a field that is not leaves no key and no separator)
     */
    boolean resolvable(CapturedEvent event) {
        return true;
    }

    /** @return whether the node writes entries into its parent object rather than one field */
    boolean flattening() {
        return false;
    }

    /**
     * Writes the field.
     *
     * @param event   the writer's event
     * @param out     the line
     * @param scratch chars this call may clear
     */
    abstract void render(CapturedEvent event, ByteLineBuilder out, JsonScratch scratch);
}
