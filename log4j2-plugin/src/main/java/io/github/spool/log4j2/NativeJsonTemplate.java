package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.logging.log4j.core.util.Constants;
import org.apache.logging.log4j.layout.template.json.JsonTemplateLayout;
import org.apache.logging.log4j.layout.template.json.JsonTemplateLayout.EventTemplateAdditionalField;
import org.apache.logging.log4j.layout.template.json.util.JsonReader;
import org.apache.logging.log4j.layout.template.json.util.JsonWriter;

/**
 * An event template compiled once into {@link JsonNode}s that write a captured event's line
 * straight into the writer's bytes, with no allocation per event: the message and the context map
 * are quoted here ({@link JsonQuoting}, {@link JsonMdcNode}); what depends on little (constants,
 * the level, logger and thread names, the timestamp's second) is rendered by log4j2's own
 * resolvers once per value and cached ({@link JsonFieldLayout}), so the bytes are log4j2's by
 * construction. Resolvers that read what a captured event never has (an exception, a marker, a
 * context stack, a map message, the source with location off) are left out: log4j2 writes no key
 * for them then. Any other resolver ({@code caseConverter}, {@code main}, an array holding
 * resolvers, …) makes {@link #compile} return {@code null}, and the layout keeps rendering
 * through log4j2's resolvers on the rebuilt event. Immutable after {@link #compile}; internal API.
 */
final class NativeJsonTemplate {

    /** Resolvers whose field a captured event never has (see the class comment). */
    private static final Set<String> NEVER_FOR_CAPTURED = Set.of("exception", "exceptionRootCause", "marker", "ndc",
            "map", "source");

    /** log4j2's encoder char buffer: longer lines are encoded in chunks of it. */
    private static final int CHUNK = Constants.ENCODER_CHAR_BUFFER_SIZE;

    private final JsonObjectNode root;
    private final byte[] delimiter;

    private NativeJsonTemplate(JsonObjectNode root, byte[] delimiter) {
        this.root = root;
        this.delimiter = delimiter;
    }

