package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import java.util.List;

/**
 * An object of the template with resolvers in it, written as JsonTemplateLayout's object
 * resolver writes it: its fields that are resolvable, a comma before each one but the first that
 * wrote something; the object itself is resolvable when one of its fields is. Internal API.
 */
final class JsonObjectNode extends JsonNode {

    /** {@code "key":} then {@code '{'}, or just {@code '{'} for the template's root. */
    private final byte[] open;
    private final JsonNode[] fields;

    JsonObjectNode(byte[] open, List<JsonNode> fields) {
        this.open = open;
        this.fields = fields.toArray(new JsonNode[0]);
    }

    @Override
    boolean resolvable(CapturedEvent event) {
        for (JsonNode f : fields) {
            if (f.resolvable(event)) {
                return true;
            }
        }
        return false;
    }

    @Override
    void render(CapturedEvent event, ByteLineBuilder out, JsonScratch scratch) {
        out.append(open, 0, open.length);
        int start = out.length();
        for (JsonNode f : fields) {
            if (!f.resolvable(event)) {
                continue;
            }
            int mark = out.length();
            if (mark > start) {
                out.append((byte) ',');
            }
            int before = out.length();
            f.render(event, out, scratch);
            if (out.length() == before) {
                out.setLength(mark); // a flattening field that wrote no entry takes its comma back
            }
        }
        out.append((byte) '}');
    }
}
