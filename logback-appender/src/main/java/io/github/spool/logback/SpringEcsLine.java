package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import io.github.spool.text.ByteLineBuilder;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Marker;

/**
 * Spring Boot 3.5's {@code ElasticCommonSchemaStructuredLogFormatter} ({@code ecs}) for logback:
 *
 * <pre>{@code
 * {"@timestamp":"2024-01-01T10:00:00.123Z","log":{"level":"INFO","logger":"a.B"},
 *  "process":{"pid":42,"thread":{"name":"main"}},"service":{"name":"app","node":{}},
 *  "message":"...",<pairs>,"error":{"type":"...","message":"...","stack_trace":"..."},
 *  "tags":["A","B"],"ecs":{"version":"8.11"}}\n
 * }</pre>
 *
 * {@code @timestamp} is {@code Instant.toString()} (UTC, 0/3/6/9 fraction digits); pairs are nested
 * by Spring at dots in their names, which this class leaves to Spring ({@link #validName}); tags
 * are the markers' names and their references', sorted. Internal.
 */
final class SpringEcsLine extends SpringJsonLine {

    private static final byte[] TIMESTAMP = ascii("{\"@timestamp\":\"");
    private static final byte[] LEVEL = ascii("\",\"log\":{\"level\":");
    private static final byte[] LOGGER = ascii(",\"logger\":");
    private static final byte[] THREAD = ascii("\"thread\":{\"name\":");
    private static final byte[] MESSAGE = ascii(",\"message\":");
    private static final byte[] ERROR_TYPE = ascii(",\"error\":{\"type\":");
    private static final byte[] ERROR_MESSAGE = ascii(",\"message\":");
    private static final byte[] STACK_TRACE = ascii(",\"stack_trace\":");
    private static final byte[] TAGS = ascii(",\"tags\":[");
    private static final byte[] END = ascii(",\"ecs\":{\"version\":\"8.11\"}}\n");

    private final UtcInstantText timestamp = new UtcInstantText();
    /** {@code },"process":{"pid":N,} — up to the thread's name. */
    private final byte[] process;
    /** {@code }},"service":{...}} — from the end of the thread's name up to the message. */
    private final byte[] service;

    SpringEcsLine(SpringSettings settings) {
        super(settings, Set.of("@timestamp", "log", "process", "service", "message", "error", "tags", "ecs"));
        StringBuilder p = new StringBuilder("},\"process\":{");
        if (settings.pid != null) {
            p.append("\"pid\":").append(settings.pid).append(',');
        }
        this.process = ascii(p.toString());
        ByteLineBuilder s = new ByteLineBuilder(128);
        s.appendAscii("}},\"service\":{");
        member(s, "name", settings.ecsServiceName);
        member(s, "version", settings.ecsServiceVersion);
        member(s, "environment", settings.ecsServiceEnvironment);
        s.appendAscii("\"node\":{");
        if (SpringSettings.hasLength(settings.ecsServiceNodeName)) {
            s.appendAscii("\"name\":");
            SpringJsonEscape.appendQuoted(s, settings.ecsServiceNodeName);
        }
        s.appendAscii("}}");
        this.service = java.util.Arrays.copyOf(s.array(), s.length());
    }

    private static void member(ByteLineBuilder s, String name, String value) {
        if (SpringSettings.hasLength(value)) {
            s.append((byte) '"').appendAscii(name).append((byte) '"').append((byte) ':');
            SpringJsonEscape.appendQuoted(s, value);
            s.append((byte) ',');
        }
    }

    @Override
    public boolean render(ILoggingEvent event, ByteLineBuilder out) {
        out.append(TIMESTAMP, 0, TIMESTAMP.length);
        timestamp.append(out, epochSecond(event), nanos(event));
        Level level = event.getLevel();
        string(out, LEVEL, level == null ? null : level.levelStr);
        string(out, LOGGER, event.getLoggerName());
        out.append(process, 0, process.length);
        string(out, THREAD, event.getThreadName());
        out.append(service, 0, service.length);
        message(out, MESSAGE, event);
        if (!pairs(event, out)) {
            return false;
        }
        IThrowableProxy proxy = event.getThrowableProxy();
        if (proxy != null) {
            string(out, ERROR_TYPE, proxy.getClassName());
            string(out, ERROR_MESSAGE, proxy.getMessage());
            string(out, STACK_TRACE, stackTrace(event));
            out.append((byte) '}');
        }
        List<Marker> markers = event.getMarkerList();
        if (markers != null && !markers.isEmpty()) {
            TreeSet<String> names = new TreeSet<>();
            if (!addMarkers(names, markers.iterator())) {
                return false;
            }
            if (!names.isEmpty()) {
                out.append(TAGS, 0, TAGS.length);
                boolean first = true;
                for (String name : names) {
                    if (!first) {
                        out.append((byte) ',');
                    }
                    first = false;
                    SpringJsonEscape.appendQuoted(out, name);
                }
                out.append((byte) ']');
            }
        }
        out.append(END, 0, END.length);
        return true;
    }

    /** Spring's {@code addMarkers}: names depth first; a {@code null} name is left to Spring (it throws). */
    @SuppressWarnings("deprecation") // hasReferences/iterator: Spring's walk
    static boolean addMarkers(Set<String> names, Iterator<Marker> it) {
        while (it.hasNext()) {
            Marker marker = it.next();
            if (marker.getName() == null) {
                return false;
            }
            names.add(marker.getName());
            if (marker.hasReferences() && !addMarkers(names, marker.iterator())) {
                return false;
            }
        }
        return true;
    }

    @Override
    String joinedName(String key) {
        return joinWith(settings.contextPrefix, key, ".");
    }

    /** A name with a dot nests in Spring's output ({@code ContextPairs.nested}): left to Spring. */
    @Override
    boolean validName(String name) {
        return name.indexOf('.') < 0;
    }
}
