package io.github.spool.logback;

import ch.qos.logback.classic.pattern.ThrowableHandlingConverter;
import io.github.spool.text.ByteLineBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link LogstashJsonLine} needs of {@code LogstashEncoder}'s settings, fixed when the encoder
 * starts: each field's name already as JSON bytes ({@code "name":}, or {@code null} for a field left
 * out), the MDC filters and renames, the custom fields' bytes, the timestamp and the throwable
 * converter. Immutable once built; read by the logging threads and the writer. Internal.
 */
final class LogstashSettings {

    /** {@code "name":} of the plain fields; {@code null}: not written ({@value JsonFieldNames#IGNORE}). */
    final byte[] timestamp;
    final byte[] version;
    final byte[] message;
    final byte[] logger;
    final byte[] thread;
    final byte[] level;
    final byte[] levelValue;
    final byte[] stackTrace;
    /** {@code "name":[}: the tags field is written whatever its name, as {@code TagsJsonProvider} does. */
    final byte[] tags;
    /** {@code "name":} and an opening brace: the objects nesting these fields, or {@code null}: top-level fields. */
    final byte[] mdc;
    final byte[] context;
    final byte[] keyValuePair;
    /** {@code includeMdcKeyName}/{@code excludeMdcKeyName}; empty: no filter. Arrays: no iterator per event. */
    final String[] includeMdc;
    final String[] excludeMdc;
    /** {@code mdcKeyFieldName}: MDC key to field name; a {@code HashMap} lookup does not allocate. */
    final Map<String, String> mdcFieldNames;
    /** The custom fields as written after the other fields, without a leading comma; empty if none. */
    final byte[] customFields;
    final LogstashTimestamp timestampValue;
    /** The converter of {@code stack_trace}, started; {@code LogstashEncoder}'s default unless configured. */
    final ThrowableHandlingConverter throwableConverter;
    /** The version field's value as JSON: {@code "1"} by default, a number with {@code writeVersionAsInteger}. */
    final byte[] versionValue;
    /** {@code includeMdc}, {@code includeContext}, {@code includeTags}, {@code includeKeyValuePairs}: whether the provider is there. */
    final boolean writesMdc;
    final boolean writesContext;
    final boolean writesTags;
    final boolean writesKeyValuePairs;

    LogstashSettings(JsonFieldNames names, List<String> includeMdc, List<String> excludeMdc,
            Map<String, String> mdcFieldNames, byte[] customFields, LogstashTimestamp timestampValue,
            ThrowableHandlingConverter throwableConverter, LogstashProviders providers) {
        this.timestamp = plain(names.get("timestamp", "@timestamp"));
        this.version = plain(names.get("version", "@version"));
        this.message = plain(names.get("message", "message"));
        this.logger = plain(names.get("logger", "logger_name"));
        this.thread = plain(names.get("thread", "thread_name"));
        this.level = plain(names.get("level", "level"));
        this.levelValue = plain(names.get("levelValue", "level_value"));
        this.stackTrace = plain(names.get("stackTrace", "stack_trace"));
        this.tags = name(names.get("tags", "tags"), '[');
        this.mdc = name(names.get("mdc", null), '{');
        this.context = name(names.get("context", null), '{');
        this.keyValuePair = name(names.get("keyValuePair", null), '{');
        this.includeMdc = includeMdc.toArray(new String[0]);
        this.excludeMdc = excludeMdc.toArray(new String[0]);
        this.mdcFieldNames = new HashMap<>(mdcFieldNames);
        this.customFields = customFields;
        this.timestampValue = timestampValue;
        this.throwableConverter = throwableConverter;
        ByteLineBuilder v = new ByteLineBuilder(8);
        if (providers.versionAsInteger && LogstashProviders.integral(providers.version)) {
            v.appendDecimal(Integer.parseInt(providers.version));
        } else { // (not an int: the real encoder renders every line, LogstashProviders.delegatedNames)
            JsonEscape.appendQuoted(v, providers.version);
        }
        this.versionValue = java.util.Arrays.copyOf(v.array(), v.length());
        this.writesMdc = providers.mdc;
        this.writesContext = providers.context;
        this.writesTags = providers.tags;
        this.writesKeyValuePairs = providers.keyValuePairs;
    }

    /** @return whether the MDC entry of this key is written, as {@code MdcJsonProvider} filters */
    boolean writesMdcKey(String key) {
        return (includeMdc.length == 0 || contains(includeMdc, key)) && (excludeMdc.length == 0 || !contains(excludeMdc, key));
    }

    private static boolean contains(String[] keys, String key) {
        for (String k : keys) {
            if (k == null ? key == null : k.equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** {@code "name":}, or {@code null} where {@code JsonWritingUtils.shouldWriteField} says no. */
    private static byte[] plain(String name) {
        return name == null || name.equals(JsonFieldNames.IGNORE) ? null : name(name, (char) 0);
    }

    /** {@code "name":} then {@code open} unless 0; {@code null} for a {@code null} name. */
    private static byte[] name(String name, char open) {
        if (name == null) {
            return null;
        }
        ByteLineBuilder b = new ByteLineBuilder(name.length() + 4);
        JsonEscape.appendQuoted(b, name);
        b.append((byte) ':');
        if (open != 0) {
            b.append((byte) open);
        }
        return java.util.Arrays.copyOf(b.array(), b.length());
    }

}
