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

    private static final byte[] VERSION = ascii("\"1\"");

    private final IsoOffsetTimestamp timestamp;
    /** The members' {@code "name":}, {@code null} if left out ({@link SpringMemberNames}). */
    private final byte[] timestampName;
    private final byte[] versionName;
    private final byte[] messageName;
    private final byte[] loggerName;
    private final byte[] threadName;
    private final byte[] levelName;
    private final byte[] levelValueName;
    private final byte[] tagsName;
    private final byte[] stackTraceName;

    SpringLogstashLine(SpringSettings settings, ZoneId zone) {
        super(settings, Set.of("@timestamp", "@version", "message", "logger_name", "thread_name", "level",
                "level_value", "tags", "stack_trace"), false);
        this.timestamp = new IsoOffsetTimestamp(zone);
        this.timestampName = name("@timestamp", "@timestamp");
        this.versionName = name("@version", "@version");
        this.messageName = name("message", "message");
        this.loggerName = name("logger_name", "logger_name");
        this.threadName = name("thread_name", "thread_name");
        this.levelName = name("level", "level");
        this.levelValueName = name("level_value", "level_value");
        this.tagsName = name("tags", "tags");
        this.stackTraceName = name("stack_trace", "stack_trace");
    }

    @Override
    public boolean render(ILoggingEvent event, ByteLineBuilder out) {
        out.append((byte) '{');
        if (member(out, timestampName)) {
            out.append((byte) '"');
            timestamp.append(out, epochSecond(event), nanos(event));
            out.append((byte) '"');
        }
        if (member(out, versionName)) {
            out.append(VERSION, 0, VERSION.length);
        }
        if (member(out, messageName)) {
            message(out, NOTHING, event);
        }
        if (member(out, loggerName)) {
            string(out, NOTHING, event.getLoggerName());
        }
        if (member(out, threadName)) {
            string(out, NOTHING, event.getThreadName());
        }
        Level level = event.getLevel();
        if (member(out, levelName)) {
            string(out, NOTHING, level == null ? null : level.levelStr);
        }
        if (member(out, levelValueName)) {
            if (level == null) {
                out.append(NULL, 0, NULL.length);
            } else {
                out.appendDecimal(level.levelInt);
            }
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
            if (!names.isEmpty() && member(out, tagsName)) {
                tags(out, names);
            }
        }
        if (event.getThrowableProxy() != null && member(out, stackTraceName)) {
            string(out, NOTHING, stackTrace(event));
        }
        adds(out);
        out.append((byte) '}').append((byte) '\n');
        return true;
    }

    @Override
    String joinedName(String key) {
        return joinWith(settings.contextPrefix, key, "_");
    }
}
