package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.logging.log4j.layout.template.json.util.JsonWriter;
import org.apache.logging.log4j.util.ReadOnlyStringMap;
import org.apache.logging.log4j.util.StringBuilderFormattable;
import org.apache.logging.log4j.util.TriConsumer;

/**
 * An {@code mdc} field, as log4j2's {@code ReadOnlyStringMapResolver} writes it: one key's value
 * ({@code key}), or the entries whose keys match {@code pattern}, renamed by {@code replacement},
 * prefixed when flattened, as an object or merged into the parent ({@code flatten}); values as
 * {@code JsonWriter.writeValue} writes them, or as strings ({@code stringified}). An entry's key is
 * quoted once per key (keys come from a symbol table, one instance each) and cached by identity.
 * Internal API.
 */
final class JsonMdcNode extends JsonNode {

    private static final int SLOTS = 256;
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    /** An entry key's quoted {@code "key":}, or {@code null} bytes when the entry is left out. */
    private static final class KeyEntry {
        final String key;
        final byte[] quoted;

        KeyEntry(String key, byte[] quoted) {
            this.key = key;
            this.quoted = quoted;
        }
    }

    private static final TriConsumer<String, Object, JsonScratch> ENTRY = (key, value, walk) -> walk.node.entry(key,
            value, walk);

    private final byte[] prefix;
    /** The one key, or {@code null} for the map's entries. */
    private final String key;
    private final boolean flatten;
    private final String flattenPrefix;
    private final Pattern pattern;
    private final String replacement;
    private final boolean stringified;
    private final JsonQuoting quoting;
    private final int maxStringLength;
    private final String truncatedStringSuffix;
    private final KeyEntry[] keys = new KeyEntry[SLOTS];

    JsonMdcNode(byte[] prefix, String key, boolean flatten, String flattenPrefix, String pattern, String replacement,
            boolean stringified, JsonQuoting quoting, int maxStringLength,
            String truncatedStringSuffix) {
        this.prefix = prefix;
        this.key = key;
        this.flatten = flatten;
        this.flattenPrefix = flattenPrefix;
        this.pattern = pattern == null ? null : Pattern.compile(pattern);
        this.replacement = replacement;
        this.stringified = stringified;
        this.quoting = quoting;
        this.maxStringLength = maxStringLength;
        this.truncatedStringSuffix = truncatedStringSuffix;
    }

    @Override
    boolean flattening() {
        return flatten;
    }

    @Override
    boolean resolvable(CapturedEvent event) {
        ReadOnlyStringMap map = event.getContextData();
        return key != null ? map.containsKey(key) : !map.isEmpty();
    }

    @Override
    void render(CapturedEvent event, ByteLineBuilder out, JsonScratch scratch) {
        ReadOnlyStringMap map = event.getContextData();
        if (key != null) {
            out.append(prefix, 0, prefix.length);
            Object value = map.getValue(key);
            value(value, out, scratch.text);
            return;
        }
        if (!flatten) {
            out.append(prefix, 0, prefix.length);
            out.append((byte) '{');
        }
        scratch.node = this;
        scratch.out = out;
        scratch.start = out.length();
        try {
            map.forEach(ENTRY, scratch);
        } finally {
            scratch.node = null;
            scratch.out = null;
        }
        if (!flatten) {
            out.append((byte) '}');
        }
    }

    private void entry(String k, Object value, JsonScratch walk) {
        byte[] quoted = quotedKey(k);
        if (quoted == null) {
            return;
        }
        ByteLineBuilder out = walk.out;
        if (out.length() > walk.start) {
            out.append((byte) ',');
        }
        out.append(quoted, 0, quoted.length);
        value(value, out, walk.text);
    }

    private void value(Object value, ByteLineBuilder out, StringBuilder scratch) {
        if (value instanceof String) {
            String s = (String) value;
            quoting.writeString(out, s, s.length());
            return;
        }
        scratch.setLength(0);
        if (value == null) {
            if (!stringified) {
                out.append(NULL, 0, NULL.length);
                return;
            }
            scratch.append("null");
        } else if (value instanceof StringBuilderFormattable) {
            // writeValue writes a formattable as a string; String.valueOf(it) gives the same chars
            ((StringBuilderFormattable) value).formatTo(scratch);
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short
                || value instanceof Byte) {
            scratch.append(((Number) value).longValue());
        } else if (value instanceof Double) {
            scratch.append(((Double) value).doubleValue());
        } else if (value instanceof Float) {
            scratch.append(((Float) value).floatValue());
        } else if (value instanceof BigDecimal || value instanceof BigInteger) {
            scratch.append(value);
        } else if (value instanceof Boolean) {
            if (!stringified) {
                byte[] b = (Boolean) value ? TRUE : FALSE;
                out.append(b, 0, b.length);
                return;
            }
            scratch.append(((Boolean) value).booleanValue());
        } else {
            scratch.append(value); // JsonWriter: String.valueOf, written as a string
            quoting.writeString(out, scratch, scratch.length());
            return;
        }
        if (stringified || value instanceof StringBuilderFormattable) {
            quoting.writeString(out, scratch, scratch.length());
        } else {
            out.append(scratch, 0, scratch.length()); // a number, ASCII
        }
    }

    /** @return the entry's {@code "key":} bytes, or {@code null} when the entry is left out */
    private byte[] quotedKey(String k) {
        int slot = System.identityHashCode(k) & (SLOTS - 1);
        KeyEntry e = keys[slot];
        if (e == null || e.key != k) {
            e = new KeyEntry(k, quoteKey(k));
            keys[slot] = e;
        }
        return e.quoted;
    }

    /** Decides an entry's key as the resolver's loop does, once per key (allocates). */
    private byte[] quoteKey(String k) {
        String name = k;
        if (pattern != null) {
            Matcher m = pattern.matcher(k);
            if (!m.matches()) {
                return null;
            }
            if (replacement != null) {
                name = m.replaceAll(replacement);
            }
        }
        if (flattenPrefix != null) {
            name = flattenPrefix + name;
        }
        JsonWriter w = JsonWriter.newBuilder().setMaxStringLength(maxStringLength)
                .setTruncatedStringSuffix(truncatedStringSuffix).build();
        w.writeObjectKey(name);
        return w.getStringBuilder().toString().getBytes(StandardCharsets.UTF_8);
    }
}
