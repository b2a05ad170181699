package io.github.spool.logback.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.spool.soak.HostileInputContract;
import java.util.List;
import java.util.stream.Collectors;

/** A started logback {@link LoggerContext} as the shared hostile-input cases drive it. */
final class LogbackRun implements HostileInputContract.Run {

    final LoggerContext lc;

    LogbackRun(LoggerContext lc) {
        this.lc = lc;
    }

    @Override
    public HostileInputContract.Log logger(String name) {
        return log(lc.getLogger(name));
    }

    private static HostileInputContract.Log log(Logger log) {
        return new HostileInputContract.Log(log::info, log::info, log::info, log::warn, log::error, log::error);
    }

    @Override
    public void putMdc(String key, String value) {
        lc.getMDCAdapter().put(key, value);
    }

    @Override
    public void clearMdc() {
        lc.getMDCAdapter().clear();
    }

    @Override
    public void logToRoot(String loggerName, String threadName, String message) {
        // Straight to the root's appenders: logback's LoggerContext keeps every Logger it ever
        // created, so millions of them would exhaust a small heap in logback itself.
        lc.getLogger(Logger.ROOT_LOGGER_NAME).callAppenders(event(lc, loggerName, threadName, message));
    }

    /** An event as logback's Logger would build it, for a name no Logger exists for. */
    static LoggingEvent event(LoggerContext lc, String loggerName, String threadName, String message) {
        LoggingEvent e = new LoggingEvent();
        e.setLoggerContext(lc);
        e.setLoggerName(loggerName);
        e.setThreadName(threadName);
        e.setLevel(Level.INFO);
        e.setMessage(message);
        e.setTimeStamp(System.currentTimeMillis());
        return e;
    }

    @Override
    public void assertRenderMode() {
        LogbackRig.assertRenderMode(lc, "spool");
    }

    @Override
    public void stop() {
        lc.stop();
    }

    /**
     * Where logback reports an error for its own appender (e.g. an abbreviator refusing a null
     * logger name), the Spool appenders report the same one, and no other.
     */
    @Override
    public void assertSameErrors() {
        List<String> errors = LogbackRig.errors(lc);
        List<String> expected = errorsOf(errors, "reference");
        assertEquals(expected, errorsOf(errors, "spool"), "SpoolAppender + SpoolEncoder errors");
        assertEquals(expected, errorsOf(errors, "spoolPattern"), "SpoolAppender + PatternLayoutEncoder errors");
    }

    private static List<String> errorsOf(List<String> errors, String appender) {
        String tag = "[" + appender + "]";
        return errors.stream().filter(e -> e.contains(tag)).map(e -> e.replace(tag, "[appender]")).collect(Collectors.toList());
    }
}
