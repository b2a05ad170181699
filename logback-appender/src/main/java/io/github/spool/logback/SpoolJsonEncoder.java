package io.github.spool.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.EncoderBase;
import io.github.spool.text.ByteLineBuilder;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;

/**
 * logback encoder that writes JSON lines byte-identical to a known JSON encoder, named by
 * {@code <format>}; under a {@link SpoolAppender} the line is rendered on Spool's writer thread
 * from values copied on the logging thread ({@code render} {@code writer}/{@code auto}).
 *
 * <pre>{@code
 * <appender name="CONSOLE" class="io.github.spool.logback.SpoolAppender">
 *   <encoder class="io.github.spool.logback.SpoolJsonEncoder">
 *     <format>logstash-logback-encoder</format>
 *   </encoder>
 * </appender>
 * }</pre>
 *
 * <p>Formats: {@value #LOGSTASH_LOGBACK_ENCODER} (the default): what logstash-logback-encoder's
 * {@code LogstashEncoder} writes with its default settings ({@link LogstashJsonLine}), in
 * {@code TimeZone.getDefault()} as read when this encoder is created, as {@code LogstashEncoder}
 * reads it. Any other value is an ERROR status naming it and the supported formats, and the
 * default format is used: the appender starts and no line is lost, as for Spool's other settings.
 *
 * <p>Events this encoder does not render itself — with a logstash {@code LogstashMarker}, a
 * {@code StructuredArgument} argument, or a key-value pair whose value is not a string, boolean or
 * integral boxed number — are encoded by a real {@code LogstashEncoder} (same context) on the
 * logging thread when logstash-logback-encoder is on the class path; without it such values can
 * only be key-value pairs, and are written as JSON strings of their {@code toString()}.
 */
public class SpoolJsonEncoder extends EncoderBase<ILoggingEvent> {

    /** The {@code <format>} of logstash-logback-encoder's {@code LogstashEncoder}. */
    public static final String LOGSTASH_LOGBACK_ENCODER = "logstash-logback-encoder";

    private static final String LOGSTASH_ENCODER_CLASS = "net.logstash.logback.encoder.LogstashEncoder";

    private String format = LOGSTASH_LOGBACK_ENCODER;
    /** Read at creation, as {@code LogstashEncoder}'s timestamp provider does in its constructor. */
    private final TimeZone zone = TimeZone.getDefault();
    private volatile LogstashJsonLine line;
    /** The real encoder for events {@link #rendersNatively} declines, or {@code null} if not on the class path. */
    private Encoder<ILoggingEvent> fallback;
    private Class<?> logstashMarker;
    private Class<?> structuredArgument;
    /** Keeps a reference to this for {@code encode()}, called only once constructed (JDK 21+ lint). */
    @SuppressWarnings("this-escape")
    private final LineArrays lines = new LineArrays(this::encodeTo);

    /**
     * Creates an encoder; set its format, then {@link #start()} it. The real encoder for the events
     * this one does not render is created here too, so that it reads the same default zone.
     */
    public SpoolJsonEncoder() {
        ClassLoader loader = SpoolJsonEncoder.class.getClassLoader();
        try {
            logstashMarker = Class.forName("net.logstash.logback.marker.LogstashMarker", false, loader);
            structuredArgument = Class.forName("net.logstash.logback.argument.StructuredArgument", false, loader);
            @SuppressWarnings("unchecked")
            Encoder<ILoggingEvent> real = (Encoder<ILoggingEvent>) Class.forName(LOGSTASH_ENCODER_CLASS, true, loader)
                    .getConstructor().newInstance();
            fallback = real;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            logstashMarker = null; // not on the class path: none of its markers or arguments can occur
            structuredArgument = null;
            fallback = null;
        }
    }

    /** @param format the JSON format to write; default {@value #LOGSTASH_LOGBACK_ENCODER} */
    public void setFormat(String format) {
        this.format = format;
    }

    /** @return the configured format */
    public String getFormat() {
        return format;
    }

