package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.pattern.ExtendedThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Context;
import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;

/**
 * One event as logstash-logback-encoder 8.1's {@code LogstashEncoder} with its default settings
 * writes it, in the order of its {@code LogstashFormatter}'s providers:
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
 * are escaped by {@link JsonEscape}.
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

    private static final byte[] VERSION_AND_MESSAGE = ascii("\",\"@version\":\"1\",\"message\":\"");
    private static final byte[] VERSION = ascii("\",\"@version\":\"1\"");
    private static final byte[] LOGGER_NAME = ascii(",\"logger_name\":\"");
    private static final byte[] THREAD_NAME = ascii(",\"thread_name\":\"");
    private static final byte[] LEVEL = ascii(",\"level\":\"");
    private static final byte[] LEVEL_VALUE = ascii("\",\"level_value\":");
    private static final byte[] STACK_TRACE = ascii(",\"stack_trace\":\"");
    private static final byte[] TAGS = ascii(",\"tags\":[");
    private static final byte[] TIMESTAMP = ascii("{\"@timestamp\":\"");

    private final Context context;
    private final IsoOffsetTimestamp timestamp;
    private final ExtendedThrowableProxyConverter throwableConverter = new ExtendedThrowableProxyConverter();
    private final byte[] lineSeparator;

    /**
     * The context's properties as rendered fields, for one second of event time: logback sets them
     * while it configures, so reading them once a second keeps the line allocation-free and still
     * shows a property put later within a second. Volatile for safe publication of the immutable
     * value (acquire on read, release on write; a race renders the same value twice).
     */
    private volatile ContextFields contextFields;

    /**
     * @param context the logback context (its properties are printed), may be {@code null}
     * @param zone    the zone of {@code @timestamp}
     */
    LogstashJsonLine(Context context, ZoneId zone) {
        this.context = context;
        this.timestamp = new IsoOffsetTimestamp(zone);
        this.lineSeparator = System.lineSeparator().getBytes(StandardCharsets.UTF_8);
        throwableConverter.setContext(context);
        throwableConverter.start();
    }

    @Override
    public void stop() {
        throwableConverter.stop();
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
        out.append(TIMESTAMP, 0, TIMESTAMP.length);
        timestamp.append(out, epochSecond, nanos);
        int beforeMessage = out.length();
        out.append(VERSION_AND_MESSAGE, 0, VERSION_AND_MESSAGE.length);
        if (JsonMessage.append(event, out)) {
            out.append((byte) '"');
        } else {
            out.setLength(beforeMessage);
            out.append(VERSION, 0, VERSION.length);
        }
        stringField(out, LOGGER_NAME, event.getLoggerName());
        stringField(out, THREAD_NAME, event.getThreadName());
        Level level = event.getLevel();
        out.append(LEVEL, 0, LEVEL.length).appendAscii(level.levelStr);
        out.append(LEVEL_VALUE, 0, LEVEL_VALUE.length).appendDecimal(level.levelInt);
        if (event.getThrowableProxy() != null) {
            stringField(out, STACK_TRACE, throwableConverter.convert(event));
        }
        byte[] props = contextFields(epochSecond);
        out.append(props, 0, props.length);
        mdc(out, event.getMDCPropertyMap());
        keyValuePairs(out, event.getKeyValuePairs());
        tags(out, event.getMarkerList());
        out.append((byte) '}');
        out.append(lineSeparator, 0, lineSeparator.length);
        return true;
    }

    private static void stringField(ByteLineBuilder out, byte[] nameColonQuote, String value) {
        if (value != null) {
            out.append(nameColonQuote, 0, nameColonQuote.length);
            JsonEscape.append(out, value, 0, value.length());
            out.append((byte) '"');
        }
    }

    /** {@code ,"key":"value"}: a field after the first, as Jackson writes a string field. */
    private static void field(ByteLineBuilder out, String key, String value) {
        out.append((byte) ',');
        JsonEscape.appendQuoted(out, key);
        out.append((byte) ':');
        JsonEscape.appendQuoted(out, value);
    }

    private byte[] contextFields(long epochSecond) {
        ContextFields c = contextFields;
        if (c == null || c.epochSecond != epochSecond) {
            ByteLineBuilder b = new ByteLineBuilder(64);
            if (context != null) {
                for (Map.Entry<String, String> e : context.getCopyOfPropertyMap().entrySet()) {
                    if (e.getKey() != null && e.getValue() != null) {
                        field(b, e.getKey(), e.getValue());
                    }
                }
            }
            c = new ContextFields(epochSecond, java.util.Arrays.copyOf(b.array(), b.length()));
            contextFields = c;
        }
        return c.bytes;
    }

    private static void mdc(ByteLineBuilder out, Map<String, String> mdc) {
        if (mdc == null || mdc.isEmpty()) {
            return;
        }
        if (mdc instanceof CapturedMdc) { // the writer's map: by index, no iterator
            CapturedMdc captured = (CapturedMdc) mdc;
            for (int i = 0, n = captured.size(); i < n; i++) {
                String key = captured.keyAt(i);
                String value = captured.valueAt(i);
                if (key != null && value != null) {
                    field(out, key, value);
                }
            }
            return;
        }
        for (Map.Entry<String, String> e : mdc.entrySet()) {
            if (e.getKey() != null && e.getValue() != null) {
                field(out, e.getKey(), e.getValue());
            }
        }
    }

    private static void keyValuePairs(ByteLineBuilder out, List<KeyValuePair> pairs) {
        if (pairs == null) {
            return;
        }
        for (int i = 0, n = pairs.size(); i < n; i++) {
            KeyValuePair p = pairs.get(i);
            if (p.key == null || p.value == null) {
                continue;
            }
            out.append((byte) ',');
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
    }

    /** Whether {@link #keyValuePairs} writes this value as Jackson's {@code writeObject} does. */
    static boolean nativeValue(Object v) {
        return v == null || v instanceof String || v instanceof Boolean || v instanceof Integer || v instanceof Long
                || v instanceof Short || v instanceof Byte;
    }

    private static void tags(ByteLineBuilder out, List<Marker> markers) {
        if (markers == null) {
            return;
        }
        int start = out.length();
        boolean any = false;
        out.append(TAGS, 0, TAGS.length);
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

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
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
