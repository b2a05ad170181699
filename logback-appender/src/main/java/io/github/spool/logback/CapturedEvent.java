package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.LoggerContextVO;
import java.util.List;
import java.util.Map;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;
import org.slf4j.helpers.MessageFormatter;

/**
 * The writer thread's event: the fields a captured record carries, for {@link SpoolEncoder}'s
 * conversions to render from ({@link ByteConverter#rendersFromCapture()}). No throwable, no
 * key-value pairs, no markers, no caller data: events with the first two are not captured, and a
 * pattern that prints the others is not rendered on the writer. Reused record after record by one
 * writer. Internal to the logback adapter.
 */
final class CapturedEvent implements ILoggingEvent {

    private static final StackTraceElement[] NO_CALLER_DATA = new StackTraceElement[0];

    private final CapturedMdc mdc;
    /** Whether the captured event had no MDC map at all ({@code getMDCPropertyMap()} returned null). */
    private boolean noMdc;
    private long timeStamp;
    private int nanoseconds;
    private Level level;
    private String loggerName;
    private String threadName;
    private String message;
    private Object[] arguments;
    /** {@link #getFormattedMessage()}'s result for this record, made on first use. */
    private String formatted;

    /** @param mdc the MDC map, filled by the writer per record (empty when the pattern prints none) */
    CapturedEvent(CapturedMdc mdc) {
        this.mdc = mdc;
    }

    void set(long timeStamp, int nanoseconds, Level level, String loggerName, String threadName, String message,
            Object[] arguments, boolean noMdc) {
        this.noMdc = noMdc;
        this.timeStamp = timeStamp;
        this.nanoseconds = nanoseconds;
        this.level = level;
        this.loggerName = loggerName;
        this.threadName = threadName;
        this.message = message;
        this.arguments = arguments;
        this.formatted = null;
    }

    /** Drops the record's message and arguments. */
    void clear() {
        message = null;
        arguments = null;
        formatted = null;
    }

    @Override
    public String getThreadName() {
        return threadName;
    }

    @Override
    public Level getLevel() {
        return level;
    }

    @Override
    public String getMessage() {
        return message;
    }

    @Override
    public Object[] getArgumentArray() {
        return arguments;
    }

    /** As {@code LoggingEvent.getFormattedMessage()} for an event without a throwable. */
    @Override
    public String getFormattedMessage() {
        if (formatted == null) {
            formatted = arguments == null ? message : MessageFormatter.arrayFormat(message, arguments).getMessage();
        }
        return formatted;
    }

    @Override
    public String getLoggerName() {
        return loggerName;
    }

    @Override
    public LoggerContextVO getLoggerContextVO() {
        return null; // %contextName and %relative are not rendered on the writer
    }

    @Override
    public IThrowableProxy getThrowableProxy() {
        return null;
    }

    @Override
    public StackTraceElement[] getCallerData() {
        return NO_CALLER_DATA;
    }

    @Override
    public boolean hasCallerData() {
        return false;
    }

    @Override
    public List<Marker> getMarkerList() {
        return null;
    }

    @Override
    public Map<String, String> getMDCPropertyMap() {
        return noMdc ? null : mdc;
    }

    @Override
    @Deprecated
    public Map<String, String> getMdc() {
        return getMDCPropertyMap();
    }

    @Override
    public long getTimeStamp() {
        return timeStamp;
    }

    @Override
    public int getNanoseconds() {
        return nanoseconds;
    }

    @Override
    public long getSequenceNumber() {
        return 0;
    }

    @Override
    public List<KeyValuePair> getKeyValuePairs() {
        return null;
    }

    @Override
    public void prepareForDeferredProcessing() {
        // nothing is deferred: the writer renders the line now
    }
}
