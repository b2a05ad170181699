package io.github.spool.log4j2;

import io.github.spool.AppendResult;
import io.github.spool.OverflowPolicy;
import io.github.spool.OwnedThreadLocal;
import io.github.spool.RenderMode;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SettingsReader;
import io.github.spool.SpoolConfig;
import io.github.spool.StatusListener;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.Core;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.appender.rolling.RolloverStrategy;
import org.apache.logging.log4j.core.appender.rolling.TriggeringPolicy;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderFactory;
import org.apache.logging.log4j.core.config.plugins.PluginElement;
import org.apache.logging.log4j.status.StatusLogger;
import org.apache.logging.log4j.util.Constants;

/**
 * The {@code <Spool>} appender: encodes each event with its layout on the calling thread and hands
 * the bytes to a core {@link Spool}, whose writer thread does the I/O. The caller never waits for
 * I/O; it waits only when the ring is at {@code maxBufferSize} under {@code overflowPolicy="BLOCK"}.
 *
 * <pre>{@code
 * <Spool name="out" target="SYSTEM_OUT" bufferSize="1 MiB" maxBufferSize="32 MiB"
 *        overflowPolicy="BLOCK" discardThreshold="INFO" ignoreExceptions="true">
 *   <SpoolLayout pattern="%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n"/>
 * </Spool>
 * }</pre>
 *
 * <p>{@link LogEvent#isEndOfBatch()} needs no handling: core's writer writes whatever is ready as
 * soon as it is ready and batches under load by itself, so there is no buffered tail to flush at
 * the end of a Disruptor batch.
 *
 * <p>Reconfiguration loses nothing: log4j2 2.26.1's {@code LoggerContext.setConfiguration} runs
 * {@code config.start()} (the new appenders), {@code this.configuration = config; updateLoggers()},
 * and only then {@code prev.stop()}, whose {@code LoggerConfig}s wait for in-flight events ({@code
 * AwaitCompletionReliabilityStrategy}, the default) before the old appender's {@link #stop(long,
 * TimeUnit)} drains its ring.
 */
@Plugin(name = SpoolAppender.PLUGIN_NAME, category = Core.CATEGORY_NAME, elementType = Appender.ELEMENT_TYPE,
        printObject = true)
public final class SpoolAppender extends AbstractAppender {

    /** The element name in {@code log4j2.xml}. */
    public static final String PLUGIN_NAME = "Spool";

    private static final Logger LOGGER = StatusLogger.getLogger();

    /** One encode buffer per thread (virtual threads borrow one per call), shared by every Spool appender: reset per event. */
    private static final OwnedThreadLocal<GrowableDestination> BUFFERS = OwnedThreadLocal.withInitial(GrowableDestination::new);

    private final SpoolConfig spoolConfig;
    /** Whether events are captured and rendered on the writer ({@link WriterRenderer}). */
    private final boolean capture;
    /** Whether captured texts keep lone surrogates ({@link SpoolLayout#formatsMessageChars()}). */
    private final boolean exactChars;
    /** The context entries a capture copies ({@link SpoolLayout#capturedContextKeys()}). */
    private final String[] contextKeys;
    private volatile Spool spool;

    private SpoolAppender(String name, Filter filter, Layout<? extends Serializable> layout, boolean ignoreExceptions,
            Property[] properties, SpoolConfig spoolConfig) {
        super(name, filter, layout, ignoreExceptions, properties);
        this.spoolConfig = spoolConfig;
        this.capture = spoolConfig.renderer() != null && layout instanceof CapturingLayout;
        this.exactChars = capture && ((CapturingLayout) layout).formatsMessageChars();
        this.contextKeys = capture ? ((CapturingLayout) layout).capturedContextKeys() : null;
    }

    /**
     * Creates a builder; log4j2 calls this for {@code <Spool>} elements.
     *
     * @return a new builder
     */
    @PluginBuilderFactory
    public static Builder newBuilder() {
        return new Builder();
    }

    /** @return the core settings this appender runs with */
    public SpoolConfig getSpoolConfig() {
        return spoolConfig;
    }

