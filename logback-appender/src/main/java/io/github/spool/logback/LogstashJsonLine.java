package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.pattern.ExtendedThrowableProxyConverter;
import ch.qos.logback.classic.pattern.ThrowableHandlingConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Context;
import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;

/**
 * One event as logstash-logback-encoder 8.1's {@code LogstashEncoder} writes it, in the order of
 * its {@code LogstashFormatter}'s providers; with its default settings:
 *
 * <pre>{@code
 * {"@timestamp":"2023-11-14T22:13:20.12Z","@version":"1","message":"...","logger_name":"a.b.C",
 *  "thread_name":"main","level":"WARN","level_value":30000,"stack_trace":"...",
 *  <context properties>,<MDC entries>,<key-value pairs>,"tags":["MARKER"]}<line separator>
 * }</pre>
 *
 * (one line). A field whose value is {@code null} is left out; {@code stack_trace} is logback's
 * {@code %xEx} of the event's throwable ({@code ExtendedThrowableProxyConverter}, that encoder's
 * default converter); context properties ({@code Context.getCopyOfPropertyMap()}), MDC entries and
 * key-value pairs are top-level fields in their maps' order, null keys and values skipped;
 * {@code tags} holds the names of the event's markers and of their references, depth first. Strings
 * are escaped by {@link JsonEscape}. Its settings ({@link LogstashSettings}) rename or leave out
 * fields, nest the context, MDC and key-value pairs in objects, filter and rename MDC keys, format
 * the timestamp ({@link LogstashTimestamp}), convert the throwable, and add the custom fields last
 * (set after construction, that provider comes after all others).
 *
 * <p>Not rendered here, by design of the caller ({@link SpoolJsonEncoder#rendersNatively}): markers
 * that are logstash {@code LogstashMarker}s, {@code StructuredArgument} arguments and key-value
 * values of other types than string, boolean and integral boxed numbers, which Jackson's
 * {@code ObjectMapper} writes; those events go to the real encoder.
 *
 * <p>Allocation-free for an event without throwable and markers once its second's timestamp and
 * context properties are rendered; used by logging threads and the writer at once (the per-second
 * caches are immutable values behind volatile fields). Internal to the logback adapter.
 */
final class LogstashJsonLine implements JsonLine {

    private final Context context;
    private final LogstashSettings settings;
    private final byte[] lineSeparator;
    /** Whether this line starts and stops the converter: it is not shared with a started {@code LogstashEncoder}. */
    private final boolean ownsConverter;

    /**
     * The context's properties as rendered fields, for one second of event time: logback sets them
     * while it configures, so reading them once a second keeps the line allocation-free and still
     * shows a property put later within a second. Volatile for safe publication of the immutable
     * value (acquire on read, release on write; a race renders the same value twice).
     */
    private volatile ContextFields contextFields;

    /**
     * @param context       the logback context (its properties are printed), may be {@code null}
     * @param settings      the encoder's settings
     * @param ownsConverter whether to start (now) and stop the settings' throwable converter
     */
    LogstashJsonLine(Context context, LogstashSettings settings, boolean ownsConverter) {
        this.context = context;
        this.settings = settings;
        this.ownsConverter = ownsConverter;
        this.lineSeparator = System.lineSeparator().getBytes(StandardCharsets.UTF_8);
        if (ownsConverter) {
            settings.throwableConverter.setContext(context);
            settings.throwableConverter.start();
        }
    }

    /** @return LogstashEncoder's default converter of {@code stack_trace}, not started */
    static ThrowableHandlingConverter defaultConverter() {
        return new ExtendedThrowableProxyConverter();
    }

    @Override
    public void stop() {
        if (ownsConverter) {
            settings.throwableConverter.stop();
        }
    }

