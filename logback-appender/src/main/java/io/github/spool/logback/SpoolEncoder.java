package io.github.spool.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.EncoderBase;
import io.github.spool.OwnedThreadLocal;
import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * logback encoder with a {@code <pattern>} as in {@code PatternLayoutEncoder}, encoding straight to
 * UTF-8 bytes: dates through core's per-second timestamp cache, names from per-name caches of their
 * encoded (abbreviated, padded) bytes, text through core's allocation-free UTF-8 encoder.
 *
 * <p>For the conversions it supports its output is byte-for-byte what {@code PatternLayoutEncoder}
 * with {@code <charset>UTF-8</charset>} prints for the same pattern and event (UTF-8 is also
 * logback's default on JDK 18 and later). Supported: {@code %d}/{@code %date} with pattern, named
 * formats, zone and locale options; {@code %level}/{@code %le}/{@code %p}; {@code %thread}/{@code
 * %t}; {@code %logger{N}}/{@code %lo}/{@code %c}; {@code %msg}/{@code %m}/{@code %message}; {@code
 * %n}; {@code %X{key:-default}}/{@code %mdc}; {@code %contextName}/{@code %cn}; {@code
 * %relative}/{@code %r}; {@code %(...)} groups; literal text and escapes; all width modifiers; the
 * throwable conversions ({@code %ex}, {@code %throwable}, {@code %exception}, {@code %xEx},
 * {@code %rEx}, {@code %nopex} and their options) and {@code %kvp}, which are rendered by logback's
 * own converters; and logback's implicit {@code %ex} when the pattern prints no throwable. Any other
 * conversion word is a configuration error naming it: the encoder does not start.
 *
 * <p>{@link #encodeTo(ILoggingEvent, ByteLineBuilder)} is the allocation-free path that
 * {@link SpoolAppender} uses; {@link #encode(ILoggingEvent)} returns a {@code byte[]} for use under
 * any other appender.
 */
public class SpoolEncoder extends EncoderBase<ILoggingEvent> {

    private static final int RETAINED = 512;

    private String pattern;
    private Charset charset = StandardCharsets.UTF_8;
    private volatile ByteConverter[] converters;
    private final OwnedThreadLocal<Scratch> scratch = OwnedThreadLocal.withInitial(Scratch::new); // no Spool object left in pool threads

    /** Creates an encoder; set its pattern, then {@link #start()} it. */
    public SpoolEncoder() {
    }

    /** @param pattern a logback pattern, as for {@code PatternLayoutEncoder} */
    public void setPattern(String pattern) {
        this.pattern = pattern;
    }

    /** @return the pattern */
    public String getPattern() {
        return pattern;
    }

    /**
     * Accepts {@code <charset>} for drop-in compatibility with {@code PatternLayoutEncoder}
     * configurations; only UTF-8 is supported, anything else makes {@link #start()} fail.
     *
     * @param charset the charset
     */
    public void setCharset(Charset charset) {
        this.charset = charset;
    }

    /** @return the configured charset; always UTF-8 once started */
    public Charset getCharset() {
        return charset;
    }

    /**
     * Compiles the pattern. An empty pattern, a syntax error, an unsupported conversion word or a
     * date pattern core cannot render exactly is reported as an error status naming it, and the
     * encoder stays stopped.
     */
    @Override
    public void start() {
        if (charset != null && !StandardCharsets.UTF_8.equals(charset)) {
            addError("SpoolEncoder writes UTF-8 only; charset " + charset + " is not supported (use PatternLayoutEncoder)");
            return;
        }
        try {
            converters = PatternCompiler.compile(pattern, getContext(), this::addWarn);
        } catch (IllegalArgumentException e) {
            addError("SpoolEncoder pattern \"" + pattern + "\": " + e.getMessage(), e.getCause());
            return;
        }
        super.start();
    }

    /**
     * Appends the encoded event to {@code out} (after what it already holds). Allocation-free when
     * the names it prints are cached, the date's second is rendered, and the event has neither
     * throwable nor key-value pairs; the message string itself is logback's
     * {@code getFormattedMessage()}.
     *
     * @param event the event
     * @param out   the builder to append to
     */
    public void encodeTo(ILoggingEvent event, ByteLineBuilder out) {
        ByteConverter[] cs = converters;
        if (cs == null) {
            return; // not started: PatternLayout prints "" too
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
        Scratch sc = scratch.get();
        if (sc.busy) {
            // re-entered from a toString() that logs while this thread encodes: own builder
            ByteLineBuilder own = new ByteLineBuilder(RETAINED);
            encodeTo(event, own);
            return Arrays.copyOf(own.array(), own.length());
        }
        sc.busy = true;
        try {
            ByteLineBuilder b = sc.line;
            b.reset();
            encodeTo(event, b);
            return Arrays.copyOf(b.array(), b.length());
        } finally {
            sc.line.reset(); // drops a huge line's array now rather than at this thread's next event
            sc.busy = false;
        }
    }

    /** @return {@code null}: no header, as {@code PatternLayoutEncoder} without {@code outputPatternAsHeader} */
    @Override
    public byte[] headerBytes() {
        return null;
    }

    /** @return {@code null}: no footer */
    @Override
    public byte[] footerBytes() {
        return null;
    }

    /** A thread's reusable builder for {@link #encode} and whether it is in use. */
    private static final class Scratch {
        final ByteLineBuilder line = new ByteLineBuilder(RETAINED, 64 * 1024);
        boolean busy;
    }
}