    /**
     * Opens the sink and starts core's writer thread, then writes the layout's header, as log4j2's
     * own stream appenders do: on the console always, into a file only when the file is new or
     * empty or truncated ({@code FileManager} in 2.26.1 writes it when it does not append to
     * existing content). A file that cannot be opened does not stop the appender: core reports it
     * and writes its lines to stderr until the file can be opened.
     */
    @Override
    public void start() {
        try {
            boolean freshSink = isFreshSink();
            spool = Spool.start(spoolConfig);
            byte[] header = getLayout() == null ? null : getLayout().getHeader();
            if (freshSink && header != null && header.length > 0) {
                appendRaw(spool, header, capture);
            }
        } catch (IOException | RuntimeException | Error e) {
            // Errors too: an OutOfMemoryError (no direct memory even for core's smallest ring, no
            // thread) must not reach the logging call that configured us.
            LOGGER.error("Spool appender '{}' could not start on {}: {}", getName(),
                    spoolConfig.target() == SpoolConfig.Target.FILE ? spoolConfig.file() : spoolConfig.target(),
                    e.toString(), e);
            return; // stays not started: log4j2 reports appends to it and skips it
        }
        super.start();
    }

    private boolean isFreshSink() {
        if (spoolConfig.target() != SpoolConfig.Target.FILE || !spoolConfig.append()) {
            return true;
        }
        try {
            return !Files.exists(spoolConfig.file()) || Files.size(spoolConfig.file()) == 0;
        } catch (IOException | RuntimeException e) {
            return true; // cannot be read: it will not be opened either, and stderr gets the header
        }
    }

    /**
     * Encodes the event on the calling thread and appends it to the ring as one record.
     *
     * @param event the event
     */
    @Override
    public void append(LogEvent event) {
        Spool s = spool;
        if (s == null) {
            // start() failed (the writer could not start). log4j2 2.26.1's AppenderControl
            // reports "Attempted to append to non-started appender" and, with ignoreExceptions
            // (the default), calls append() all the same: drop the event without encoding it.
            return;
        }
        Layout<? extends Serializable> layout = getLayout();
        int severity = LevelSeverity.of(event.getLevel());
        if (capture) {
            appendCaptured(s, (CapturingLayout) layout, event, severity);
        } else if (layout instanceof SpoolLayout) {
            // Fast path: hand SpoolLayout's line buffer to the ring, skipping the copy into a destination.
            SpoolLayout.Scratch scratch = SpoolLayout.acquireScratch();
            byte[] parked;
            try {
                ByteLineBuilder line = ((SpoolLayout) layout).encodeLine(event, scratch);
                parked = offerUnlessParking(s, line.array(), line.length(), severity, event);
            } finally {
                SpoolLayout.releaseScratch(scratch);
            }
            if (parked != null) {
                offer(s, parked, parked.length, severity, event);
            }
        } else {
            GrowableDestination held = Constants.ENABLE_THREADLOCALS ? BUFFERS.acquire() : new GrowableDestination();
            // Logging from inside this thread's own encode (an argument's toString()): use a
            // private buffer rather than overwrite the outer record.
            GrowableDestination dest = held.busy ? new GrowableDestination() : held;
            dest.busy = true;
            byte[] parked;
            try {
                dest.reset();
                layout.encode(event, dest);
                parked = offerUnlessParking(s, dest.array(), dest.length(), severity, event);
            } finally {
                // reset now, not at the next event: a huge record's buffer is dropped at once
                // instead of staying pinned in a thread that may never log again
                dest.reset();
                dest.busy = false;
                if (Constants.ENABLE_THREADLOCALS) {
                    BUFFERS.release(held);
                }
            }
            if (parked != null) {
                offer(s, parked, parked.length, severity, event);
            }
        }
    }

    /**
     * Offers a record held in borrowed scratch now, or, when a virtual caller would most likely
     * park at the cap, returns a copy to {@link #offer} once the scratch is given back: it then
     * parks holding its record's bytes only (a stall can park every virtual thread there is).
     *
     * @return the copy to offer after releasing the scratch, or {@code null} if offered
     */
    private byte[] offerUnlessParking(Spool s, byte[] bytes, int length, int severity, LogEvent event) {
        if (s.virtualCallerWouldPark()) {
            return Arrays.copyOf(bytes, length);
        }
        offer(s, bytes, length, severity, event);
        return null;
    }