    /** Thrown inside {@link #compile} for a template part it does not know. */
    private static final class Unsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unsupported(String what) {
            super(what, null, false, false);
        }
    }

    /** The settings of the layout being compiled. */
    static final class Settings {
        JsonTemplateLayout.Builder fieldLayouts;
        String eventTemplate;
        EventTemplateAdditionalField[] additionalFields;
        String rootObjectKey;
        int maxStringLength;
        String truncatedStringSuffix;
        String eventDelimiter;
        boolean nullEventDelimiterEnabled;
    }

    /**
     * @param s the layout's settings; {@code s.fieldLayouts} a builder with the layout's
     *          configuration, string length, suffix, stack trace and location settings
     * @return the compiled template, or {@code null} when a part of it is not known here
     */
    static NativeJsonTemplate compile(Settings s) {
        try {
            s.fieldLayouts.setEventDelimiter("").setNullEventDelimiterEnabled(false)
                    .setEventTemplateRootObjectKey(null).setEventTemplateAdditionalFields(null);
            Object template = JsonReader.read(s.eventTemplate);
            if (!(template instanceof Map)) {
                return null;
            }
            Map<String, Object> fields = new LinkedHashMap<>(asMap(template));
            if (s.additionalFields != null) {
                for (EventTemplateAdditionalField f : s.additionalFields) {
                    Object value = f.getFormat() == EventTemplateAdditionalField.Format.JSON
                            ? JsonReader.read(f.getValue()) : f.getValue();
                    fields.put(f.getKey(), value);
                }
            }
            Compiler c = new Compiler(s);
            JsonObjectNode root;
            if (s.rootObjectKey != null) {
                JsonNode inner = c.object(c.key(s.rootObjectKey), fields);
                root = new JsonObjectNode(new byte[] {'{'}, List.of(inner));
            } else {
                root = c.object(new byte[0], fields);
            }
            String delimiter = s.eventDelimiter + (s.nullEventDelimiterEnabled ? "\0" : "");
            return new NativeJsonTemplate(root, delimiter.getBytes(StandardCharsets.UTF_8));
        } catch (Unsupported e) {
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }

    /**
     * Writes the event's line and the delimiter.
     *
     * @param event   the writer's event
     * @param out     the line, appended to
     * @param scratch this thread's scratch
     * @return {@code false} when the line is one this class cannot write exactly (see {@link
     *         #chunkedPairs}); {@code out} is then as it was
     */
    boolean render(CapturedEvent event, ByteLineBuilder out, JsonScratch scratch) {
        int start = out.length();
        root.render(event, out, scratch);
        out.append(delimiter, 0, delimiter.length);
        if (out.length() - start > CHUNK && chunkedPairs(out.array(), start, out.length())) {
            out.setLength(start);
            return false;
        }
        return true;
    }

    /**
     * log4j2 encodes a line longer than its encoder's char buffer ({@code
     * log4j2.encoderCharBufferSize}, 2048) chunk by chunk, and a surrogate pair cut by a chunk's
     * end comes out as one {@code '?'}. Rather than count chars here, a line that long with any
     * supplementary character (a 4-byte UTF-8 sequence) is left to log4j2's own path: rare, and
     * exact. Shorter lines have fewer chars than bytes, so never more than one chunk.
     */
    private static boolean chunkedPairs(byte[] line, int from, int to) {
        for (int i = from; i < to; i++) {
            if ((line[i] & 0xF8) == 0xF0) {
                return true;
            }
        }
        return false;
    }

    /** Turns template parts into nodes. */
    private static final class Compiler {
        private final Settings s;
        private final JsonQuoting quoting;

        Compiler(Settings s) {
            this.s = s;
            this.quoting = new JsonQuoting(s.maxStringLength, s.truncatedStringSuffix);
        }

        /** @return {@code "key":} as the layout quotes a field's key */
        byte[] key(String key) {
            return json(w -> w.writeObjectKey(key), s.maxStringLength).getBytes(StandardCharsets.UTF_8);
        }

        private String json(java.util.function.Consumer<JsonWriter> write, int maxStringLength) {
            JsonWriter w = JsonWriter.newBuilder().setMaxStringLength(maxStringLength)
                    .setTruncatedStringSuffix(s.truncatedStringSuffix).build();
            write.accept(w);
            return w.getStringBuilder().toString();
        }

        /** @param open {@code "key":} (empty for the root), the object's {@code '{'} is added here */
        JsonObjectNode object(byte[] open, Map<String, Object> fields) {
            byte[] withBrace = java.util.Arrays.copyOf(open, open.length + 1);
            withBrace[open.length] = '{';
            List<JsonNode> nodes = new ArrayList<>();
            for (Map.Entry<String, Object> f : fields.entrySet()) {
                JsonNode n = field(f.getKey(), f.getValue());
                if (n != null) {
                    nodes.add(n);
                }
            }
            return new JsonObjectNode(withBrace, nodes);
        }

        /** @return the field's node, or {@code null} when it is never written for a captured event */
        private JsonNode field(String key, Object value) {
            if (!hasResolver(value)) {
                byte[] bytes = fieldLayout(key, value).render(new CapturedEvent(new CapturedContext()));
                return bytes.length == 0 ? null : new JsonConstantNode(bytes);
            }
            if (value instanceof List) {
                throw new Unsupported("an array with resolvers");
            }
            Map<String, Object> map = asMap(value);
            Object resolver = map.get("$resolver");
            if (resolver == null) {
                return object(key(key), map);
            }
            String name = String.valueOf(resolver);
            if (NEVER_FOR_CAPTURED.contains(name)) {
                return null;
            }
            switch (name) {
                case "timestamp":
                    return new JsonTimestampNode(fieldLayout(key, value));
                case "level":
                    return new JsonKeyedNode(fieldLayout(key, value), JsonKeyedNode.Key.LEVEL);
                case "logger":
                    return new JsonKeyedNode(fieldLayout(key, value), JsonKeyedNode.Key.LOGGER);
                case "thread":
                    return new JsonKeyedNode(fieldLayout(key, value), JsonKeyedNode.Key.THREAD);
                case "message":
                    return message(key, map);
                case "mdc":
                    return mdc(key, map);
                default:
                    throw new Unsupported("resolver " + name);
            }
        }

        private JsonNode message(String key, Map<String, Object> config) {
            only(config, "stringified", "fallbackKey");
            boolean stringified = Boolean.TRUE.equals(config.get("stringified"));
            Object fallbackKey = config.get("fallbackKey");
            byte[] fallbackOpen = null;
            if (fallbackKey != null && !stringified) {
                byte[] k = key(String.valueOf(fallbackKey));
                fallbackOpen = java.util.Arrays.copyOf(new byte[] {'{'}, k.length + 1);
                System.arraycopy(k, 0, fallbackOpen, 1, k.length);
            }
            return new JsonMessageNode(key(key), fallbackOpen, quoting);
        }

        private JsonNode mdc(String key, Map<String, Object> config) {
            // keyExcludes is left to log4j2's path: 2.26.1's resolver ignores it, later ones apply it
            only(config, "key", "stringified", "flatten", "pattern", "replacement");
            Object flattenObject = config.get("flatten");
            boolean flatten = Boolean.TRUE.equals(flattenObject) || flattenObject instanceof Map;
            String prefix = null;
            if (flattenObject instanceof Map) {
                Object p = asMap(flattenObject).get("prefix");
                prefix = p == null ? null : String.valueOf(p);
            }
            return new JsonMdcNode(key(key), string(config, "key"), flatten, prefix, string(config, "pattern"),
                    string(config, "replacement"), Boolean.TRUE.equals(config.get("stringified")), quoting,
                    s.maxStringLength, s.truncatedStringSuffix);
        }

        private static String string(Map<String, Object> config, String name) {
            Object v = config.get(name);
            return v == null ? null : String.valueOf(v);
        }

        private static void only(Map<String, Object> config, String... known) {
            for (String k : config.keySet()) {
                if (!"$resolver".equals(k) && !List.of(known).contains(k)) {
                    throw new Unsupported("option " + k);
                }
            }
        }

        private JsonFieldLayout fieldLayout(String key, Object value) {
            // Room for every string of the field unquoted: JsonWriter would cut longer ones.
            int room = 64 + key.length() + String.valueOf(value).length();
            String oneField = json(w -> {
                w.writeObjectStart();
                w.writeObjectKey(key);
                w.writeValue(value);
                w.writeObjectEnd();
            }, room);
            return new JsonFieldLayout(s.fieldLayouts, oneField);
        }

        private static boolean hasResolver(Object node) {
            if (node instanceof Map) {
                Map<?, ?> map = (Map<?, ?>) node;
                if (map.containsKey("$resolver")) {
                    return true;
                }
                for (Object v : map.values()) {
                    if (hasResolver(v)) {
                        return true;
                    }
                }
            } else if (node instanceof List) {
                for (Object v : (List<?>) node) {
                    if (hasResolver(v)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }
}
