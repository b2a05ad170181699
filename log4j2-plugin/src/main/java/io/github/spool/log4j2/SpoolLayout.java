package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginConfiguration;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;
import org.apache.logging.log4j.core.config.plugins.PluginNode;
import org.apache.logging.log4j.core.layout.AbstractStringLayout;
import org.apache.logging.log4j.core.layout.ByteBufferDestination;
import org.apache.logging.log4j.status.StatusLogger;
import org.apache.logging.log4j.util.Constants;

/**
 * {@code <SpoolLayout pattern="..." charset="UTF-8" alwaysWriteExceptions="true"/>}: a
 * garbage-free layout that prints, for the conversions it supports, byte for byte what {@code
 * <PatternLayout>} prints for the same pattern and event, and rejects every other conversion at
 * configuration time (a status-logger error naming it; plugin creation fails).
 *
 * <p>Supported: {@code %d}/{@code %date} (patterns and named formats, optional zone), {@code
 * %p}/{@code %level} (with options), {@code %t}/{@code %thread}, {@code %c}/{@code %logger} (with
 * precision such as {@code {36}}, {@code {-2}}, {@code {1.}}), {@code %m}/{@code %msg}/{@code
 * %message}, {@code %n}, {@code %X}/{@code %mdc} (one key, several keys, or the whole map), {@code
 * %ex}/{@code %throwable}/{@code %exception} (log4j2's own renderer), {@code %%}, literal text with
 * backslash escapes, and width/alignment/truncation modifiers ({@code %-5level}, {@code %-20.30c},
 * {@code %.-10m}). Like PatternLayout, {@code alwaysWriteExceptions} (default {@code true}) appends
 * the stack trace when the pattern prints none.
 *
 * <p>{@link #encode(LogEvent, ByteBufferDestination)} allocates nothing per event (unless the event
 * carries a throwable, or a line outgrows the per-thread buffers): each thread encodes into its own
 * {@link ByteLineBuilder} and reusable {@link StringBuilder}, dates come from core's per-second
 * timestamp cache. With {@code log4j2.enableThreadlocals=false} (log4j2's default in web
 * applications) it keeps no thread-locals and allocates its buffers per event instead. Only UTF-8
 * output is supported.
 */
@Plugin(name = SpoolLayout.PLUGIN_NAME, category = Node.CATEGORY, elementType = Layout.ELEMENT_TYPE, printObject = true)
public final class SpoolLayout extends AbstractStringLayout {

    /** The element name in {@code log4j2.xml}. */
    public static final String PLUGIN_NAME = "SpoolLayout";
    /** PatternLayout's default pattern, used when none is given. */
    public static final String DEFAULT_PATTERN = "%m%n";
    /**
     * The attribute a rejected {@code <SpoolLayout>} leaves on its parent element (see {@link
     * #createLayout(String, String, boolean, Configuration, Node)}). Internal API.
     */
    public static final String INVALID_LAYOUT_ATTRIBUTE = "spoolLayoutRejected";

    private static final Logger LOGGER = StatusLogger.getLogger();
    /** The scratch builder is replaced after a huge message, as log4j2 trims its own builders. */
    private static final int MAX_RETAINED_CHARS = 64 << 10;

    /** Per-thread encode state, shared by all SpoolLayout instances (it is reset per event). */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /** A thread's line buffer and char scratch. */
    static final class Scratch {
        final LineBuffer line = new LineBuffer(1024);
        StringBuilder text = new StringBuilder(256);
        /** True while an encode runs on this thread: a nested one (logging from a toString()) gets its own. */
        boolean busy;
    }

    private final String pattern;
    private final boolean alwaysWriteExceptions;
    private final Segment[] segments;

    private SpoolLayout(Configuration config, String pattern, boolean alwaysWriteExceptions, List<Segment> segments) {
        super(config, StandardCharsets.UTF_8, null, null);
        this.pattern = pattern;
        this.alwaysWriteExceptions = alwaysWriteExceptions;
        this.segments = segments.toArray(new Segment[0]);
    }

    /**
     * Creates the layout as log4j2 does, reporting a rejected pattern on the status logger.
     *
     * @param pattern               a PatternLayout pattern (default {@value #DEFAULT_PATTERN})
     * @param charset               must be UTF-8 (the default)
     * @param alwaysWriteExceptions as in PatternLayout (default {@code true})
     * @param config                the configuration, for converter plugins
     * @return the layout, or {@code null} after a status-logger error naming what is unsupported
     */
    public static SpoolLayout createLayout(String pattern, String charset, boolean alwaysWriteExceptions,
            Configuration config) {
        return createLayout(pattern, charset, alwaysWriteExceptions, config, null);
    }

