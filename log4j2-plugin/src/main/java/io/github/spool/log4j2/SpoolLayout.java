package io.github.spool.log4j2;

import io.github.spool.OwnedThreadLocal;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderFactory;
import org.apache.logging.log4j.core.config.plugins.PluginConfiguration;
import org.apache.logging.log4j.core.config.plugins.PluginElement;
import org.apache.logging.log4j.core.layout.AbstractStringLayout;
import org.apache.logging.log4j.core.layout.ByteBufferDestination;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.core.layout.PatternSelector;
import org.apache.logging.log4j.core.pattern.RegexReplacement;
import org.apache.logging.log4j.util.Constants;

/**
 * {@code <SpoolLayout pattern="..."/>}: accepts every attribute and element of log4j2 2.26.1's
 * {@code <PatternLayout>} ({@code pattern}, {@code charset}, {@code alwaysWriteExceptions}, {@code
 * disableAnsi}, {@code noConsoleNoAnsi}, {@code header}, {@code footer}, {@code <Replace>}, {@code
 * <PatternSelector>}) and prints byte for byte what PatternLayout's {@code toByteArray} prints for
 * the same event, for every pattern PatternLayout accepts, invalid ones included.
 *
 * <p>How: log4j2's own {@code PatternParser} parses the pattern (so keys, custom {@code
 * @ConverterKeys} plugins, lookups, errors and status messages are PatternLayout's), and {@link
 * PatternCompiler} gives each resulting converter either a garbage-free byte-path segment ({@code
 * %d %p %t %c %m %n %X}, literals, modifiers) or a segment that calls log4j2's converter into a
 * reusable builder and encodes the chars. The line is built straight in UTF-8 bytes. Two settings
 * work on the whole line and so cannot be split into segments: a {@code <Replace>} regex and a
 * {@code <PatternSelector>}; with either, or with a charset other than UTF-8, the layout renders
 * through an internal PatternLayout built with the same settings and encodes its line (allocating).
 *
 * <p>{@link #encode(LogEvent, ByteBufferDestination)} allocates nothing per event when every
 * conversion is on the byte path (unless the event carries a throwable, or a line outgrows the
 * per-thread buffers): each thread encodes into its own {@link LineBuffer} and reusable {@link
 * StringBuilder}, dates come from core's per-second timestamp cache. With {@code
 * log4j2.enableThreadlocals=false} (log4j2's default in web applications) it keeps no thread-locals
 * and allocates its buffers per event instead.
 */
@Plugin(name = SpoolLayout.PLUGIN_NAME, category = Node.CATEGORY, elementType = Layout.ELEMENT_TYPE, printObject = true)
public final class SpoolLayout extends AbstractStringLayout implements CapturingLayout {

    /** The element name in {@code log4j2.xml}. */
    public static final String PLUGIN_NAME = "SpoolLayout";
    /** PatternLayout's default pattern, used when none is given. */
    public static final String DEFAULT_PATTERN = PatternLayout.DEFAULT_CONVERSION_PATTERN;

    /** The scratch builder is replaced after a huge message, as log4j2 trims its own builders. */
    private static final int MAX_RETAINED_CHARS = 64 << 10;

    /**
     * Per-thread encode state, shared by all SpoolLayout instances (it is reset per event);
     * virtual threads borrow one per call ({@link OwnedThreadLocal#acquire()}).
     */
    private static final OwnedThreadLocal<Scratch> SCRATCH = OwnedThreadLocal.withInitial(Scratch::new);

    /** A thread's line buffer and char scratch. */
    static final class Scratch {
        final LineBuffer line = new LineBuffer(1024);
        StringBuilder text = new StringBuilder(256);
        /** True while an encode runs on this thread: a nested one (logging from a toString()) gets its own. */
        boolean busy;
        /** This thread's symbol ids, created on its first captured event. */
        EventCapture.Ids ids;
        /** For {@link SpoolJsonTemplateLayout}: its delegate's bytes into {@link #line}, created on first use. */
        LineDestination destination;
        /** For {@link SpoolJsonTemplateLayout}'s compiled template, created on first use. */
        private JsonScratch json;

