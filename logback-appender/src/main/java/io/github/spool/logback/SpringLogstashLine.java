package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.spool.text.ByteLineBuilder;
import java.time.ZoneId;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Marker;

/**
 * Spring Boot 3.5's {@code LogstashStructuredLogFormatter} ({@code logstash}) for logback:
 *
 * <pre>{@code
 * {"@timestamp":"2024-01-01T11:00:00.12+01:00","@version":"1","message":"...","logger_name":"a.B",
 *  "thread_name":"main","level":"INFO","level_value":20000,<pairs>,"tags":["A"],"stack_trace":"..."}\n
 * }</pre>
 *
 * {@code @timestamp} is {@code ISO_OFFSET_DATE_TIME} in the default zone, which Spring reads per
 * event and this class when the encoder starts; pairs are named {@code prefix_name}; tags are the
 * markers' names and their references', in order, each once. Internal.
 */
final class SpringLogstashLine extends SpringJsonLine {

    private static final byte[] TIMESTAMP = ascii("{\"@timestamp\":\"");
    private static final byte[] MESSAGE = ascii("\",\"@version\":\"1\",\"message\":");
    private static final byte[] LOGGER = ascii(",\"logger_name\":");
    private static final byte[] THREAD = ascii(",\"thread_name\":");
    private static final byte[] LEVEL = ascii(",\"level\":");
    private static final byte[] LEVEL_VALUE = ascii(",\"level_value\":");
    private static final byte[] TAGS = ascii(",\"tags\":[");
    private static final byte[] STACK_TRACE = ascii(",\"stack_trace\":");

    private final IsoOffsetTimestamp timestamp;

    SpringLogstashLine(SpringSettings settings, ZoneId zone) {
        super(settings, Set.of("@timestamp", "@version", "message", "logger_name", "thread_name", "level",
                "level_value", "tags", "stack_trace"));
        this.timestamp = new IsoOffsetTimestamp(zone);
    }

    @Override
    public boolean render(ILoggingEvent event, ByteLineBuilder out) {
        out.append(TIMESTAMP, 0, TIMESTAMP.length);
        timestamp.append(out, epochSecond(event), nanos(event));
        message(out, MESSAGE, event);
        string(out, LOGGER, event.getLoggerName());
        string(out, THREAD, event.getThreadName());
        Level level = event.getLevel();
        string(out, LEVEL, level == null ? null : level.levelStr);
        out.append(LEVEL_VALUE, 0, LEVEL_VALUE.length);
        if (level == null) {
            out.append(NULL, 0, NULL.length);
        } else {
            out.appendDecimal(level.levelInt);
        }
        if (!pairs(event, out)) {
            return false;
        }
        List<Marker> markers = event.getMarkerList();
        if (markers != null && !markers.isEmpty()) {
            LinkedHashSet<String> names = new LinkedHashSet<>();
            if (!SpringEcsLine.addMarkers(names, markers.iterator())) {
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
        if (event.getThrowableProxy() != null) {
            string(out, STACK_TRACE, stackTrace(event));
        }
        out.append((byte) '}').append((byte) '\n');
        return true;
    }

    @Override
    String joinedName(String key) {
        return joinWith(settings.contextPrefix, key, "_");
    }
}