    /** Appends the event's line, separator included; every event it is given. */
    @Override
    public boolean render(ILoggingEvent event, ByteLineBuilder out) {
        long epochSecond;
        int nanos;
        if (event.getClass() == CapturedEvent.class) {
            // captured from a LoggingEvent: its instant is these two fields
            epochSecond = Math.floorDiv(event.getTimeStamp(), 1000L);
            nanos = event.getNanoseconds();
        } else {
            Instant instant = event.getInstant(); // what LogstashEncoder formats; a field of a LoggingEvent
            epochSecond = instant.getEpochSecond();
            nanos = instant.getNano();
        }
        final LogstashSettings s = settings;
        out.append((byte) '{');
        // Jackson writes a comma before every field but the object's first: whether anything was
        // written since the brace says which, whichever fields the names leave out.
        final int body = out.length();
        if (s.timestamp != null) {
            out.append(s.timestamp, 0, s.timestamp.length);
            s.timestampValue.append(out, epochSecond, nanos);
        }
        if (s.version != null) {
            comma(out, body);
            out.append(s.version, 0, s.version.length).append(s.versionValue, 0, s.versionValue.length);
        }
        if (s.message != null) {
            int beforeMessage = out.length();
            comma(out, body);
            out.append(s.message, 0, s.message.length).append((byte) '"');
            if (JsonMessage.append(event, out)) {
                out.append((byte) '"');
            } else {
                out.setLength(beforeMessage);
            }
        }
        stringField(out, body, s.logger, event.getLoggerName());
        stringField(out, body, s.thread, event.getThreadName());
        Level level = event.getLevel();
        if (s.level != null) {
            comma(out, body);
            out.append(s.level, 0, s.level.length).append((byte) '"').appendAscii(level.levelStr).append((byte) '"');
        }
        if (s.levelValue != null) {
            comma(out, body);
            out.append(s.levelValue, 0, s.levelValue.length).appendDecimal(level.levelInt);
        }
        if (event.getThrowableProxy() != null) {
            stringField(out, body, s.stackTrace, s.throwableConverter.convert(event));
        }
        if (context != null && s.writesContext) {
            byte[] props = contextFields(epochSecond);
            if (props.length > 0) {
                comma(out, body);
                out.append(props, 0, props.length);
            }
        }
        if (s.writesMdc) {
            mdc(out, body, event.getMDCPropertyMap());
        }
        if (s.writesKeyValuePairs) {
            keyValuePairs(out, body, event.getKeyValuePairs());
        }
        if (s.writesTags) {
            tags(out, body, event.getMarkerList());
        }
        if (s.customFields.length > 0) {
            comma(out, body);
            out.append(s.customFields, 0, s.customFields.length);
        }
        out.append((byte) '}');
        out.append(lineSeparator, 0, lineSeparator.length);
        return true;
    }

    private static void comma(ByteLineBuilder out, int body) {
        if (out.length() > body) {
            out.append((byte) ',');
        }
    }

    private static void stringField(ByteLineBuilder out, int body, byte[] nameColon, String value) {
        if (nameColon != null && value != null) {
            comma(out, body);
            out.append(nameColon, 0, nameColon.length).append((byte) '"');
            JsonEscape.append(out, value, 0, value.length());
            out.append((byte) '"');
        }
    }

    /** {@code "key":"value"}, after a comma unless first in its object, as Jackson writes a string field. */
    private static void field(ByteLineBuilder out, int body, String key, String value) {
        comma(out, body);
        JsonEscape.appendQuoted(out, key);
        out.append((byte) ':');
        JsonEscape.appendQuoted(out, value);
    }

    /**
     * @return the context's properties, without a leading comma: its fields, or the nesting object
     *         ({@code ContextJsonProvider} writes it even when empty)
     */
    private byte[] contextFields(long epochSecond) {
        ContextFields c = contextFields;
        if (c == null || c.epochSecond != epochSecond) {
            ByteLineBuilder b = new ByteLineBuilder(64);
            byte[] nest = settings.context;
            if (nest != null) {
                b.append(nest, 0, nest.length);
            }
            int start = b.length();
            for (Map.Entry<String, String> e : context.getCopyOfPropertyMap().entrySet()) {
                if (e.getKey() != null && e.getValue() != null) {
                    field(b, start, e.getKey(), e.getValue());
                }
            }
            if (nest != null) {
                b.append((byte) '}');
            }
            c = new ContextFields(epochSecond, java.util.Arrays.copyOf(b.array(), b.length()));
            contextFields = c;
        }
        return c.bytes;
    }