        JsonScratch json() {
            JsonScratch j = json;
            if (j == null) {
                j = new JsonScratch();
                json = j;
            }
            j.text = text;
            return j;
        }

        LineDestination destination() {
            LineDestination d = destination;
            if (d == null) {
                d = new LineDestination();
                destination = d;
            }
            return d;
        }
    }

    private final String pattern;
    private final boolean alwaysWriteExceptions;
    /** The segments, or {@code null} when {@link #whole} renders the line. */
    private final Segment[] segments;
    /** For {@code <Replace>}, {@code <PatternSelector>} or a non-UTF-8 charset, else {@code null}. */
    private final PatternLayout whole;
    private final boolean utf8;
    private final boolean requiresLocation;

    private SpoolLayout(Configuration config, Charset charset, Serializer header, Serializer footer, String pattern,
            boolean alwaysWriteExceptions, PatternCompiler.Compiled compiled, PatternLayout whole) {
        super(config, charset, header, footer);
        this.pattern = pattern;
        this.alwaysWriteExceptions = alwaysWriteExceptions;
        this.segments = compiled == null ? null : compiled.segments;
        this.whole = whole;
        this.utf8 = StandardCharsets.UTF_8.equals(charset);
        this.requiresLocation = whole != null ? whole.requiresLocation() : compiled.requiresLocation;
    }