    /**
     * Render-on-writer: the event's captured record, or when the capture declines it, its line
     * rendered here in a text record ({@link EventCapture}). During the JVM's exit core renders
     * and writes late records itself; a stopped appender drops them, as {@link #offer} says.
     */
    private void appendCaptured(Spool s, CapturingLayout layout, LogEvent event, int severity) {
        SpoolLayout.Scratch scratch = SpoolLayout.acquireScratch();
        byte[] parked;
        try {
            EventCapture.Ids ids = scratch.ids;
            if (ids == null) {
                ids = new EventCapture.Ids();
                scratch.ids = ids;
            }
            ByteLineBuilder record = scratch.line.bytes();
            if (!layout.capturable(event)
                    || !EventCapture.capture(event, record, scratch.text, ids, exactChars, contextKeys)) {
                record = layout.encodeTextRecord(event, scratch);
            }
            parked = offerUnlessParking(s, record.array(), record.length(), severity, event);
        } finally {
            SpoolLayout.releaseScratch(scratch);
        }
        if (parked != null) {
            offer(s, parked, parked.length, severity, event);
        }
    }

    /** Appends bytes that are not an event's line (header, footer): framed as text when capturing. */
    private static void appendRaw(Spool s, byte[] bytes, boolean capture) {
        if (capture) {
            ByteLineBuilder framed = RecordCodec.textRecord(bytes);
            s.append(framed.array(), 0, framed.length(), Severity.INFO);
        } else {
            s.append(bytes, 0, bytes.length, Severity.INFO);
        }
    }

    private void offer(Spool s, byte[] bytes, int length, int severity, LogEvent event) {
        // During the JVM's exit core writes late records itself (its exit lane), so CLOSED means
        // this appender was stopped.
        if (s.append(bytes, 0, length, severity) == AppendResult.CLOSED) {
            error("Spool appender '" + getName() + "' is stopped; event dropped", event, null);
        }
    }

    /**
     * Stops taking events and drains the ring, waiting at most {@code timeout} (a non-positive
     * timeout, log4j2's default, means core's {@link Spool#DEFAULT_STOP_TIMEOUT_MILLIS}).
     *
     * @param timeout  longest wait
     * @param timeUnit its unit
     * @return {@code true} if everything accepted was written
     */
    @Override
    public boolean stop(long timeout, TimeUnit timeUnit) {
        setStopping();
        boolean done = super.stop(timeout, timeUnit, false);
        Spool s = spool;
        if (s != null) {
            // The layout's footer last, as log4j2's stream managers write it when they close.
            byte[] footer = getLayout() == null ? null : getLayout().getFooter();
            if (footer != null && footer.length > 0) {
                appendRaw(s, footer, capture);
            }
            // log4j2 passes small timeouts (LogManager.shutdown() gave 50 ms): a user who stops
            // log4j2 expects the tail flushed, as its file appenders flush synchronously. Wait at
            // least core's default; what remains after that is left to core's shutdown hook.
            long millis = Math.max(timeout > 0 ? timeUnit.toMillis(timeout) : 0, Spool.DEFAULT_STOP_TIMEOUT_MILLIS);
            if (!s.stop(millis, TimeUnit.MILLISECONDS)) {
                LOGGER.warn("Spool appender '{}' did not drain within {} ms", getName(), millis);
                done = false;
            }
        }
        setStopped();
        return done;
    }

    @Override
    public String toString() {
        return "SpoolAppender{" + spoolConfig + '}';
    }

