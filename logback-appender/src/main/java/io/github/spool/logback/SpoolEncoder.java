package io.github.spool.logback;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.pattern.EnsureExceptionHandling;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Context;
import ch.qos.logback.core.pattern.Converter;
import ch.qos.logback.core.pattern.PatternLayoutEncoderBase;
import ch.qos.logback.core.pattern.PostCompileProcessor;
import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * logback encoder with a {@code <pattern>} as in {@code PatternLayoutEncoder}: it accepts every
 * pattern and setting {@code PatternLayoutEncoder} accepts and prints, byte for byte, what it
 * prints, encoding straight to UTF-8 bytes where it can.
 *
 * <p>How: {@link #start()} does exactly what {@code PatternLayoutEncoder.start()} does (a
 * {@link PatternLayout} in the same context, same pattern, same {@code outputPatternAsHeader}), so
 * parsing, {@code <conversionRule>}s, status messages and the rendering of a bad pattern are
 * logback's own. It then takes the converter chain that layout compiled and started and, per
 * converter, either prints the same bytes itself (dates through core's per-second timestamp cache,
 * levels pre-encoded, thread and logger names from caches of their encoded text, messages and MDC
 * values through core's allocation-free UTF-8 encoder, literals, {@code %n}, {@code %contextName},
 * {@code %relative}, {@code %(...)} groups, all width modifiers), or lets that very logback
 * converter append its text, which is then encoded into the line. See {@link PatternCompiler}.
 *
 * <p>The byte path needs the line's charset to be UTF-8: {@code <charset>} if set, else the JVM's
 * default charset, as in {@code PatternLayoutEncoder} (UTF-8 by default on JDK 18 and later). With
 * any other charset every line goes through the layout and {@code String.getBytes(charset)}, as in
 * {@code PatternLayoutEncoder}.
 *
 * <p>{@link #encodeTo(ILoggingEvent, ByteLineBuilder)} is the path {@link SpoolAppender} uses,
 * allocation-free for the fast-path conversions; {@link #encode(ILoggingEvent)} returns a
 * {@code byte[]} for use under any other appender.
 */
public class SpoolEncoder extends PatternLayoutEncoderBase<ILoggingEvent> {


    /** The byte path, or {@code null}: the layout did not start, or the charset is not UTF-8. */
    private volatile ByteConverter[] converters;
    /** Keeps a reference to this for {@code encode()}, called only once constructed (JDK 21+ lint). */
    @SuppressWarnings("this-escape")
    private final LineArrays lines = new LineArrays(this::encodeTo);

    /** Creates an encoder; set its pattern, then {@link #start()} it. */
    public SpoolEncoder() {
    }

    /**
     * Starts as {@code PatternLayoutEncoder.start()} does (same layout, same statuses; an exception
     * the layout throws for a malformed pattern propagates as it does there), then compiles the
     * layout's converter chain into the byte path.
     */
    @Override
    public void start() {
        PatternLayout patternLayout = new PatternLayout();
        patternLayout.setContext(context);
        patternLayout.setPattern(getPattern());
        patternLayout.setOutputPatternAsHeader(outputPatternAsHeader);
        ChainCapture chain = new ChainCapture();
        patternLayout.setPostCompileProcessor(chain);
        patternLayout.start();
        this.layout = patternLayout;
        converters = patternLayout.isStarted() && chain.head != null && utf8(getCharset())
                ? PatternCompiler.compile(chain.head, getPattern()) : null;
        super.start();
    }

    private static boolean utf8(Charset configured) {
        return StandardCharsets.UTF_8.equals(configured != null ? configured : Charset.defaultCharset());
    }

    /**
     * Appends the encoded event to {@code out} (after what it already holds). Allocation-free when
     * every conversion is on the fast path, the names it prints are cached, the date's second is
     * rendered, and the event has neither throwable nor key-value pairs.
     *
     * @param event the event
     * @param out   the builder to append to
     */
    public void encodeTo(ILoggingEvent event, ByteLineBuilder out) {
        ByteConverter[] cs = converters;
        if (cs == null) {
            if (layout != null) {
                byte[] bytes = super.encode(event); // not UTF-8, or a pattern logback rejected: its own path
                out.append(bytes, 0, bytes.length);
            }
            return;
        }
        int start = out.length();
        boolean lone = false;
        for (ByteConverter c : cs) {
            lone |= c.write(event, out);
        }
        if (lone) {
            out.setLength(Wtf8.toUtf8(out.array(), start, out.length()));
        }
    }

    /**
     * Encodes one event into a new array, as {@code PatternLayoutEncoder.encode} does.
     *
     * @param event the event
     * @return its bytes
     */
    @Override
    public byte[] encode(ILoggingEvent event) {
        if (converters == null) {
            return super.encode(event);
        }
        return lines.encode(event);
    }

    /**
     * @return {@code true} if the writer thread can render this encoder's lines from captured
     *         records: started on the byte path (UTF-8), every conversion reading only captured
     *         fields ({@link ByteConverter#rendersFromCapture()})
     */
    boolean rendersFromCapture() {
        ByteConverter[] cs = converters;
        if (cs == null) {
            return false;
        }
        for (ByteConverter c : cs) {
            if (!c.rendersFromCapture()) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the MDC keys a capture copies for this pattern's {@code %X} conversions: {@code null}
     *         when it prints no MDC, {@link EventCapture#ALL_KEYS} when it prints the whole map,
     *         else the keys it prints (each once)
     */
    String[] capturedMdcKeys() {
        ByteConverter[] cs = converters;
        if (cs == null) {
            return null;
        }
        Set<String> keys = new LinkedHashSet<>();
        return collectMdcKeys(cs, keys) ? EventCapture.ALL_KEYS : keys.isEmpty() ? null : keys.toArray(new String[0]);
    }

    /** @return {@code true} if a conversion prints the whole map */
    private static boolean collectMdcKeys(ByteConverter[] cs, Set<String> keys) {
        for (ByteConverter c : cs) {
            if (c instanceof ByteConverter.Mdc) {
                String key = ((ByteConverter.Mdc) c).key();
                if (key == null) {
                    return true;
                }
                keys.add(key);
            } else if (c instanceof ByteConverter.Group && collectMdcKeys(((ByteConverter.Group) c).children(), keys)) {
                return true;
            }
        }
        return false;
    }

    /**
     * How each top-level conversion of the started pattern is printed: {@code "fast:<kind>"} or
     * {@code "delegated:<logback converter class>"}; empty when the whole line goes through the
     * layout (not started, or a charset other than UTF-8). For diagnostics and tests.
     *
     * @return one entry per converter, in order
     */
    List<String> describe() {
        ByteConverter[] cs = converters;
        List<String> out = new ArrayList<>();
        if (cs != null) {
            for (ByteConverter c : cs) {
                out.add(c.describe());
            }
        }
        return out;
    }

    /**
     * Runs logback's own post-compile step ({@code PatternLayout}'s default, which appends
     * {@code %ex} when the pattern prints no throwable) and keeps the head of the chain, which
     * {@code PatternLayoutBase} does not expose; the layout starts the converters right after.
     */
    private static final class ChainCapture implements PostCompileProcessor<ILoggingEvent> {
        private final EnsureExceptionHandling ensure = new EnsureExceptionHandling();
        Converter<ILoggingEvent> head;

        @Override
        public void process(Context context, Converter<ILoggingEvent> head) {
            ensure.process(context, head);
            this.head = head;
        }
    }

    /** A thread's reusable builder for {@link #encode} and whether it is in use. */
}
