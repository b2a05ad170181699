package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.LoggerContextVO;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import java.util.Arrays;
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
    /** Arguments captured for this record, -1 when it had no argument array. */
    private int argumentCount = -1;
    /** Per argument: its {@link RecordCodec} type. */
    private final byte[] argumentTypes = new byte[EventCapture.MAX_ARGS];
    /** Per primitive argument: {@link RecordCodec#readBits}'s value, boxed only on demand. */
    private final long[] argumentBits = new long[EventCapture.MAX_ARGS];
    /** Per string argument: the string. */
    private final String[] argumentStrings = new String[EventCapture.MAX_ARGS];
    /** Boxed argument arrays by length, reused: {@code MessageFormatter} reads the length as the count. */
    private final Object[][] argumentArrays = new Object[EventCapture.MAX_ARGS + 1][];
    /** {@link #getArgumentArray()}'s result for this record, made on first use. */
    private Object[] arguments;
    /** {@link #getFormattedMessage()}'s result for this record, made on first use. */
    private String formatted;

    /** @param mdc the MDC map, filled by the writer per record (empty when the pattern prints none) */
    CapturedEvent(CapturedMdc mdc) {
        this.mdc = mdc;
    }

    /**
     * Starts a record; its arguments follow through {@link #setArgument}.
     *
     * @param argumentCount the number of arguments, -1 for none (no argument array)
     */
    void set(long timeStamp, int nanoseconds, Level level, String loggerName, String threadName, String message,
            int argumentCount, boolean noMdc) {
        this.noMdc = noMdc;
        this.timeStamp = timeStamp;
        this.nanoseconds = nanoseconds;
        this.level = level;
        this.loggerName = loggerName;
        this.threadName = threadName;
        this.message = message;
        this.argumentCount = argumentCount;
        this.arguments = null;
        this.formatted = null;
    }

    /**
     * Sets argument {@code k}: a string (type {@link RecordCodec#STR_ASCII} or
     * {@link RecordCodec#STR_UTF16}), {@code null} ({@link RecordCodec#NULL}) or a primitive's
     * bits ({@link RecordCodec#readBits}), not boxed unless {@link #getArgumentArray()} is called.
     */
    void setArgument(int k, byte type, long bits, String string) {
        argumentTypes[k] = type;
        argumentBits[k] = bits;
        argumentStrings[k] = string;
    }

    /** Drops the record's message and arguments. */
    void clear() {
        message = null;
        if (arguments != null) {
            Arrays.fill(arguments, null);
            arguments = null;
        }
        if (argumentCount > 0) {
            Arrays.fill(argumentStrings, 0, argumentCount, null);
        }
        argumentCount = -1;
        formatted = null;
    }

    /** @return the number of arguments, -1 when the event had no argument array */
    int argumentCount() {
        return argumentCount;
    }

    /** @return argument {@code k}'s {@link RecordCodec} type */
    byte argumentType(int k) {
        return argumentTypes[k];
    }

    /** @return argument {@code k}'s bits, for a primitive type ({@link RecordCodec#readBits}) */
    long argumentBits(int k) {
        return argumentBits[k];
    }

    /** @return argument {@code k}, for a string or null type */
    String argumentString(int k) {
        return argumentStrings[k];
    }

    /**
     * @return whether {@link DirectMessage} can write every argument through
     *         {@link #appendArgument}: the types it takes from a {@code LoggingEvent}
     */
    boolean argumentsDirect() {
        for (int k = 0; k < argumentCount; k++) {
            switch (argumentTypes[k]) {
                case RecordCodec.NULL, RecordCodec.STR_ASCII, RecordCodec.STR_UTF16, RecordCodec.INT,
                        RecordCodec.LONG, RecordCodec.SHORT, RecordCodec.BYTE, RecordCodec.BOOLEAN -> {
                }
                default -> {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Writes argument {@code k} as {@link DirectMessage#appendArgument} writes its boxed value,
     * without boxing it; only when {@link #argumentsDirect()} holds.
     *
     * @return {@code true} if a lone surrogate was written (see {@link Wtf8})
     */
    boolean appendArgument(ByteLineBuilder out, int k) {
        byte type = argumentTypes[k];
        if (!RecordCodec.isPrimitive(type)) {
            return DirectMessage.appendArgument(out, argumentStrings[k]); // null or a String, as the caller's
        }
        if (type == RecordCodec.BOOLEAN) {
            out.appendAscii(argumentBits[k] != 0 ? "true" : "false");
        } else {
            out.appendDecimal(argumentBits[k]); // INT, LONG, SHORT, BYTE: their sign-extended value
        }
        return false;
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

    /** The arguments boxed, as the caller's event held them; made on first use, for this record. */
    @Override
    public Object[] getArgumentArray() {
        int n = argumentCount;
        if (arguments == null && n >= 0) {
            Object[] a = argumentArrays[n];
            if (a == null) {
                a = new Object[n];
                argumentArrays[n] = a;
            }
            for (int k = 0; k < n; k++) {
                byte type = argumentTypes[k];
                a[k] = RecordCodec.isPrimitive(type) ? RecordCodec.box(type, argumentBits[k]) : argumentStrings[k];
            }
            arguments = a;
        }
        return arguments;
    }

    /** As {@code LoggingEvent.getFormattedMessage()} for an event without a throwable. */
    @Override
    public String getFormattedMessage() {
        if (formatted == null) {
            Object[] args = getArgumentArray();
            formatted = args == null ? message : MessageFormatter.arrayFormat(message, args).getMessage();
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

    /**
     * The instant of the captured {@code LoggingEvent}: its milliseconds and nanoseconds of the
     * second are that instant's; for encoders that read it (Spring Boot's), not for Spool's own.
     */
    @Override
    public java.time.Instant getInstant() {
        return java.time.Instant.ofEpochSecond(Math.floorDiv(timeStamp, 1000L), nanoseconds);
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
