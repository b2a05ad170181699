package io.github.spool.logback;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.event.KeyValuePair;

/**
 * What Spring Boot 3.5's structured logging formats for logback share, as its
 * {@code JsonWriter} writes them with default {@code logging.structured.json.*} settings: strings
 * escaped by {@link SpringJsonEscape}, {@code null} values written as {@code null}, the context
 * pairs (MDC entries, then key-value pairs) after the fixed members, the stack trace as logback's
 * {@code %ex} ({@code ThrowableProxyConverter}, what Spring's {@code Extractor} uses without a
 * stack trace printer), and {@code \n} at the end whatever the platform.
 *
 * <p>Where Spring's {@code JsonWriter} would throw (a pair named like a member, two pairs with one
 * name), or where the value is one this class does not write as Spring does (a key-value pair
 * whose value is not a string, number or boolean; for ECS a name that nests), {@link #render}
 * returns {@code false} and the caller uses Spring's own formatter, which then does exactly what
 * it does (writes, or throws).
 *
 * <p>Allocation-free for an event with MDC entries and no key-value pairs, with an empty
 * {@code context.prefix}. Used by logging threads and the writer at once. Internal.
 */
abstract class SpringJsonLine implements JsonLine {

    static final byte[] NULL = ascii("null");

    final SpringSettings settings;
    /** Spring's {@code StructuredLogEncoder} makes its converter without a context; so does this. */
    private final ThrowableProxyConverter throwableConverter = new ThrowableProxyConverter();
    /** The member names a pair must not have (Spring's writer throws on a repeated name). */
    private final Set<String> members;

    SpringJsonLine(SpringSettings settings, Set<String> members) {
        this.settings = settings;
        this.members = members;
        throwableConverter.start();
    }

    @Override
    public void stop() {
        throwableConverter.stop();
    }

    /** @return the event's instant: a {@link CapturedEvent}'s from its two fields, without an object */
    static long epochSecond(ILoggingEvent event) {
        if (event.getClass() == CapturedEvent.class) {
            return Math.floorDiv(event.getTimeStamp(), 1000L);
        }
        return event.getInstant().getEpochSecond();
    }

    static int nanos(ILoggingEvent event) {
        if (event.getClass() == CapturedEvent.class) {
            return event.getNanoseconds();
        }
        Instant instant = event.getInstant();
        return instant.getNano();
    }

    /** {@code %ex} of the event's throwable, as Spring's {@code Extractor.stackTrace}. */
    final String stackTrace(ILoggingEvent event) {
        return throwableConverter.convert(event);
    }

    /** Writes {@code "name":} (name given with its quotes and colon) then the string or {@code null}. */
    static void string(ByteLineBuilder out, byte[] nameColon, String value) {
        out.append(nameColon, 0, nameColon.length);
        if (value == null) {
            out.append(NULL, 0, NULL.length);
        } else {
            SpringJsonEscape.appendQuoted(out, value);
        }
    }

    /** The message as Spring writes {@code getFormattedMessage()}: escaped, or {@code null}. */
    static void message(ByteLineBuilder out, byte[] nameColon, ILoggingEvent event) {
        out.append(nameColon, 0, nameColon.length);
        out.append((byte) '"');
        if (!JsonMessage.append(event, out, true)) {
            out.setLength(out.length() - 1);
            out.append(NULL, 0, NULL.length);
        } else {
            out.append((byte) '"');
        }
    }

