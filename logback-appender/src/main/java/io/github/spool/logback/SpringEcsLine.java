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

    private static final byte[] ECS_VERSION = ascii("\"8.11\"");

    private final UtcInstantText timestamp = new UtcInstantText();
    private final Long pid;
    /** The members' {@code "name":}, {@code null} if left out ({@link SpringMemberNames}) or empty. */
    private final byte[] timestampName;
    private final byte[] logName;
    private final byte[] levelName;
    private final byte[] loggerName;
    private final byte[] processName;
    private final byte[] pidName;
    private final byte[] threadName;
    private final byte[] threadNameName;
    private final byte[] serviceName;
    /** {@code service}'s members up to {@code node}'s, rendered once: {@code "name":"app","version":"1"}. */
    private final byte[] serviceValues;
    private final byte[] nodeName;
    private final byte[] nodeValues;
    private final byte[] messageName;
    private final byte[] errorName;
    private final byte[] errorTypeName;
    private final byte[] errorMessageName;
    private final byte[] stackTraceName;
    private final byte[] tagsName;
    private final byte[] ecsName;
    private final byte[] ecsVersionName;

    SpringEcsLine(SpringSettings settings) {
        super(settings, Set.of("@timestamp", "log", "process", "service", "message", "error", "tags", "ecs"), true);
        this.pid = settings.pid;
        this.timestampName = name("@timestamp", "@timestamp");
        this.logName = name("log", "log");
        this.levelName = name("log.level", "level");
        this.loggerName = name("log.logger", "logger");
        this.processName = name("process", "process");
        this.pidName = pid == null ? null : name("process.pid", "pid");
        this.threadName = name("process.thread", "thread");
        this.threadNameName = name("process.thread.name", "name");
        this.serviceName = name("service", "service");
        ByteLineBuilder s = new ByteLineBuilder(128);
        constant(s, "service.name", "name", settings.ecsServiceName);
        constant(s, "service.version", "version", settings.ecsServiceVersion);
        constant(s, "service.environment", "environment", settings.ecsServiceEnvironment);
        this.serviceValues = java.util.Arrays.copyOf(s.array(), s.length());
        this.nodeName = name("service.node", "node");
        ByteLineBuilder n = new ByteLineBuilder(64);
        constant(n, "service.node.name", "name", settings.ecsServiceNodeName);
        this.nodeValues = java.util.Arrays.copyOf(n.array(), n.length());
        this.messageName = name("message", "message");
        this.errorName = name("error", "error");
        this.errorTypeName = name("error.type", "type");
        this.errorMessageName = name("error.message", "message");
        this.stackTraceName = name("error.stack_trace", "stack_trace");
        this.tagsName = name("tags", "tags");
        this.ecsName = name("ecs", "ecs");
        this.ecsVersionName = name("ecs.version", "version");
    }

    /** A member Spring writes {@code whenHasLength}, rendered once with the comma before all but the first. */
    private void constant(ByteLineBuilder s, String path, String name, String value) {
        if (SpringSettings.hasLength(value)) {
            byte[] n = name(path, name);
            if (n != null) {
                if (s.length() > 0) {
                    s.append((byte) ',');
                }
                s.append(n, 0, n.length);
                SpringJsonEscape.appendQuoted(s, value);
            }
        }
    }

    @Override
    public boolean render(ILoggingEvent event, ByteLineBuilder out) {
        out.append((byte) '{');
        if (member(out, timestampName)) {
            out.append((byte) '"');
            timestamp.append(out, epochSecond(event), nanos(event));
            out.append((byte) '"');
        }
        if (member(out, logName)) {
            out.append((byte) '{');
            Level level = event.getLevel();
            if (member(out, levelName)) {
                string(out, NOTHING, level == null ? null : level.levelStr);
            }
            if (member(out, loggerName)) {
                string(out, NOTHING, event.getLoggerName());
            }
            out.append((byte) '}');
        }
        if (member(out, processName)) {
            out.append((byte) '{');
            if (member(out, pidName)) {
                out.appendDecimal(pid);
            }
            if (member(out, threadName)) {
                out.append((byte) '{');
                if (member(out, threadNameName)) {
                    string(out, NOTHING, event.getThreadName());
                }
                out.append((byte) '}');
            }
            out.append((byte) '}');
        }
        if (member(out, serviceName)) {
            out.append((byte) '{').append(serviceValues, 0, serviceValues.length);
            if (member(out, nodeName)) {
                out.append((byte) '{').append(nodeValues, 0, nodeValues.length).append((byte) '}');
            }
            out.append((byte) '}');
        }
        if (member(out, messageName)) {
            message(out, NOTHING, event);
        }
        if (!pairs(event, out)) {
            return false;
        }
        IThrowableProxy proxy = event.getThrowableProxy();
        if (proxy != null && member(out, errorName)) {
            out.append((byte) '{');
            if (member(out, errorTypeName)) {
                string(out, NOTHING, proxy.getClassName());
            }
            if (member(out, errorMessageName)) {
                string(out, NOTHING, proxy.getMessage());
            }
            if (member(out, stackTraceName)) {
                string(out, NOTHING, stackTrace(event));
            }
            out.append((byte) '}');
        }
        List<Marker> markers = event.getMarkerList();
        if (markers != null && !markers.isEmpty()) {
            TreeSet<String> names = new TreeSet<>();
            if (!addMarkers(names, markers.iterator())) {
                return false;
            }
            if (!names.isEmpty() && member(out, tagsName)) {
                tags(out, names);
            }
        }
        if (member(out, ecsName)) {
            out.append((byte) '{');
            if (member(out, ecsVersionName)) {
                out.append(ECS_VERSION, 0, ECS_VERSION.length);
            }
            out.append((byte) '}');
        }
        adds(out);
        out.append((byte) '}').append((byte) '\n');
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
