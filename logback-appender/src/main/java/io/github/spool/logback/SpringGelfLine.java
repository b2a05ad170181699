package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.util.LevelToSyslogSeverity;
import io.github.spool.text.ByteLineBuilder;
import java.util.HashSet;
import java.util.Set;

/**
 * Spring Boot 3.5's {@code GraylogExtendedLogFormatStructuredLogFormatter} ({@code gelf}) for
 * logback:
 *
 * <pre>{@code
 * {"version":"1.1","short_message":"...","timestamp":1704103200.123,"level":6,"_level_name":"INFO",
 *  "_process_pid":42,"_process_thread_name":"main","host":"app","_service_version":"1.0",
 *  "_log_logger":"a.B",<pairs>,"full_message":"...\n\n<stack trace>","_error_type":"...",
 *  "_error_stack_trace":"...","_error_message":"..."}\n
 * }</pre>
 *
 * A blank message is {@code "(blank)"}; {@code timestamp} is the event's milliseconds as seconds
 * with three decimals; {@code level} its syslog severity; pairs are named {@code _} + prefix + name.
 * A pair whose name GELF does not allow (Spring leaves it out and logs a warning) is left to
 * Spring's formatter, so that the warning is logged as Spring logs it. Internal.
 */
final class SpringGelfLine extends SpringJsonLine {

    private static final Set<String> MEMBERS = Set.of("version", "short_message", "timestamp", "level", "_level_name",
            "_process_pid", "_process_thread_name", "host", "_service_version", "_log_logger", "full_message",
            "_error_type", "_error_stack_trace", "_error_message");
    private static final byte[] START = ascii("{\"version\":\"1.1\",\"short_message\":");
    private static final byte[] BLANK = ascii("\"(blank)\"");
    private static final byte[] TIMESTAMP = ascii(",\"timestamp\":");
    private static final byte[] LEVEL = ascii(",\"level\":");
    private static final byte[] LEVEL_NAME = ascii(",\"_level_name\":");
    private static final byte[] FULL_MESSAGE = ascii(",\"full_message\":\"");
    private static final byte[] TWO_NEW_LINES = ascii("\\n\\n");
    private static final byte[] ERROR_TYPE = ascii(",\"_error_type\":");
    private static final byte[] ERROR_STACK_TRACE = ascii(",\"_error_stack_trace\":");
    private static final byte[] ERROR_MESSAGE = ascii(",\"_error_message\":");
    /** The name before a value whose name ends a fixed piece. */
    private static final byte[] NOTHING = new byte[0];

    /** The members' names that start with {@code _}, without it: what a key without {@code _} must not be. */
    private final Set<String> underscored = new HashSet<>();
    /** {@code ,"_process_pid":N} and {@code ,"_process_thread_name":}. */
    private final byte[] pidAndThread;
    /** {@code ,"host":...,"_service_version":...,"_log_logger":}. */
    private final byte[] hostToLogger;

    SpringGelfLine(SpringSettings settings) {
        super(settings, MEMBERS);
        for (String m : MEMBERS) {
            if (m.startsWith("_")) {
                underscored.add(m.substring(1));
            }
        }
        StringBuilder p = new StringBuilder();
        if (settings.pid != null) {
            p.append(",\"_process_pid\":").append(settings.pid);
        }
        p.append(",\"_process_thread_name\":");
        this.pidAndThread = ascii(p.toString());
        ByteLineBuilder h = new ByteLineBuilder(128);
        if (SpringSettings.hasLength(settings.gelfHost)) {
            h.appendAscii(",\"host\":");
            SpringJsonEscape.appendQuoted(h, settings.gelfHost);
        }
        if (SpringSettings.hasLength(settings.gelfServiceVersion)) {
            h.appendAscii(",\"_service_version\":");
            SpringJsonEscape.appendQuoted(h, settings.gelfServiceVersion);
        }
        h.appendAscii(",\"_log_logger\":");
        this.hostToLogger = java.util.Arrays.copyOf(h.array(), h.length());
    }

    @Override
    public boolean render(ILoggingEvent event, ByteLineBuilder out) {
        out.append(START, 0, START.length);
        boolean hasMessage;
        if (JsonMessage.hasText(event)) {
            hasMessage = true;
            out.append((byte) '"');
            JsonMessage.append(event, out, true);
            out.append((byte) '"');
        } else {
            int at = out.length();
            out.append((byte) '"');
            hasMessage = JsonMessage.append(event, out, true); // only to know whether there is one
            out.setLength(at);
            if (hasMessage) {
                out.append(BLANK, 0, BLANK.length);
            } else {
                out.append(NULL, 0, NULL.length);
            }
        }
        out.append(TIMESTAMP, 0, TIMESTAMP.length);
        seconds(out, event.getTimeStamp());
        Level level = event.getLevel();
        out.append(LEVEL, 0, LEVEL.length).appendDecimal(LevelToSyslogSeverity.convert(event));
        string(out, LEVEL_NAME, level == null ? null : level.levelStr);
        out.append(pidAndThread, 0, pidAndThread.length);
        string(out, NOTHING, event.getThreadName());
        out.append(hostToLogger, 0, hostToLogger.length);
        string(out, NOTHING, event.getLoggerName());
        if (!pairs(event, out)) {
            return false;
        }
        IThrowableProxy proxy = event.getThrowableProxy();
        if (proxy != null) {
            String stackTrace = stackTrace(event);
            out.append(FULL_MESSAGE, 0, FULL_MESSAGE.length);
            if (!hasMessage || !JsonMessage.append(event, out, true)) {
                out.appendAscii("null"); // String concatenation of a null message
            }
            out.append(TWO_NEW_LINES, 0, TWO_NEW_LINES.length);
            SpringJsonEscape.append(out, stackTrace, 0, stackTrace.length());
            out.append((byte) '"');
            string(out, ERROR_TYPE, proxy.getClassName());
            string(out, ERROR_STACK_TRACE, stackTrace);
            string(out, ERROR_MESSAGE, proxy.getMessage());
        }
        out.append((byte) '}').append((byte) '\n');
        return true;
    }

    /** {@code new BigDecimal(millis).movePointLeft(3).toPlainString()}. */
    private static void seconds(ByteLineBuilder out, long millis) {
        if (millis < 0) {
            out.append((byte) '-');
            millis = -millis; // Long.MIN_VALUE is no event's time
        }
        out.appendDecimal(millis / 1000).append((byte) '.');
        int ms = (int) (millis % 1000);
        out.append((byte) ('0' + ms / 100)).append((byte) ('0' + ms / 10 % 10)).append((byte) ('0' + ms % 10));
    }

    @Override
    int fastName(String key) {
        if (!validChars(key) || key.equals("id") || key.equals("_id")) {
            return FAIL;
        }
        if (key.startsWith("_")) {
            return isMember(key) ? FAIL : SAME;
        }
        return underscored.contains(key) ? FAIL : DIFFERENT;
    }

    /** Spring's {@code additionalFieldJoiner}: prefix + name, {@code _} first; invalid names left to Spring. */
    @Override
    String joinedName(String key) {
        String name = settings.contextPrefix + key;
        return name.startsWith("_") ? name : "_" + name;
    }

    @Override
    boolean validName(String name) {
        return validChars(name) && !name.equals("_id");
    }

    /** {@code ^[\w.\-]*$}: ASCII letters, digits, {@code _ . -}. */
    private static boolean validChars(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
                    || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