    /** Collects the {@code <Spool>} attributes; {@link #build()} validates them all. */
    public static final class Builder extends AbstractAppender.Builder<Builder>
            implements org.apache.logging.log4j.core.util.Builder<SpoolAppender> {

        @PluginBuilderAttribute
        private String target;

        @PluginBuilderAttribute
        private String fileName;

        @PluginBuilderAttribute
        private String bufferSize;

        @PluginBuilderAttribute
        private String maxBufferSize;

        @PluginBuilderAttribute
        private String overflowPolicy;

        @PluginBuilderAttribute
        private String discardThreshold;

        @PluginBuilderAttribute
        private String follow;

        @PluginBuilderAttribute
        private String direct;

        @PluginBuilderAttribute
        private String immediateFlush;

        @PluginBuilderAttribute
        private String bufferedIo;

        @PluginBuilderAttribute
        private String append;

        @PluginBuilderAttribute
        private String locking;

        @PluginBuilderAttribute
        private String filePattern;

        @PluginBuilderAttribute
        private String render;

        @PluginBuilderAttribute
        private String writerNapMicros;

        @PluginElement("Policy")
        private TriggeringPolicy policy;

        @PluginElement("Strategy")
        private RolloverStrategy strategy;

        Builder() {
        }

        /**
         * @param target {@code SYSTEM_OUT} (the default) or {@code SYSTEM_ERR}
         * @return this builder
         */
        public Builder setTarget(String target) {
            this.target = target;
            return this;
        }

        /**
         * @param fileName a file to append to, instead of a target
         * @return this builder
         */
        public Builder setFileName(String fileName) {
            this.fileName = fileName;
            return this;
        }

        /**
         * @param bufferSize initial ring size, e.g. {@code "1 MiB"} (default 1 MiB; below 8 KiB is raised to 8 KiB)
         * @return this builder
         */
        public Builder setBufferSize(String bufferSize) {
            this.bufferSize = bufferSize;
            return this;
        }

        /**
         * @param maxBufferSize hard cap of the ring, e.g. {@code "32 MiB"} (default 32 MiB)
         * @return this builder
         */
        public Builder setMaxBufferSize(String maxBufferSize) {
            this.maxBufferSize = maxBufferSize;
            return this;
        }

        /**
         * @param overflowPolicy {@code BLOCK} (default) or {@code DISCARD}
         * @return this builder
         */
        public Builder setOverflowPolicy(String overflowPolicy) {
            this.overflowPolicy = overflowPolicy;
            return this;
        }

        /**
         * @param discardThreshold a level name (default {@code INFO})
         * @return this builder
         */
        public Builder setDiscardThreshold(String discardThreshold) {
            this.discardThreshold = discardThreshold;
            return this;
        }

        /**
         * @param follow {@code "true"} to write each batch through the current {@code System.out}/{@code
         *               System.err}, as {@code ConsoleAppender follow="true"}; default {@code false}
         * @return this builder
         */
        public Builder setFollow(String follow) {
            this.follow = follow;
            return this;
        }

        /**
         * @param direct as in {@code ConsoleAppender}; Spool always writes the descriptor directly
         * @return this builder
         */
        public Builder setDirect(String direct) {
            this.direct = direct;
            return this;
        }

        /**
         * @param immediateFlush accepted; Spool writes every batch as soon as its writer takes it
         * @return this builder
         */
        public Builder setImmediateFlush(String immediateFlush) {
            this.immediateFlush = immediateFlush;
            return this;
        }

        /**
         * @param bufferedIo accepted; Spool always buffers in its ring
         * @return this builder
         */
        public Builder setBufferedIo(String bufferedIo) {
            this.bufferedIo = bufferedIo;
            return this;
        }

        /**
         * @param append {@code "false"} truncates {@code fileName} at start, as in {@code FileAppender}; default {@code true}
         * @return this builder
         */
        public Builder setAppend(String append) {
            this.append = append;
            return this;
        }

        /**
         * @param locking as in {@code FileAppender}; not supported (a WARN says so)
         * @return this builder
         */
        public Builder setLocking(String locking) {
            this.locking = locking;
            return this;
        }

        /**
         * @param filePattern the archives' name pattern, as for {@code RollingRandomAccessFile}
         *                    ({@code %d{...}}, {@code %i}, a {@code .gz} or {@code .zip} suffix)
         * @return this builder
         */
        public Builder setFilePattern(String filePattern) {
            this.filePattern = filePattern;
            return this;
        }

        /**
         * @param policy {@code <Policies>} or one triggering policy
         * @return this builder
         */
        public Builder setPolicy(TriggeringPolicy policy) {
            this.policy = policy;
            return this;
        }

        /**
         * @param render {@code auto} (the default: on the writer thread when the JVM has 2 or more
         *               processors and the layout is a {@link SpoolLayout} or {@link
         *               SpoolJsonTemplateLayout} that renders from a captured event, else on the
         *               calling thread; {@link RenderMode#wantsWriter()}),
         *               {@code writer} or {@code caller}
         * @return this builder
         */
        public Builder setRender(String render) {
            this.render = render;
            return this;
        }

        /**
         * @param writerNapMicros how long the writer thread sleeps after a pass that found nothing,
         *                        1..1,000,000 µs (default: the JVM's {@code spool.writerNapMicros},
         *                        else 5,000): the longest a line waits to be written while lines
         *                        trickle in, and what a SIGKILL can lose
         * @return this builder
         */
        public Builder setWriterNapMicros(String writerNapMicros) {
            this.writerNapMicros = writerNapMicros;
            return this;
        }

        /**
         * @param strategy {@code <DefaultRolloverStrategy>}
         * @return this builder
         */
        public Builder setStrategy(RolloverStrategy strategy) {
            this.strategy = strategy;
            return this;
        }

        /**
         * Reads every setting and builds the appender (not yet started). A bad or out-of-range
         * value is reported on the status logger and replaced (see {@link SettingsReader}); only a
         * missing name makes it fail.
         *
         * @return the appender, or {@code null} after an error on the status logger (no name)
         */
        @Override
        public SpoolAppender build() {
            try {
                Layout<? extends Serializable> layout = getOrCreateLayout();
                SpoolConfig config = toSpoolConfig(StatusLoggerListener.INSTANCE, layout);
                return new SpoolAppender(getName(), getFilter(), layout, isIgnoreExceptions(),
                        getPropertyArray(), config);
            } catch (IllegalArgumentException e) {
                LOGGER.error("Invalid <{}> appender '{}': {}", PLUGIN_NAME, getName(), e.getMessage());
                return null;
            }
        }

        /**
         * Visible for tests: what {@link #build()} does with the settings.
         *
         * @param status where the settings' WARN and ERROR statuses go (and, later, core's)
         * @throws IllegalArgumentException when the name is missing
         */
        SpoolConfig toSpoolConfig(StatusListener status) {
            return toSpoolConfig(status, null);
        }

        /**
         * As {@link #toSpoolConfig(StatusListener)}, choosing where lines are rendered for {@code layout}.
         *
         * @param status where statuses go
         * @param layout the appender's layout, or {@code null} to render on the caller
         */
        SpoolConfig toSpoolConfig(StatusListener status, Layout<? extends Serializable> layout) {
            String name = getName();
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("the name attribute is required");
            }
            SettingsReader r = new SettingsReader(name, status);
            SpoolConfig.Builder b = SpoolConfig.builder(name).statusListener(status)
                    .context(contextName(getConfiguration()))
                    .contextIdentity(getConfiguration() == null ? null : getConfiguration().getLoggerContext());
            boolean toFile = sink(r, b);
            r.ringSizes(b, bufferSize, maxBufferSize);
            r.writerNap(b, writerNapMicros);
            b.overflowPolicy(r.parse(overflowPolicy, Builder::parsePolicy, OverflowPolicy.BLOCK, "the default BLOCK"));
            b.discardThreshold(r.parse(discardThreshold, LevelSeverity::parseThreshold, Severity.INFO, "the default INFO"));
            boolean followOn = r.flag("follow", follow, false);
            boolean directOn = r.flag("direct", direct, true);
            if (followOn && direct != null && directOn) {
                r.warn("direct=\"true\" and follow=\"true\" contradict each other (log4j2's ConsoleAppender refuses "
                        + "both); following System.out/System.err as follow asks");
            } else if (!followOn && !directOn) {
                r.warn("direct=\"false\" does not apply: Spool writes " + (toFile ? "the file" : "the file descriptor")
                        + " directly from its writer thread; to write through the current System.out/System.err "
                        + "(a test framework's capture), set follow=\"true\"");
            }
            b.follow(followOn);
            if (!r.flag("immediateFlush", immediateFlush, true)) {
                r.info("immediateFlush=\"false\" changes nothing: Spool's writer writes each batch as soon as it "
                        + "takes it and batches by itself under load, so nothing waits for a flush");
            }
            if (!r.flag("bufferedIo", bufferedIo, true)) {
                r.info("bufferedIo=\"false\" changes nothing: Spool always buffers in its ring and writes within "
                        + "about a millisecond, off the logging thread");
            }
            boolean appendOn = r.flag("append", append, true);
            if (!appendOn && !toFile) {
                r.warn("append=\"false\" applies to fileName only; ignored for the console");
            }
            b.append(appendOn);
            if (r.flag("locking", locking, false)) {
                r.warn("locking=\"true\" is not supported: Spool does not lock the file for other processes; "
                        + "its one writer thread appends each batch with O_APPEND. Give each process its own file");
            }
            renderMode(r, b, layout);
            return b.build();
        }

