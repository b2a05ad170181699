package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;

/** A field whose bytes do not depend on the event (rendered once, by {@link JsonFieldLayout}). Internal API. */
final class JsonConstantNode extends JsonNode {

    private final byte[] bytes;

    JsonConstantNode(byte[] bytes) {
        this.bytes = bytes;
    }

    @Override
    void render(CapturedEvent event, ByteLineBuilder out, JsonScratch scratch) {
        out.append(bytes, 0, bytes.length);
    }
}