    /**
     * The builder log4j2 uses for {@code <SpoolLayout>}; the same attributes, elements and defaults
     * as PatternLayout's (the charset defaults to the platform's, as there).
     *
     * @return a new builder
     */
    @PluginBuilderFactory
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Creates a layout from code.
     *
     * @param pattern               a PatternLayout pattern ({@code null} for {@value #DEFAULT_PATTERN})
     * @param charset               a charset name, or {@code null} for the platform default (as PatternLayout)
     * @param alwaysWriteExceptions as in PatternLayout
     * @param config                the configuration, or {@code null}
     * @return the layout
     * @throws IllegalArgumentException where PatternLayout's builder throws, or for an unknown charset
     */
    public static SpoolLayout newLayout(String pattern, String charset, boolean alwaysWriteExceptions,
            Configuration config) {
        return newBuilder().setPattern(pattern == null ? DEFAULT_PATTERN : pattern)
                .setCharset(charset == null ? null : Charset.forName(charset.trim()))
                .setAlwaysWriteExceptions(alwaysWriteExceptions).setConfiguration(config).build();
    }

    /** @return the pattern */
    public String getConversionPattern() {
        return pattern;
    }

    /**
     * Encodes the event into this thread's line buffer and returns it; the bytes are valid until the
     * thread's next encode. Used by {@link SpoolAppender} to skip one copy. Internal API.
     */
    ByteLineBuilder encodeLine(LogEvent event, Scratch scratch) {
        LineBuffer line = scratch.line;
        line.reset();
        return encodeInto(event, scratch, line);
    }

    /**
     * Encodes the event as {@link #encodeLine} does, appending to what {@code line} holds (the
     * writer's output: no copy of the line).
     */
    void encodeAppend(LogEvent event, Scratch scratch, LineBuffer line) {
        line.startLine();
        encodeInto(event, scratch, line);
    }

    /**
     * Encodes the event as {@link #encodeLine} does, after a text record's header ({@link
     * RecordCodec#RECORD_TEXT}, then the line's length), in place: no copy of the line.
     */
    @Override
    public ByteLineBuilder encodeTextRecord(LogEvent event, Scratch scratch) {
        LineBuffer line = scratch.line;
        line.reset();
        RecordCodec.beginText(line.bytes());
        ByteLineBuilder b = encodeInto(event, scratch, line);
        RecordCodec.endText(b);
        return b;
    }

    private ByteLineBuilder encodeInto(LogEvent event, Scratch scratch, LineBuffer line) {
        StringBuilder text = scratch.text;
        if (segments != null) {
            for (Segment segment : segments) {
                segment.encode(event, line, text);
            }
        } else {
            text.setLength(0);
            whole.serialize(event, text);
            if (utf8) {
                line.append(text);
            } else {
                // AbstractStringLayout.toByteArray: the whole line through String.getBytes(charset)
                byte[] bytes = text.toString().getBytes(getCharset());
                line.appendBytes(bytes, 0, bytes.length);
            }
        }
        return line.bytes(); // a huge message's text is given back by releaseScratch
    }

    /** @return scratch buffers made so far (per platform thread; borrowed by virtual ones). For tests. */
    static long scratchesMade() {
        return SCRATCH.created();
    }

    /** @return this thread's scratch, or a fresh one if this thread is already encoding (re-entry) */
    static Scratch acquireScratch() {
        if (!Constants.ENABLE_THREADLOCALS) {
            // log4j2's web-app mode (log4j2.enableThreadlocals=false): no thread-locals that could
            // pin a web application's class loader; allocate per event as log4j2 itself does then.
            return new Scratch();
        }
        Scratch s = SCRATCH.acquire();
        if (s.busy) {
            s = new Scratch(); // a platform thread re-entering: its own scratch holds the outer event
        }
        s.busy = true;
        return s;
    }

    /**
     * Ends the use begun by {@link #acquireScratch()}. Empties the line now rather than at the
     * thread's next event: after a huge message the reset gives the big array back (core's
     * {@link ByteLineBuilder#reset()} keeps at most 256 KiB), so a thread that logs 10 MiB and then
     * goes idle does not pin it (a pool thread could otherwise hold it for the JVM's life).
     */
    static void releaseScratch(Scratch s) {
        s.line.reset();
        if (s.text.capacity() > MAX_RETAINED_CHARS) {
            s.text = new StringBuilder(256); // a huge message was formatted into it
        }
        s.busy = false;
        if (Constants.ENABLE_THREADLOCALS) {
            SCRATCH.release(s); // back to the pool if this is a virtual thread; else a no-op
        }
    }

    /**
     * Encodes the event and writes the bytes to the destination; garbage-free on the byte path.
     *
     * @param event       the event
     * @param destination where the bytes go
     */
    @Override
    public void encode(LogEvent event, ByteBufferDestination destination) {
        Scratch s = acquireScratch();
        try {
            ByteLineBuilder line = encodeLine(event, s);
            destination.writeBytes(line.array(), 0, line.length());
        } finally {
            releaseScratch(s);
        }
    }

    /**
     * Returns the encoded bytes of the event (allocates).
     *
     * @param event the event
     * @return a new array
     */
    @Override
    public byte[] toByteArray(LogEvent event) {
        Scratch s = acquireScratch();
        try {
            ByteLineBuilder line = encodeLine(event, s);
            return Arrays.copyOf(line.array(), line.length());
        } finally {
            releaseScratch(s);
        }
    }

    /**
     * Returns the event as a String, exactly PatternLayout's {@code toSerializable} (allocates).
     *
     * @param event the event
     * @return the formatted line
     */
    @Override
    public String toSerializable(LogEvent event) {
        if (whole != null) {
            return whole.toSerializable(event);
        }
        StringBuilder sb = new StringBuilder(128);
        for (Segment segment : segments) {
            segment.format(event, sb);
        }
        return sb.toString();
    }

    /**
     * @return {@code true} exactly when PatternLayout's would be: a converter of the pattern (or of
     *         a selector's patterns) needs the caller's location, so async loggers capture it
     */
    @Override
    public boolean requiresLocation() {
        return requiresLocation;
    }

    /**
     * @return the content format, as PatternLayout reports it ({@code format} is the pattern)
     */
    @Override
    public Map<String, String> getContentFormat() {
        Map<String, String> result = new HashMap<>();
        result.put("structured", "false");
        result.put("formatType", "conversion");
        result.put("format", pattern);
        return result;
    }

    /** @return {@code true}: every field of the captured record is what the segments read */
    @Override
    public boolean capturable(LogEvent event) {
        return true;
    }

    @Override
    public void renderCaptured(LogEvent event, Scratch scratch, LineBuffer line) {
        encodeAppend(event, scratch, line);
    }

    /**
     * @return how each conversion is rendered, e.g. {@code [literal, date, delegated highlight]};
     *         for diagnostics and tests
     */
    @Override
    public String describe() {
        return whole != null ? "whole line through PatternLayout" : Arrays.toString(segments);
    }

    /**
     * @return {@code true} if the writer thread can render this layout's lines from captured
     *         records: UTF-8, compiled to segments, each of which reads only captured fields
     */
    @Override
    public boolean rendersFromCapture() {
        if (segments == null || !utf8) {
            return false;
        }
        for (Segment s : segments) {
            if (!s.rendersFromCapture()) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the context-map keys a capture copies for this layout's {@code %X} conversions:
     *         {@code null} when it prints no context, {@link EventCapture#ALL_KEYS} when it prints
     *         the whole map, else the keys it prints (each once)
     */
    @Override
    public String[] capturedContextKeys() {
        if (segments == null) {
            return null;
        }
        Set<String> keys = null;
        for (Segment s : segments) {
            Segment field = s instanceof FormattedSegment ? ((FormattedSegment) s).field() : s;
            if (field instanceof MdcSegment) {
                String[] printed = ((MdcSegment) field).printedKeys();
                if (printed == null) {
                    return EventCapture.ALL_KEYS;
                }
                if (keys == null) {
                    keys = new LinkedHashSet<>();
                }
                keys.addAll(Arrays.asList(printed));
            }
        }
        return keys == null ? null : keys.toArray(new String[0]);
    }

    /**
     * @return {@code true} if the message is padded or truncated ({@code %-20m}, {@code %.30m}): its
     *         chars then matter one by one, so a capture must keep lone surrogates as they are
     */
    @Override
    public boolean formatsMessageChars() {
        if (segments != null) {
            for (Segment s : segments) {
                if (s instanceof FormattedSegment && ((FormattedSegment) s).field() == MessageSegment.INSTANCE) {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return {@code true} if every conversion is on the garbage-free byte path */
    boolean isBytePathOnly() {
        if (segments == null) {
            return false;
        }
        for (Segment s : segments) {
            if (!s.isBytePath()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "SpoolLayout[pattern=" + pattern + ", alwaysWriteExceptions=" + alwaysWriteExceptions + "]";
    }

    /** PatternLayout's builder, attribute for attribute; see {@link SpoolLayout#newBuilder()}. */
    public static final class Builder implements org.apache.logging.log4j.core.util.Builder<SpoolLayout> {

        @PluginBuilderAttribute
        private String pattern = DEFAULT_PATTERN;

        @PluginElement("PatternSelector")
        private PatternSelector patternSelector;

        @PluginConfiguration
        private Configuration configuration;

        @PluginElement("Replace")
        private RegexReplacement regexReplacement;

        // PatternLayout's default (LOG4J2-783): the platform charset
        @PluginBuilderAttribute
        private Charset charset = Charset.defaultCharset();

        @PluginBuilderAttribute
        private boolean alwaysWriteExceptions = true;

        @PluginBuilderAttribute
        private boolean disableAnsi;

        @PluginBuilderAttribute
        private boolean noConsoleNoAnsi;

        @PluginBuilderAttribute
        private String header;

        @PluginBuilderAttribute
        private String footer;

        private Builder() {
        }

        /**
         * @param pattern the pattern (default {@value SpoolLayout#DEFAULT_PATTERN})
         * @return this builder
         */
        public Builder setPattern(String pattern) {
            this.pattern = pattern;
            return this;
        }

        /**
         * @param patternSelector chooses a pattern per event, as in PatternLayout
         * @return this builder
         */
        public Builder setPatternSelector(PatternSelector patternSelector) {
            this.patternSelector = patternSelector;
            return this;
        }

        /**
         * @param configuration the configuration (lookups, plugin packages), or {@code null}
         * @return this builder
         */
        public Builder setConfiguration(Configuration configuration) {
            this.configuration = configuration;
            return this;
        }

        /**
         * @param regexReplacement a replacement applied to the whole line, as in PatternLayout
         * @return this builder
         */
        public Builder setRegexReplacement(RegexReplacement regexReplacement) {
            this.regexReplacement = regexReplacement;
            return this;
        }

        /**
         * @param charset the output charset; {@code null} keeps the platform default, as in PatternLayout
         * @return this builder
         */
        public Builder setCharset(Charset charset) {
            if (charset != null) {
                this.charset = charset;
            }
            return this;
        }

        /**
         * @param alwaysWriteExceptions append the stack trace when the pattern prints none (default {@code true})
         * @return this builder
         */
        public Builder setAlwaysWriteExceptions(boolean alwaysWriteExceptions) {
            this.alwaysWriteExceptions = alwaysWriteExceptions;
            return this;
        }

        /**
         * @param disableAnsi no ANSI escape codes from {@code %highlight}, {@code %style} and the like
         * @return this builder
         */
        public Builder setDisableAnsi(boolean disableAnsi) {
            this.disableAnsi = disableAnsi;
            return this;
        }

        /**
         * @param noConsoleNoAnsi no ANSI escape codes when {@link System#console()} is {@code null}
         * @return this builder
         */
        public Builder setNoConsoleNoAnsi(boolean noConsoleNoAnsi) {
            this.noConsoleNoAnsi = noConsoleNoAnsi;
            return this;
        }

        /**
         * @param header a pattern printed once at the top, as in PatternLayout
         * @return this builder
         */
        public Builder setHeader(String header) {
            this.header = header;
            return this;
        }

        /**
         * @param footer a pattern printed once at the bottom, as in PatternLayout
         * @return this builder
         */
        public Builder setFooter(String footer) {
            this.footer = footer;
            return this;
        }

        /**
         * Builds the layout; the patterns are parsed once each, in PatternLayout's order (header,
         * footer, event), so the status output for an invalid pattern is PatternLayout's.
         *
         * @return the layout
         * @throws IllegalArgumentException where PatternLayout's builder throws
         */
        @Override
        public SpoolLayout build() {
            if (patternSelector != null || regexReplacement != null || !StandardCharsets.UTF_8.equals(charset)) {
                PatternLayout whole = PatternLayout.newBuilder().setPattern(pattern).setPatternSelector(patternSelector)
                        .setConfiguration(configuration).setRegexReplacement(regexReplacement).setCharset(charset)
                        .setAlwaysWriteExceptions(alwaysWriteExceptions).setDisableAnsi(disableAnsi)
                        .setNoConsoleNoAnsi(noConsoleNoAnsi).setHeader(header).setFooter(footer).build();
                return new SpoolLayout(configuration, charset, whole.getHeaderSerializer(),
                        whole.getFooterSerializer(), pattern, alwaysWriteExceptions, null, whole);
            }
            Serializer headerSerializer = frameSerializer(header);
            Serializer footerSerializer = frameSerializer(footer);
            PatternCompiler.Compiled compiled = PatternCompiler.compile(configuration,
                    pattern == null ? DEFAULT_PATTERN : pattern, alwaysWriteExceptions, disableAnsi, noConsoleNoAnsi);
            return new SpoolLayout(configuration, charset, headerSerializer, footerSerializer, pattern,
                    alwaysWriteExceptions, compiled, null);
        }

        /** PatternLayout's header and footer serializers, built with the same settings. */
        private Serializer frameSerializer(String framePattern) {
            return PatternLayout.newSerializerBuilder().setConfiguration(configuration)
                    .setAlwaysWriteExceptions(alwaysWriteExceptions).setDisableAnsi(disableAnsi)
                    .setNoConsoleNoAnsi(noConsoleNoAnsi).setPattern(framePattern).build();
        }
    }
}
