package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.LoggerContextVO;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import ch.qos.logback.core.Context;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;

/**
 * One event as logback 1.5's own {@code ch.qos.logback.classic.encoder.JsonEncoder} writes it, with
 * its {@code with*} settings, member by member in its order: {@code sequenceNumber},
 * {@code timestamp}, {@code nanoseconds}, {@code level}, {@code threadName}, {@code loggerName},
 * {@code context} (name, birth date, properties), {@code markers}, {@code mdc}, {@code kvpList},
 * {@code message} (the pattern, not formatted), {@code formattedMessage}, {@code arguments},
 * {@code throwable} (class, message, stack trace elements, common frames, cause, suppressed), then
 * {@code \n}. Its quirks are kept: {@code level}, {@code loggerName}, the context's name and class,
 * method and file names are not escaped; {@code null} is {@code "null"} in quotes where it passes
 * through {@code jsonEscape}; a space after the colon of {@code markers}, {@code mdc},
 * {@code kvpList} and {@code arguments}; a comma before {@code context} even when nothing precedes
 * it. Strings are escaped by {@link LogbackJsonEscape}.
 *
 * <p>A {@link CapturedEvent} has no context of its own: the writer prints the encoder's context's
 * current view, which {@link SpoolJsonEncoder#capturable} made sure the event carried when it was
 * captured (a property put between the capture and the writer's render is a race the writer can
 * lose). Allocation-free on the writer for events whose arguments are strings and integral numbers
 * or booleans, without {@code withFormattedMessage}. Internal.
 */
final class LogbackJsonLine implements JsonLine {

    /** Which members are written: logback's {@code JsonEncoder} settings. */
    static final class Settings {
        boolean sequenceNumber = true;
        boolean timestamp = true;
        boolean nanoseconds = true;
        boolean level = true;
        boolean threadName = true;
        boolean loggerName = true;
        boolean context = true;
        boolean markers = true;
        boolean mdc = true;
        boolean kvpList = true;
        boolean message = true;
        boolean arguments = true;
        boolean throwable = true;
        boolean formattedMessage;
    }

    private static final byte[] NULL_QUOTED = ascii("\"null\"");

    private final Settings with;
    private final LoggerContext context;
    /** The context view last rendered and its bytes; volatile for safe publication of the pair. */
    private volatile ContextBytes contextBytes;

    LogbackJsonLine(Settings with, Context context) {
        this.with = with;
        this.context = context instanceof LoggerContext ? (LoggerContext) context : null;
    }

    /** @return the view the writer prints for a captured event, {@code null} if none */
    LoggerContextVO contextView() {
        return context == null ? null : context.getLoggerContextRemoteView();
    }

    @Override
    public void stop() {
        // nothing held
    }

    @Override
    public boolean render(ILoggingEvent event, ByteLineBuilder out) {
        Settings w = with;
        out.append((byte) '{');
        if (w.sequenceNumber) {
            out.appendAscii("\"sequenceNumber\":").appendDecimal(event.getSequenceNumber());
        }
        if (w.timestamp) {
            separator(out, w.sequenceNumber);
            out.appendAscii("\"timestamp\":").appendDecimal(event.getTimeStamp());
        }
        if (w.nanoseconds) {
            separator(out, w.sequenceNumber || w.timestamp);
            out.appendAscii("\"nanoseconds\":").appendDecimal(event.getNanoseconds());
        }
        if (w.level) {
            separator(out, w.nanoseconds || w.sequenceNumber || w.timestamp);
            Level level = event.getLevel();
            raw(out, "level", level != null ? level.levelStr : "null");
        }
        if (w.threadName) {
            separator(out, w.level || w.nanoseconds || w.sequenceNumber || w.timestamp);
            escaped(out, "threadName", event.getThreadName());
        }
        if (w.loggerName) {
            separator(out, w.threadName || w.level || w.nanoseconds || w.sequenceNumber || w.timestamp);
            raw(out, "loggerName", event.getLoggerName());
        }
        if (w.context) {
            out.append((byte) ','); // logback's "at this stage we assume that at least one field was written"
            LoggerContextVO vo = event.getClass() == CapturedEvent.class ? contextView() : event.getLoggerContextVO();
            byte[] b = context(vo);
            out.append(b, 0, b.length);
        }
        if (w.markers) {
            markers(out, event.getMarkerList());
        }
        if (w.mdc) {
            mdc(out, event.getMDCPropertyMap());
        }
        if (w.kvpList) {
            kvps(out, event.getKeyValuePairs());
        }
        if (w.message) {
            out.append((byte) ',');
            escaped(out, "message", event.getMessage());
        }
        if (w.formattedMessage) {
            out.append((byte) ',');
            escaped(out, "formattedMessage", event.getFormattedMessage());
        }
        if (w.arguments) {
            arguments(out, event);
        }
        if (w.throwable) {
            throwable(out, "throwable", event.getThrowableProxy(), true);
        }
        out.append((byte) '}').append((byte) '\n');
        return true;
    }