    /**
     * Creates the layout; log4j2 calls this for {@code <SpoolLayout>} elements.
     *
     * <p>When the pattern is rejected, log4j2 would build the enclosing appender with its default
     * layout (PatternLayout {@code %m%n}) after the error: different output, and for a pattern such
     * as {@code %enc{%m}{CRLF}} output that no longer neutralises CR/LF. So the rejection is also
     * recorded on the parent element as the attribute {@value #INVALID_LAYOUT_ATTRIBUTE}: the
     * {@code <Spool>} appender reads it and is not created; any other appender reports it as an
     * unknown attribute, a second error that names the problem.
     *
     * @param pattern               a PatternLayout pattern (default {@value #DEFAULT_PATTERN})
     * @param charset               must be UTF-8 (the default)
     * @param alwaysWriteExceptions as in PatternLayout (default {@code true})
     * @param config                the configuration, for converter plugins
     * @param node                  this element, or {@code null}
     * @return the layout, or {@code null} after a status-logger error naming what is unsupported
     */
    @PluginFactory
    public static SpoolLayout createLayout(
            @PluginAttribute(value = "pattern", defaultString = DEFAULT_PATTERN) String pattern,
            @PluginAttribute("charset") String charset,
            @PluginAttribute(value = "alwaysWriteExceptions", defaultBoolean = true) boolean alwaysWriteExceptions,
            @PluginConfiguration Configuration config,
            @PluginNode Node node) {
        try {
            return newLayout(pattern, charset, alwaysWriteExceptions, config);
        } catch (RuntimeException e) {
            LOGGER.error("Invalid <{} pattern=\"{}\">: {}", PLUGIN_NAME, pattern, e.getMessage());
            if (node != null && node.getParent() != null) {
                node.getParent().getAttributes().put(INVALID_LAYOUT_ATTRIBUTE, e.getMessage());
            }
            return null;
        }
    }

    /**
     * Creates the layout, throwing instead of logging; for code and tests.
     *
     * @param pattern               a PatternLayout pattern
     * @param charset               {@code null} or a name of UTF-8
     * @param alwaysWriteExceptions as in PatternLayout
     * @param config                the configuration, or {@code null}
     * @return the layout
     * @throws IllegalArgumentException naming the unsupported conversion or setting
     */
    public static SpoolLayout newLayout(String pattern, String charset, boolean alwaysWriteExceptions,
            Configuration config) {
        if (charset != null && !charset.isBlank() && !Charset.forName(charset.trim()).equals(StandardCharsets.UTF_8)) {
            throw new IllegalArgumentException("SpoolLayout writes UTF-8 only, not charset=\"" + charset + "\"");
        }
        String p = pattern == null ? DEFAULT_PATTERN : pattern;
        List<Segment> segments = new PatternCompiler(config).compile(p, alwaysWriteExceptions);
        return new SpoolLayout(config, p, alwaysWriteExceptions, segments);
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
        StringBuilder text = scratch.text;
        for (Segment segment : segments) {
            segment.encode(event, line, text);
        }
        if (text.capacity() > MAX_RETAINED_CHARS) {
            scratch.text = new StringBuilder(256);
        }
        return line.bytes();
    }

    /** @return this thread's scratch, or a fresh one if this thread is already encoding (re-entry) */
    static Scratch acquireScratch() {
        if (!Constants.ENABLE_THREADLOCALS) {
            // log4j2's web-app mode (log4j2.enableThreadlocals=false): no thread-locals that could
            // pin a web application's class loader; allocate per event as log4j2 itself does then.
            return new Scratch();
        }
        Scratch s = SCRATCH.get();
        if (s.busy) {
            s = new Scratch();
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
        s.busy = false;
    }

    /**
     * Encodes the event straight to UTF-8 bytes and writes them to the destination; garbage-free.
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
        StringBuilder sb = new StringBuilder(128);
        for (Segment segment : segments) {
            segment.format(event, sb);
        }
        return sb.toString();
    }

    /** @return {@code false}: no supported conversion needs the caller's location */
    @Override
    public boolean requiresLocation() {
        return false;
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

    @Override
    public String toString() {
        return "SpoolLayout[pattern=" + pattern + ", alwaysWriteExceptions=" + alwaysWriteExceptions + "]";
    }
}