    /**
     * Checks the format (an unsupported one is an ERROR and the default is used) and prepares the
     * rendering; creates and starts a {@code LogstashEncoder} for the events it does not render
     * when logstash-logback-encoder is on the class path.
     */
    @Override
    public void start() {
        String f = format == null ? "" : format.trim();
        if (!f.isEmpty() && !LOGSTASH_LOGBACK_ENCODER.equals(f.toLowerCase(Locale.ROOT))) {
            addError("SpoolJsonEncoder: format \"" + format + "\" is not supported; supported formats: "
                    + LOGSTASH_LOGBACK_ENCODER + ". Writing the " + LOGSTASH_LOGBACK_ENCODER + " format instead");
        }
        if (fallback != null) {
            fallback.setContext(context);
            fallback.start();
            if (!fallback.isStarted()) {
                addError("SpoolJsonEncoder: logstash-logback-encoder's LogstashEncoder did not start; its markers and "
                        + "structured arguments are written as plain markers and arguments");
                fallback = null;
            }
        }
        line = new LogstashJsonLine(context, zone.toZoneId());
        super.start();
    }

    @Override
    public void stop() {
        super.stop();
        LogstashJsonLine l = line;
        if (l != null) {
            l.stop();
        }
        if (fallback != null) {
            fallback.stop();
        }
    }

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }

    /**
     * Encodes one event into a new array.
     *
     * @param event the event
     * @return its line
     */
    @Override
    public byte[] encode(ILoggingEvent event) {
        return lines.encode(event);
    }

    /**
     * Appends the event's line to {@code out} (after what it already holds). Allocation-free for an
     * event without throwable or markers, once the second of its time stamp has been rendered.
     *
     * @param event the event
     * @param out   the builder to append to
     */
    public void encodeTo(ILoggingEvent event, ByteLineBuilder out) {
        LogstashJsonLine l = line;
        if (l == null) {
            return; // not started: nothing, as logback's encoders print nothing before start
        }
        // A captured event passed capturable(): no markers, no structured arguments (and asking for
        // its argument array would box its primitives again).
        if (fallback != null && event.getClass() != CapturedEvent.class && !rendersNatively(event)) {
            byte[] bytes = fallback.encode(event);
            out.append(bytes, 0, bytes.length);
            return;
        }
        l.render(event, out);
    }

    /**
     * @return whether {@link LogstashJsonLine} writes this event as {@code LogstashEncoder} does:
     *         no {@code LogstashMarker}, no {@code StructuredArgument}, key-value values it writes
     */
    boolean rendersNatively(ILoggingEvent event) {
        if (logstashMarker != null) {
            List<Marker> markers = event.getMarkerList();
            if (markers != null) {
                for (Marker m : markers) {
                    if (hasLogstashMarker(m)) {
                        return false;
                    }
                }
            }
            Object[] args = event.getArgumentArray();
            if (args != null) {
                for (Object a : args) {
                    if (structuredArgument.isInstance(a)) {
                        return false;
                    }
                }
            }
        }
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        if (pairs != null) {
            for (KeyValuePair p : pairs) {
                if (!LogstashJsonLine.nativeValue(p.value)) {
                    return false;
                }
            }
        }
        return true;
    }

    @SuppressWarnings("deprecation") // hasReferences/iterator: how LogstashEncoder walks markers
    private boolean hasLogstashMarker(Marker m) {
        if (m == null) {
            return false;
        }
        if (logstashMarker.isInstance(m)) {
            return true;
        }
        if (m.hasReferences()) {
            for (Iterator<Marker> it = m.iterator(); it.hasNext(); ) {
                if (hasLogstashMarker(it.next())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @return whether the writer can render this event from {@link EventCapture}'s record: a plain
     *         {@link LoggingEvent} (its instant is what the record keeps) without markers or
     *         key-value pairs, which the record does not carry, and without arguments the real
     *         encoder prints as fields
     */
    boolean capturable(ILoggingEvent event) {
        if (event.getClass() != LoggingEvent.class) {
            return false;
        }
        List<Marker> markers = event.getMarkerList();
        if (markers != null && !markers.isEmpty()) {
            return false;
        }
        if (structuredArgument != null) {
            Object[] args = event.getArgumentArray();
            if (args != null) {
                for (Object a : args) {
                    if (structuredArgument.isInstance(a)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** @return whether lines can be rendered on the writer: once started */
    boolean rendersFromCapture() {
        return line != null;
    }

    /** A thread's reusable builder for {@link #encode} and whether it is in use. */
}