    /**
     * Writes the context pairs: MDC entries then key-value pairs, each {@code ,"name":value}.
     *
     * @return {@code false} if Spring's writer would not write them so (see the class comment)
     */
    final boolean pairs(ILoggingEvent event, ByteLineBuilder out) {
        if (!settings.contextInclude) {
            return true;
        }
        Map<String, String> mdc = event.getMDCPropertyMap();
        List<KeyValuePair> kvps = event.getKeyValuePairs();
        boolean noKvps = kvps == null || kvps.isEmpty();
        if (noKvps && settings.contextPrefix.isEmpty() && mdc instanceof CapturedMdc) {
            return capturedPairs((CapturedMdc) mdc, out); // the writer's path: no map, no set
        }
        Set<String> names = new HashSet<>();
        if (mdc != null) {
            for (Map.Entry<String, String> e : mdc.entrySet()) {
                if (!pair(out, e.getKey(), e.getValue(), names)) {
                    return false;
                }
            }
        }
        if (!noKvps) {
            for (KeyValuePair p : kvps) {
                Object v = p.value;
                if (v != null && !(v instanceof String) && !(v instanceof Number) && !(v instanceof Boolean)) {
                    return false; // maps, iterables, arrays, WritableJson: Spring's writer structures them
                }
                if (!pair(out, p.key, v, names)) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean capturedPairs(CapturedMdc mdc, ByteLineBuilder out) {
        for (int i = 0, n = mdc.size(); i < n; i++) {
            String key = mdc.keyAt(i);
            String name = key == null ? "" : key;
            int kind = fastName(name);
            if (kind == FAIL || kind == DIFFERENT && collidesInCaptured(mdc, i, name)) {
                return false;
            }
            if (kind == SKIP) {
                continue;
            }
            out.append((byte) ',').append((byte) '"');
            if (kind == DIFFERENT) {
                out.append((byte) '_');
            }
            SpringJsonEscape.append(out, name, 0, name.length());
            out.append((byte) '"').append((byte) ':');
            value(out, mdc.valueAt(i));
        }
        return true;
    }

    /** Whether another captured key is {@code _} + {@code name}: the two would print under one name. */
    private static boolean collidesInCaptured(CapturedMdc mdc, int self, String name) {
        for (int j = 0, n = mdc.size(); j < n; j++) {
            String other = mdc.keyAt(j);
            if (j != self && other != null && other.length() == name.length() + 1 && other.charAt(0) == '_'
                    && other.regionMatches(1, name, 0, name.length())) {
                return true;
            }
        }
        return false;
    }

    private boolean pair(ByteLineBuilder out, String key, Object value, Set<String> names) {
        String name = joinedName(key == null ? "" : key);
        if (name == null || name.isEmpty()) {
            return true; // Spring skips a pair whose joined name is empty (or invalid for GELF)
        }
        if (members.contains(name) || !names.add(name) || !validName(name)) {
            return false;
        }
        out.append((byte) ',');
        SpringJsonEscape.appendQuoted(out, name);
        out.append((byte) ':');
        value(out, value);
        return true;
    }

    private static void value(ByteLineBuilder out, Object value) {
        if (value == null) {
            out.append(NULL, 0, NULL.length);
        } else if (value instanceof String) {
            SpringJsonEscape.appendQuoted(out, (String) value);
        } else {
            out.append(value.toString()); // a Number or Boolean, unquoted, as Spring writes them
        }
    }

    /** {@link #fastName}: written as the key, not written, {@code _} + the key, or not this way. */
    static final int SAME = 0;
    static final int SKIP = 1;
    static final int DIFFERENT = 2;
    static final int FAIL = 3;

    /**
     * For an empty prefix: how the pair named {@code key} prints, without building its name. A
     * subclass for which the name is the key returns {@link #SAME}, {@link #SKIP} (empty) or
     * {@link #FAIL} (a member's name, or a name this class does not write).
     */
    int fastName(String key) {
        if (key.isEmpty()) {
            return SKIP;
        }
        return members.contains(key) || !validName(key) ? FAIL : SAME;
    }

    final boolean isMember(String name) {
        return members.contains(name);
    }

    /**
     * @return the pair's name as Spring's {@code ContextPairs} joins it with the prefix, or
     *         {@code null} if it is left out
     */
    abstract String joinedName(String key);

    /** @return whether this class writes a pair of this (joined) name as Spring does */
    boolean validName(String name) {
        return true;
    }

    /** Spring's {@code ContextPairs.joinWith(delimiter)}. */
    static String joinWith(String prefix, String name, String delimiter) {
        StringBuilder joined = new StringBuilder(prefix.length() + delimiter.length() + name.length());
        joined.append(prefix);
        if (!prefix.isEmpty() && !prefix.endsWith(delimiter) && !name.startsWith(delimiter)) {
            joined.append(delimiter);
        }
        joined.append(name);
        return joined.toString();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** A fixed piece of the line (member names, settings' values) rendered once. */
    static byte[] json(String s) {
        ByteLineBuilder b = new ByteLineBuilder(64);
        SpringJsonEscape.append(b, s, 0, s.length());
        return java.util.Arrays.copyOf(b.array(), b.length());
    }
}