        /**
         * Renders on the writer thread ({@link WriterRenderer}) when {@code render} asks for it
         * ({@link RenderMode#wantsWriter()}) and the layout is a {@link SpoolLayout} whose every
         * conversion renders from a captured event, or a {@link SpoolJsonTemplateLayout} whose
         * template's every resolver does.
         */
        private void renderMode(SettingsReader r, SpoolConfig.Builder b, Layout<? extends Serializable> layout) {
            RenderMode mode = r.parse(render, RenderMode::parse, RenderMode.AUTO, "the default auto");
            if (layout == null || !mode.wantsWriter()) {
                return;
            }
            if (layout instanceof CapturingLayout && ((CapturingLayout) layout).rendersFromCapture()) {
                b.renderer(new WriterRenderer((CapturingLayout) layout));
            } else if (layout instanceof SpoolJsonTemplateLayout) {
                if (mode == RenderMode.WRITER) { // auto: the layout decides, quietly
                    r.warn("render=\"writer\" needs a <SpoolJsonTemplateLayout> whose template the writer renders ("
                            + ((SpoolJsonTemplateLayout) layout).describe() + "); rendering on the calling thread");
                }
            } else if (mode == RenderMode.WRITER) { // auto: the layout decides, quietly
                r.warn("render=\"writer\" needs a <SpoolLayout> in UTF-8 whose conversions are all among %d, %p, %c, "
                        + "%t, %m, %X, %n and literals (" + (layout instanceof SpoolLayout
                        ? ((SpoolLayout) layout).describe() : layout.getClass().getSimpleName())
                        + "); rendering on the calling thread");
            }
        }