    private static void separator(ByteLineBuilder out, boolean any) {
        if (any) {
            out.append((byte) ',');
        }
    }

    /** {@code "key":"value"} with the value as is ({@code appenderMember} without {@code jsonEscape}). */
    private static void raw(ByteLineBuilder out, String key, String value) {
        out.append((byte) '"').appendAscii(key).appendAscii("\":\"");
        out.append(value == null ? "null" : value); // StringBuilder.append(null) prints "null"
        out.append((byte) '"');
    }

    private static void escaped(ByteLineBuilder out, String key, String value) {
        out.append((byte) '"').appendAscii(key).appendAscii("\":");
        quoted(out, value);
    }

    /** {@code jsonEscape}/{@code jsonEscapedToString} in quotes: {@code "null"} for null. */
    private static void quoted(ByteLineBuilder out, String value) {
        if (value == null) {
            out.append(NULL_QUOTED, 0, NULL_QUOTED.length);
        } else {
            out.append((byte) '"');
            LogbackJsonEscape.append(out, value, 0, value.length());
            out.append((byte) '"');
        }
    }

    private static void member(ByteLineBuilder out, String key, String value) {
        quoted(out, key);
        out.append((byte) ':');
        quoted(out, value);
    }

    private byte[] context(LoggerContextVO vo) {
        ContextBytes c = contextBytes;
        if (c == null || c.view != vo) {
            ByteLineBuilder b = new ByteLineBuilder(128);
            b.appendAscii("\"context\":");
            if (vo == null) {
                b.appendAscii("null");
            } else {
                b.append((byte) '{');
                raw(b, "name", vo.getName());
                b.appendAscii(",\"birthdate\":").appendDecimal(vo.getBirthTime());
                b.appendAscii(",\"properties\":");
                Map<String, String> map = vo.getPropertyMap();
                if (map == null) {
                    b.appendAscii("null");
                } else {
                    b.append((byte) '{');
                    boolean comma = false;
                    for (Map.Entry<String, String> e : map.entrySet()) {
                        if (comma) {
                            b.append((byte) ',');
                        }
                        comma = true;
                        member(b, e.getKey(), e.getValue());
                    }
                    b.append((byte) '}');
                }
                b.append((byte) '}');
            }
            c = new ContextBytes(vo, Arrays.copyOf(b.array(), b.length()));
            contextBytes = c;
        }
        return c.bytes;
    }

    private static void markers(ByteLineBuilder out, List<Marker> markers) {
        if (markers == null) {
            return;
        }
        out.appendAscii(",\"markers\": [");
        for (int i = 0, n = markers.size(); i < n; i++) {
            if (i != 0) {
                out.append((byte) ',');
            }
            Marker m = markers.get(i);
            quoted(out, m == null ? null : m.toString());
        }
        out.append((byte) ']');
    }

    private static void mdc(ByteLineBuilder out, Map<String, String> mdc) {
        out.appendAscii(",\"mdc\": {");
        if (mdc != null && !mdc.isEmpty()) {
            if (mdc instanceof CapturedMdc) { // the writer's map: by index, no iterator
                CapturedMdc captured = (CapturedMdc) mdc;
                for (int i = 0, n = captured.size(); i < n; i++) {
                    if (i != 0) {
                        out.append((byte) ',');
                    }
                    member(out, captured.keyAt(i), captured.valueAt(i));
                }
            } else {
                int i = 0;
                for (Map.Entry<String, String> e : mdc.entrySet()) {
                    if (i++ != 0) {
                        out.append((byte) ',');
                    }
                    member(out, e.getKey(), e.getValue());
                }
            }
        }
        out.append((byte) '}');
    }

