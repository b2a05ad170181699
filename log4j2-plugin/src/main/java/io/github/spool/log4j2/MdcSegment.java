package io.github.spool.log4j2;

import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.util.ReadOnlyStringMap;
import org.apache.logging.log4j.util.StringBuilders;
import org.apache.logging.log4j.util.TriConsumer;

/**
 * {@code %X}, {@code %mdc}, {@code %MDC}: the context map, mirroring log4j2's {@code
 * MdcPatternConverter}: {@code %X{key}} prints the value (nothing if absent), {@code %X{a,b}}
 * prints {@code {a=1, b=2}} for the keys present, {@code %X} prints the whole map as {@code {k=v,
 * ...}}. Values are rendered with log4j2's {@link StringBuilders#appendValue}. No allocation: single
 * keys use {@link ReadOnlyStringMap#getValue}, the whole map is visited with {@link
 * ReadOnlyStringMap#forEach(TriConsumer, Object)} and a constant consumer. Internal API.
 */
final class MdcSegment extends Segment {

    private static final TriConsumer<String, Object, StringBuilder> WRITE_KEY_VALUE = (key, value, sb) -> {
        sb.append(key).append('=');
        StringBuilders.appendValue(sb, value);
        sb.append(", ");
    };

    /** Single key, or {@code null}. */
    private final String key;
    /** Several keys (the option contained a comma after its first char), or {@code null}. */
    private final String[] keys;

    /**
     * @param options the conversion's options, as log4j2 passes them
     */
    MdcSegment(String[] options) {
        if (options != null && options.length > 0) {
            if (options[0].indexOf(',') > 0) {
                String[] split = options[0].split(",");
                for (int i = 0; i < split.length; i++) {
                    split[i] = split[i].trim();
                }
                keys = split;
                key = null;
            } else {
                keys = null;
                key = options[0];
            }
        } else {
            key = null;
            keys = null;
        }
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        if (key != null) {
            ReadOnlyStringMap data = event.getContextData();
            Object value = data == null ? null : data.getValue(key);
            if (value instanceof String) {
                out.append((String) value);
            } else if (value != null) {
                scratch.setLength(0);
                StringBuilders.appendValue(scratch, value);
                out.append(scratch);
            }
            return;
        }
        scratch.setLength(0);
        format(event, scratch);
        out.append(scratch);
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        ReadOnlyStringMap data = event.getContextData();
        if (key != null) {
            Object value = data == null ? null : data.getValue(key);
            if (value != null) {
                StringBuilders.appendValue(sb, value);
            }
        } else if (data == null || data.isEmpty()) {
            sb.append("{}");
        } else if (keys != null) {
            appendSelectedKeys(data, sb);
        } else {
            appendFully(data, sb);
        }
    }

    private static void appendFully(ReadOnlyStringMap data, StringBuilder sb) {
        sb.append('{');
        int start = sb.length();
        data.forEach(WRITE_KEY_VALUE, sb);
        int end = sb.length();
        if (end > start) {
            sb.setCharAt(end - 2, '}'); // replace the trailing ", " by "}"
            sb.setLength(end - 1);
        } else {
            sb.append('}');
        }
    }

    private void appendSelectedKeys(ReadOnlyStringMap data, StringBuilder sb) {
        int start = sb.length();
        sb.append('{');
        for (String k : keys) {
            Object value = data.getValue(k);
            if (value != null) {
                if (sb.length() - start > 1) {
                    sb.append(", ");
                }
                sb.append(k).append('=');
                StringBuilders.appendValue(sb, value);
            }
        }
        sb.append('}');
    }

    /**
     * @return the keys this piece prints, or {@code null} when it prints the whole map: what a
     *         capture must copy for it ({@link SpoolLayout#capturedContextKeys()})
     */
    String[] printedKeys() {
        if (key != null) {
            return new String[] {key};
        }
        return keys == null ? null : keys.clone();
    }
}