        /** Sets the target or file; a bad one is an ERROR and falls back. Returns whether it is a file. */
        private boolean sink(SettingsReader r, SpoolConfig.Builder b) {
            if (fileName == null && filePattern != null) {
                r.error("filePattern needs fileName: Spool does not support log4j2's direct-write rollover "
                        + "(a filePattern without fileName); writing this appender's lines to stderr instead");
                b.target(SpoolConfig.Target.STDERR);
                return false;
            }
            if (fileName == null) {
                b.target(r.parse(target, Builder::parseTarget, SpoolConfig.Target.STDOUT, "the default SYSTEM_OUT"));
                return false;
            }
            if (target != null) {
                r.warn("both target (" + target + ") and fileName (" + fileName + ") are set; writing to the file, "
                        + "target is ignored");
            }
            try {
                if (fileName.isBlank()) {
                    throw new IllegalArgumentException("it is empty");
                }
                b.file(Paths.get(fileName));
            } catch (IllegalArgumentException e) { // InvalidPathException included
                r.error("fileName '" + fileName + "' is not a usable path (" + e.getMessage() + "); writing this "
                        + "appender's lines to stderr instead");
                b.target(SpoolConfig.Target.STDERR);
                return false;
            }
            if (filePattern != null) {
                try {
                    b.rolling(RollingSettings.read(r, Paths.get(fileName), filePattern, policy, strategy));
                } catch (IllegalArgumentException e) {
                    r.error("filePattern '" + filePattern + "': " + e.getMessage() + "; writing " + fileName
                            + " without rolling");
                }
            } else if (policy != null || strategy != null) {
                r.warn("<Policies> and a rollover strategy need filePattern; " + fileName + " does not roll");
            }
            return true;
        }

        /**
         * The JMX context of the appender: its {@code LoggerContext}'s name, as log4j2 names its own
         * beans ({@code org.apache.logging.log4j2:type=<context name>,...}), so that one appender
         * name in two contexts (one per web application with the default context selector) gives
         * two beans.
         */
        static String contextName(Configuration configuration) {
            LoggerContext context = configuration == null ? null : configuration.getLoggerContext();
            String name = context == null ? null : context.getName();
            return name == null || name.isEmpty() ? SpoolConfig.DEFAULT_CONTEXT : name;
        }

        private static SpoolConfig.Target parseTarget(String value) {
            switch (value.trim().toUpperCase(Locale.ROOT)) {
                case "SYSTEM_OUT":
                    return SpoolConfig.Target.STDOUT;
                case "SYSTEM_ERR":
                    return SpoolConfig.Target.STDERR;
                default:
                    throw new IllegalArgumentException("target '" + value + "' is unknown; expected SYSTEM_OUT or SYSTEM_ERR");
            }
        }

        private static OverflowPolicy parsePolicy(String value) {
            switch (value.trim().toUpperCase(Locale.ROOT)) {
                case "BLOCK":
                    return OverflowPolicy.BLOCK;
                case "DISCARD":
                    return OverflowPolicy.DISCARD;
                default:
                    throw new IllegalArgumentException("overflowPolicy '" + value + "' is unknown; expected BLOCK or DISCARD");
            }
        }
    }
}