    private static void kvps(ByteLineBuilder out, List<KeyValuePair> kvps) {
        if (kvps == null || kvps.isEmpty()) {
            return;
        }
        out.appendAscii(",\"kvpList\": [");
        for (int i = 0, n = kvps.size(); i < n; i++) {
            if (i != 0) {
                out.append((byte) ',');
            }
            KeyValuePair p = kvps.get(i);
            out.append((byte) '{');
            member(out, p.key, p.value == null ? null : p.value.toString());
            out.append((byte) '}');
        }
        out.append((byte) ']');
    }

    private static void arguments(ByteLineBuilder out, ILoggingEvent event) {
        CapturedEvent captured = event.getClass() == CapturedEvent.class ? (CapturedEvent) event : null;
        if (captured != null && captured.argumentCount() < 0 || captured == null && event.getArgumentArray() == null) {
            return;
        }
        out.appendAscii(",\"arguments\": [");
        int n = captured != null ? captured.argumentCount() : event.getArgumentArray().length;
        Object[] args = captured != null ? null : event.getArgumentArray();
        for (int i = 0; i < n; i++) {
            if (i != 0) {
                out.append((byte) ',');
            }
            if (captured != null) {
                byte type = captured.argumentType(i);
                if (!RecordCodec.isPrimitive(type)) {
                    quoted(out, captured.argumentString(i));
                } else if (type == RecordCodec.BOOLEAN) {
                    out.appendAscii(captured.argumentBits(i) != 0 ? "\"true\"" : "\"false\"");
                } else if (type == RecordCodec.INT || type == RecordCodec.LONG || type == RecordCodec.SHORT
                        || type == RecordCodec.BYTE) {
                    out.append((byte) '"').appendDecimal(captured.argumentBits(i)).append((byte) '"');
                } else {
                    quoted(out, String.valueOf(RecordCodec.box(type, captured.argumentBits(i)))); // double, float, char
                }
            } else {
                quoted(out, args[i] == null ? null : args[i].toString());
            }
        }
        out.append((byte) ']');
    }

    private static void throwable(ByteLineBuilder out, String name, IThrowableProxy itp, boolean separator) {
        if (separator) {
            out.append((byte) ',');
        }
        if (name != null) {
            out.append((byte) '"').appendAscii(name).appendAscii("\":");
            if (itp == null) {
                out.appendAscii("null");
                return;
            }
        }
        out.append((byte) '{');
        raw(out, "className", itp.getClassName());
        out.append((byte) ',');
        escaped(out, "message", itp.getMessage());
        if (itp.isCyclic()) {
            out.appendAscii(",\"cyclic\":\"true\"");
        }
        out.append((byte) ',');
        steps(out, itp.getStackTraceElementProxyArray(), itp.getCommonFrames());
        if (itp.getCommonFrames() != 0) {
            out.appendAscii(",\"commonFramesCount\":").appendDecimal(itp.getCommonFrames());
        }
        IThrowableProxy cause = itp.getCause();
        if (cause != null) {
            throwable(out, "cause", cause, true);
        }
        IThrowableProxy[] suppressed = itp.getSuppressed();
        if (suppressed != null && suppressed.length != 0) {
            out.appendAscii(",\"suppressed\":[");
            boolean first = true;
            for (IThrowableProxy s : suppressed) {
                throwable(out, null, s, !first);
                first = false;
            }
            out.append((byte) ']');
        }
        out.append((byte) '}');
    }

    private static void steps(ByteLineBuilder out, StackTraceElementProxy[] steps, int commonFrames) {
        out.appendAscii("\"stepArray\":[");
        if (steps == null || steps.length == 0) {
            out.append((byte) ']');
            return;
        }
        int len = steps.length;
        if (commonFrames >= len) {
            commonFrames = 0;
        }
        for (int i = 0; i < len - commonFrames; i++) {
            if (i != 0) {
                out.append((byte) ',');
            }
            StackTraceElement ste = steps[i].getStackTraceElement();
            out.append((byte) '{');
            raw(out, "className", ste.getClassName());
            out.append((byte) ',');
            raw(out, "methodName", ste.getMethodName());
            out.append((byte) ',');
            raw(out, "fileName", ste.getFileName());
            out.appendAscii(",\"lineNumber\":").appendDecimal(ste.getLineNumber());
            out.append((byte) '}');
        }
        out.append((byte) ']');
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** A context view and its rendered {@code "context":...}. */
    private static final class ContextBytes {
        final LoggerContextVO view;
        final byte[] bytes;

        ContextBytes(LoggerContextVO view, byte[] bytes) {
            this.view = view;
            this.bytes = bytes;
        }
    }
}