    private void mdc(ByteLineBuilder out, int body, Map<String, String> mdc) {
        if (mdc == null || mdc.isEmpty()) {
            return;
        }
        // MdcJsonProvider opens its nesting object with the first entry it writes, not before
        int start = -1;
        if (mdc instanceof CapturedMdc) { // the writer's map: by index, no iterator
            CapturedMdc captured = (CapturedMdc) mdc;
            for (int i = 0, n = captured.size(); i < n; i++) {
                start = mdcEntry(out, body, start, captured.keyAt(i), captured.valueAt(i));
            }
        } else {
            for (Map.Entry<String, String> e : mdc.entrySet()) {
                start = mdcEntry(out, body, start, e.getKey(), e.getValue());
            }
        }
        if (start >= 0 && settings.mdc != null) {
            out.append((byte) '}');
        }
    }

    /** @return where the MDC's fields start: {@code start}, or where they now start if this is the first */
    private int mdcEntry(ByteLineBuilder out, int body, int start, String key, String value) {
        if (key == null || value == null || !settings.writesMdcKey(key)) {
            return start;
        }
        if (start < 0) {
            byte[] nest = settings.mdc;
            if (nest != null) {
                comma(out, body);
                out.append(nest, 0, nest.length);
                start = out.length();
            } else {
                start = body;
            }
        }
        String name = settings.mdcFieldNames.isEmpty() ? null : settings.mdcFieldNames.get(key);
        field(out, start, name == null ? key : name, value);
        return start;
    }

    private void keyValuePairs(ByteLineBuilder out, int body, List<KeyValuePair> pairs) {
        if (pairs == null || pairs.isEmpty()) {
            return;
        }
        byte[] nest = settings.keyValuePair;
        int start = body;
        if (nest != null) { // KeyValuePairsJsonProvider opens it for any pair, written or not
            comma(out, body);
            out.append(nest, 0, nest.length);
            start = out.length();
        }
        for (int i = 0, n = pairs.size(); i < n; i++) {
            KeyValuePair p = pairs.get(i);
            if (p.key == null || p.value == null) {
                continue;
            }
            comma(out, start);
            JsonEscape.appendQuoted(out, p.key);
            out.append((byte) ':');
            Object v = p.value;
            if (v instanceof Boolean) {
                out.appendAscii((Boolean) v ? "true" : "false");
            } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
                out.appendDecimal(((Number) v).longValue());
            } else {
                JsonEscape.appendQuoted(out, v.toString()); // a String; other types only without logstash-logback-encoder
            }
        }
        if (nest != null) {
            out.append((byte) '}');
        }
    }

    /** Whether {@link #keyValuePairs} writes this value as Jackson's {@code writeObject} does. */
    static boolean nativeValue(Object v) {
        return v == null || v instanceof String || v instanceof Boolean || v instanceof Integer || v instanceof Long
                || v instanceof Short || v instanceof Byte;
    }

    private void tags(ByteLineBuilder out, int body, List<Marker> markers) {
        byte[] name = settings.tags;
        if (markers == null || name == null) {
            return;
        }
        int start = out.length();
        boolean any = false;
        comma(out, body);
        out.append(name, 0, name.length);
        for (int i = 0, n = markers.size(); i < n; i++) {
            any |= tag(out, markers.get(i), any);
        }
        if (any) {
            out.append((byte) ']');
        } else {
            out.setLength(start);
        }
    }

    /**
     * Writes the marker's name, then its references' names, depth first (a comma first when
     * {@code comma}); returns whether it wrote anything.
     */
    @SuppressWarnings("deprecation") // hasReferences/iterator: TagsJsonProvider's walk, hence its order
    private static boolean tag(ByteLineBuilder out, Marker marker, boolean comma) {
        if (marker == null) {
            return false;
        }
        if (comma) {
            out.append((byte) ',');
        }
        String name = marker.getName();
        if (name == null) {
            out.appendAscii("null"); // Jackson's writeString(null)
        } else {
            JsonEscape.appendQuoted(out, name);
        }
        if (marker.hasReferences()) {
            for (Iterator<Marker> it = marker.iterator(); it.hasNext(); ) {
                tag(out, it.next(), true);
            }
        }
        return true;
    }

    /** The context properties' fields, rendered for one second of event time. */
    private static final class ContextFields {
        final long epochSecond;
        final byte[] bytes;

        ContextFields(long epochSecond, byte[] bytes) {
            this.epochSecond = epochSecond;
            this.bytes = bytes;
        }
    }
}
