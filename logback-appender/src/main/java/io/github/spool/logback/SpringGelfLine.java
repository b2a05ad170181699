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
    private static final byte[] VERSION = ascii("\"1.1\"");
    private static final byte[] BLANK = ascii("\"(blank)\"");
    private static final byte[] TWO_NEW_LINES = ascii("\\n\\n");

    /** The written members' names that start with {@code _}, without it: what a key without {@code _} must not be. */
    private final Set<String> underscored = new HashSet<>();
    private final Long pid;
    /** The members' {@code "name":}, {@code null} if left out ({@link SpringMemberNames}) or empty. */
    private final byte[] versionName;
    private final byte[] shortMessageName;
    private final byte[] timestampName;
    private final byte[] levelName;
    private final byte[] levelNameName;
    private final byte[] pidName;
    private final byte[] threadName;
    /** {@code "host":"..."} and {@code "_service_version":"..."} as far as written, rendered once. */
    private final byte[] hostAndVersion;
    private final byte[] loggerName;
    private final byte[] fullMessageName;
    private final byte[] errorTypeName;
    private final byte[] errorStackTraceName;
    private final byte[] errorMessageName;

    SpringGelfLine(SpringSettings settings) {
        super(settings, MEMBERS, false);
        for (String m : memberNames()) {
            if (m.startsWith("_")) {
                underscored.add(m.substring(1));
            }
        }
        this.pid = settings.pid;
        this.versionName = name("version", "version");
        this.shortMessageName = name("short_message", "short_message");
        this.timestampName = name("timestamp", "timestamp");
        this.levelName = name("level", "level");
        this.levelNameName = name("_level_name", "_level_name");
        this.pidName = pid == null ? null : name("_process_pid", "_process_pid");
        this.threadName = name("_process_thread_name", "_process_thread_name");
        ByteLineBuilder h = new ByteLineBuilder(128);
        constant(h, "host", settings.gelfHost);
        constant(h, "_service_version", settings.gelfServiceVersion);
        this.hostAndVersion = java.util.Arrays.copyOf(h.array(), h.length());
        this.loggerName = name("_log_logger", "_log_logger");
        this.fullMessageName = name("full_message", "full_message");
        this.errorTypeName = name("_error_type", "_error_type");
        this.errorStackTraceName = name("_error_stack_trace", "_error_stack_trace");
        this.errorMessageName = name("_error_message", "_error_message");
    }

    /** A member Spring writes {@code whenHasLength}, rendered once with the comma before all but the first. */
    private void constant(ByteLineBuilder h, String name, String value) {
        if (SpringSettings.hasLength(value)) {
            byte[] n = name(name, name);
            if (n != null) {
                if (h.length() > 0) {
                    h.append((byte) ',');
                }
                h.append(n, 0, n.length);
                SpringJsonEscape.appendQuoted(h, value);
            }
        }
    }

    @Override
    public boolean render(ILoggingEvent event, ByteLineBuilder out) {
        out.append((byte) '{');
        if (member(out, versionName)) {
            out.append(VERSION, 0, VERSION.length);
        }
        boolean hasText = JsonMessage.hasText(event);
        boolean hasMessage = hasText;
        if (!hasText) {
            int at = out.length();
            out.append((byte) '"');
            hasMessage = JsonMessage.append(event, out, true); // only to know whether there is one
            out.setLength(at);
        }
        if (member(out, shortMessageName)) {
            if (hasText) {
                out.append((byte) '"');
                JsonMessage.append(event, out, true);
                out.append((byte) '"');
            } else if (hasMessage) {
                out.append(BLANK, 0, BLANK.length);
            } else {
                out.append(NULL, 0, NULL.length);
            }
        }
        if (member(out, timestampName)) {
            seconds(out, event.getTimeStamp());
        }
        Level level = event.getLevel();
        if (member(out, levelName)) {
            out.appendDecimal(LevelToSyslogSeverity.convert(event));
        }
        if (member(out, levelNameName)) {
            string(out, NOTHING, level == null ? null : level.levelStr);
        }
        if (member(out, pidName)) {
            out.appendDecimal(pid);
        }
        if (member(out, threadName)) {
            string(out, NOTHING, event.getThreadName());
        }
        if (hostAndVersion.length > 0) {
            comma(out);
            out.append(hostAndVersion, 0, hostAndVersion.length);
        }
        if (member(out, loggerName)) {
            string(out, NOTHING, event.getLoggerName());
        }
        if (!pairs(event, out)) {
            return false;
        }
        IThrowableProxy proxy = event.getThrowableProxy();
        if (proxy != null) {
            String stackTrace = stackTrace(event);
            if (member(out, fullMessageName)) {
                out.append((byte) '"');
                if (!hasMessage || !JsonMessage.append(event, out, true)) {
                    out.appendAscii("null"); // String concatenation of a null message
                }
                out.append(TWO_NEW_LINES, 0, TWO_NEW_LINES.length);
                SpringJsonEscape.append(out, stackTrace, 0, stackTrace.length());
                out.append((byte) '"');
            }
            if (member(out, errorTypeName)) {
                string(out, NOTHING, proxy.getClassName());
            }
            if (member(out, errorStackTraceName)) {
                string(out, NOTHING, stackTrace);
            }
            if (member(out, errorMessageName)) {
                string(out, NOTHING, proxy.getMessage());
            }
        }
        adds(out);
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
