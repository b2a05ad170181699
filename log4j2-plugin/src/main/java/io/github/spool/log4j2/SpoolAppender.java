package io.github.spool.log4j2;

import io.github.spool.AppendResult;
import io.github.spool.ByteSize;
import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;
import io.github.spool.text.ByteLineBuilder;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Paths;
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
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderFactory;
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

    /** One encode buffer per thread, shared by every Spool appender: it is reset per event. */
    private static final ThreadLocal<GrowableDestination> BUFFERS = ThreadLocal.withInitial(GrowableDestination::new);

    private final SpoolConfig spoolConfig;
    private volatile Spool spool;
    private volatile LateWriter lateWriter;

    private SpoolAppender(String name, Filter filter, Layout<? extends Serializable> layout, boolean ignoreExceptions,
            Property[] properties, SpoolConfig spoolConfig) {
        super(name, filter, layout, ignoreExceptions, properties);
        this.spoolConfig = spoolConfig;
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
     * empty ({@code FileManager} in 2.26.1 writes it when it does not append to existing content).
     */
    @Override
    public void start() {
        try {
            boolean freshSink = spoolConfig.target() != SpoolConfig.Target.FILE
                    || !Files.exists(spoolConfig.file()) || Files.size(spoolConfig.file()) == 0;
            spool = Spool.start(spoolConfig);
            byte[] header = getLayout() == null ? null : getLayout().getHeader();
            if (freshSink && header != null && header.length > 0) {
                spool.append(header, 0, header.length, Severity.INFO);
            }
        } catch (IOException | RuntimeException e) {
            LOGGER.error("Spool appender '{}' could not open {}: {}", getName(),
                    spoolConfig.target() == SpoolConfig.Target.FILE ? spoolConfig.file() : spoolConfig.target(),
                    e.toString(), e);
            return; // stays not started: log4j2 reports appends to it and skips it
        }
        super.start();
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
            // start() failed (the sink could not be opened). log4j2 2.26.1's AppenderControl
            // reports "Attempted to append to non-started appender" and, with ignoreExceptions
            // (the default), calls append() all the same: drop the event without encoding it.
            return;
        }
        Layout<? extends Serializable> layout = getLayout();
        int severity = LevelSeverity.of(event.getLevel());
        if (layout instanceof SpoolLayout) {
            // Fast path: hand SpoolLayout's line buffer to the ring, skipping the copy into a destination.
            SpoolLayout.Scratch scratch = SpoolLayout.acquireScratch();
            try {
                ByteLineBuilder line = ((SpoolLayout) layout).encodeLine(event, scratch);
                offer(s, line.array(), line.length(), severity, event);
            } finally {
                SpoolLayout.releaseScratch(scratch);
            }
        } else {
            GrowableDestination dest = Constants.ENABLE_THREADLOCALS ? BUFFERS.get() : new GrowableDestination();
            if (dest.busy) {
                // Logging from inside this thread's own encode (an argument's toString()): use a
                // private buffer rather than overwrite the outer record.
                dest = new GrowableDestination();
            }
            dest.busy = true;
            try {
                dest.reset();
                layout.encode(event, dest);
                offer(s, dest.array(), dest.length(), severity, event);
            } finally {
                // reset now, not at the next event: a huge record's buffer is dropped at once
                // instead of staying pinned in a thread that may never log again
                dest.reset();
                dest.busy = false;
            }
        }
    }

    private void offer(Spool s, byte[] bytes, int length, int severity, LogEvent event) {
        if (s.append(bytes, 0, length, severity) != AppendResult.CLOSED) {
            return;
        }
        if (isStopping() || isStopped()) {
            error("Spool appender '" + getName() + "' is stopped; event dropped", event, null);
            return;
        }
        // Still started for log4j2, yet the ring is closed: core's JVM shutdown hook ran while
        // log4j2 (e.g. its own hook draining async loggers) still appends. Keep the tail.
        LateWriter late = lateWriter;
        if (late == null) {
            synchronized (this) {
                late = lateWriter;
                if (late == null) {
                    late = new LateWriter(s, spoolConfig);
                    lateWriter = late;
                }
            }
        }
        late.write(bytes, 0, length);
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
                s.append(footer, 0, footer.length, Severity.INFO);
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
        LateWriter late = lateWriter;
        if (late != null) {
            late.close();
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
         * @param bufferSize initial ring size, e.g. {@code "1 MiB"} (default 1 MiB)
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
         * Validates every setting and builds the appender (not yet started).
         *
         * @return the appender, or {@code null} after an error on the status logger naming the
         *         bad setting (log4j2's convention for a failed plugin)
         */
        @Override
        public SpoolAppender build() {
            try {
                SpoolConfig config = toSpoolConfig();
                return new SpoolAppender(getName(), getFilter(), getOrCreateLayout(), isIgnoreExceptions(),
                        getPropertyArray(), config);
            } catch (IllegalArgumentException e) {
                LOGGER.error("Invalid <{}> appender '{}': {}", PLUGIN_NAME, getName(), e.getMessage());
                return null;
            }
        }

        /** Visible for tests: the validation {@link #build()} does, throwing instead of logging. */
        SpoolConfig toSpoolConfig() {
            String name = getName();
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("the name attribute is required");
            }
            SpoolConfig.Builder b = SpoolConfig.builder(name).statusListener(StatusLoggerListener.INSTANCE)
                    .context(contextName(getConfiguration()));
            boolean hasFile = fileName != null && !fileName.isBlank();
            if (hasFile && target != null) {
                throw new IllegalArgumentException("set either target or fileName, not both (target=" + target
                        + ", fileName=" + fileName + ")");
            }
            if (hasFile) {
                b.file(Paths.get(fileName));
            } else if (fileName != null) {
                throw new IllegalArgumentException("fileName is empty");
            } else {
                b.target(parseTarget(target));
            }
            if (bufferSize != null) {
                b.bufferSize(ByteSize.parse("bufferSize", bufferSize));
            }
            if (maxBufferSize != null) {
                b.maxBufferSize(ByteSize.parse("maxBufferSize", maxBufferSize));
            }
            if (overflowPolicy != null) {
                b.overflowPolicy(parsePolicy(overflowPolicy));
            }
            b.discardThreshold(discardThreshold == null ? Severity.INFO : LevelSeverity.parseThreshold(discardThreshold));
            return b.build();
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
            if (value == null) {
                return SpoolConfig.Target.STDOUT;
            }
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
