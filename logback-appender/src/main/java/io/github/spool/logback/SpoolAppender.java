package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.encoder.Encoder;
import io.github.spool.AppendResult;
import io.github.spool.ByteSize;
import io.github.spool.OverflowPolicy;
import io.github.spool.OwnedThreadLocal;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;
import io.github.spool.StatusListener;
import io.github.spool.text.ByteLineBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * logback appender that writes through Spool's ring and writer thread to file descriptor 1 or 2 or
 * to a file, never through {@link System#out}. Drop-in for {@code ConsoleAppender}:
 *
 * <pre>{@code
 * <appender name="CONSOLE" class="io.github.spool.logback.SpoolAppender">
 *   <target>System.out</target>
 *   <encoder class="io.github.spool.logback.SpoolEncoder">
 *     <pattern>%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n</pattern>
 *   </encoder>
 * </appender>
 * }</pre>
 *
 * <p>Every event is encoded on the calling thread, inside {@link #append}, and only the finished
 * bytes enter the ring. Nothing of the event is read later on another thread, so the appender needs
 * no {@code ILoggingEvent.prepareForDeferredProcessing()} (which {@code AsyncAppender} must call to
 * snapshot the MDC, the thread name and the formatted message before it queues the event object).
 *
 * <p>With a {@link SpoolEncoder} the event is encoded straight into a per-thread
 * {@link ByteLineBuilder} and copied into the ring from there: no {@code byte[]} per event. With any
 * other encoder ({@code PatternLayoutEncoder}, logstash-logback-encoder, ...) the appender takes the
 * {@code byte[]} that {@link Encoder#encode} returns.
 *
 * <p>Settings are plain strings so that {@link #start()} can validate all of them and report a
 * bad one by name through logback's status manager; the appender then stays stopped.
 */
public class SpoolAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {

    /** The pattern of the default {@link SpoolEncoder}: full date, thread, level, abbreviated logger. */
    public static final String DEFAULT_PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n";

    /** Per-thread builders larger than this are dropped after use instead of being kept. */
    private static final int MAX_RETAINED_BUILDER = 64 * 1024;

    private static final String SYSTEM_OUT = "System.out";
    private static final String SYSTEM_ERR = "System.err";

    private Encoder<ILoggingEvent> encoder;
    private String target;
    private String file;
    private String bufferSize;
    private String maxBufferSize;
    private String overflowPolicy;
    private String discardThreshold;
    private long stopTimeoutMillis = Spool.DEFAULT_STOP_TIMEOUT_MILLIS;

    private volatile Spool spool;
    private SpoolEncoder spoolEncoder;
    private volatile boolean warnedClosed;

    /**
     * One builder per thread, marked busy while in use so a re-entrant log call gets its own. Owned
     * by the appender, not by the threads: a pool thread keeps no Spool object once the appender is
     * gone (redeploy in a container).
     */
    private final OwnedThreadLocal<Scratch> scratch = OwnedThreadLocal.withInitial(Scratch::new);

    /** Creates an appender; configure it, then {@link #start()} it. */
    public SpoolAppender() {
    }

    /** @param encoder the encoder; {@code null} (the default) means a {@link SpoolEncoder} with {@link #DEFAULT_PATTERN} */
    public void setEncoder(Encoder<ILoggingEvent> encoder) {
        this.encoder = encoder;
    }

    /** @return the encoder, or {@code null} before {@link #start()} if none was configured */
    public Encoder<ILoggingEvent> getEncoder() {
        return encoder;
    }

    /** @param target {@code System.out} (the default) or {@code System.err}, as in {@code ConsoleAppender} */
    public void setTarget(String target) {
        this.target = target;
    }

    /** @return the configured target, or {@code null} if not set */
    public String getTarget() {
        return target;
    }

    /** @param file a file to append to instead of standard output; excludes {@code target} */
    public void setFile(String file) {
        this.file = file;
    }

    /** @return the configured file, or {@code null} */
    public String getFile() {
        return file;
    }

    /** @param bufferSize initial ring size: bytes or logback {@code FileSize} syntax ({@code 1MB}); default 1 MiB */
    public void setBufferSize(String bufferSize) {
        this.bufferSize = bufferSize;
    }

    /** @param maxBufferSize hard cap of the ring, same syntax as {@code bufferSize}; default 32 MiB */
    public void setMaxBufferSize(String maxBufferSize) {
        this.maxBufferSize = maxBufferSize;
    }

    /** @param overflowPolicy {@code BLOCK} (default) or {@code DISCARD}, case-insensitive */
    public void setOverflowPolicy(String overflowPolicy) {
        this.overflowPolicy = overflowPolicy;
    }

    /** @param discardThreshold a logback level name; with {@code DISCARD}, this level and below may be dropped; default {@code INFO} */
    public void setDiscardThreshold(String discardThreshold) {
        this.discardThreshold = discardThreshold;
    }

    /** @param millis longest wait of {@link #stop()} for the ring to drain; default 10,000 */
    public void setStopTimeoutMillis(long millis) {
        this.stopTimeoutMillis = millis;
    }

    /**
     * Validates the settings, starts the default encoder if none was configured, and starts the
     * Spool. On a bad setting it reports an error naming the setting and stays stopped.
     */
    @Override
    public void start() {
        if (isStarted()) {
            return;
        }
        SpoolConfig config;
        try {
            config = buildConfig();
        } catch (IllegalArgumentException e) {
            addError("SpoolAppender [" + name + "] not started: " + e.getMessage());
            return;
        }
        if (encoder == null) {
            SpoolEncoder defaultEncoder = new SpoolEncoder();
            defaultEncoder.setContext(context);
            defaultEncoder.setPattern(DEFAULT_PATTERN);
            defaultEncoder.start();
            encoder = defaultEncoder;
            addInfo("SpoolAppender [" + name + "] uses the default SpoolEncoder with pattern " + DEFAULT_PATTERN);
        }
        if (!encoder.isStarted()) {
            addError("SpoolAppender [" + name + "] not started: its encoder " + encoder.getClass().getName() + " failed to start (see the errors above)");
            return;
        }
        spoolEncoder = encoder instanceof SpoolEncoder ? (SpoolEncoder) encoder : null;
        try {
            spool = Spool.start(config);
        } catch (IOException | RuntimeException e) {
            addError("SpoolAppender [" + name + "] not started: cannot open " + describeSink(config), e);
            return;
        }
        warnedClosed = false;
        byte[] header = encoder.headerBytes();
        if (header != null && header.length > 0) {
            spool.append(header, 0, header.length, Severity.FATAL);
        }
        super.start();
    }

    private SpoolConfig buildConfig() {
        String appenderName = name == null ? "spool" : name;
        // The context name keeps the JMX names of two contexts' same-named appenders apart.
        String contextName = context == null ? null : context.getName();
        SpoolConfig.Builder b = SpoolConfig.builder(appenderName)
                .context(contextName == null || contextName.isEmpty() ? SpoolConfig.DEFAULT_CONTEXT : contextName);
        if (file != null && !file.isBlank()) {
            if (target != null && !target.isBlank()) {
                throw new IllegalArgumentException("set either 'target' (" + target + ") or 'file' (" + file + "), not both");
            }
            Path path;
            try {
                path = Paths.get(file.trim());
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("'file' " + file + " is not a valid path: " + e.getMessage());
            }
            b.file(path);
        } else {
            b.target(parseTarget(target));
        }
        if (bufferSize != null) {
            b.bufferSize(parseSize("bufferSize", bufferSize));
        }
        if (maxBufferSize != null) {
            b.maxBufferSize(parseSize("maxBufferSize", maxBufferSize));
        }
        if (overflowPolicy != null) {
            b.overflowPolicy(parsePolicy(overflowPolicy));
        }
        if (discardThreshold != null) {
            b.discardThreshold(parseThreshold(discardThreshold));
        }
        if (stopTimeoutMillis < 0) {
            throw new IllegalArgumentException("'stopTimeoutMillis' " + stopTimeoutMillis + " is negative");
        }
        b.statusListener(new StatusRouter());
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            // core names the setting (bufferSize, maxBufferSize); quote it the way logback users write it
            throw new IllegalArgumentException("bad setting: " + e.getMessage());
        }
    }

    static SpoolConfig.Target parseTarget(String target) {
        if (target == null || target.isBlank() || SYSTEM_OUT.equalsIgnoreCase(target.trim())) {
            return SpoolConfig.Target.STDOUT;
        }
        if (SYSTEM_ERR.equalsIgnoreCase(target.trim())) {
            return SpoolConfig.Target.STDERR;
        }
        throw new IllegalArgumentException("'target' " + target + " is not one of System.out, System.err (use 'file' for a file)");
    }

    static long parseSize(String setting, String value) {
        return ByteSize.parse("'" + setting + "'", value);
    }

    static OverflowPolicy parsePolicy(String value) {
        try {
            return OverflowPolicy.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'overflowPolicy' " + value + " is not one of BLOCK, DISCARD");
        }
    }

    static int parseThreshold(String value) {
        Level level = Level.toLevel(value.trim(), null);
        if (level == null || level.levelInt < Level.TRACE_INT || level.levelInt > Level.ERROR_INT) { // not ALL, OFF
            throw new IllegalArgumentException("'discardThreshold' " + value + " is not one of TRACE, DEBUG, INFO, WARN, ERROR");
        }
        return severityOf(level);
    }

    /**
     * Maps a logback level onto core's {@link Severity}.
     *
     * @param level a logback level
     * @return its severity; levels above ERROR map to FATAL
     */
    static int severityOf(Level level) {
        switch (level.levelInt) {
            case Level.TRACE_INT:
                return Severity.TRACE;
            case Level.DEBUG_INT:
                return Severity.DEBUG;
            case Level.INFO_INT:
                return Severity.INFO;
            case Level.WARN_INT:
                return Severity.WARN;
            case Level.ERROR_INT:
                return Severity.ERROR;
            default:
                return level.levelInt < Level.TRACE_INT ? Severity.TRACE : Severity.FATAL;
        }
    }

    private static String describeSink(SpoolConfig config) {
        return config.target() == SpoolConfig.Target.FILE ? "file " + config.file() : config.target().toString();
    }

    /** Encodes the event on the caller's thread and hands the bytes to the ring. */
    @Override
    protected void append(ILoggingEvent event) {
        Spool s = spool;
        if (s == null) {
            return;
        }
        int severity = severityOf(event.getLevel());
        AppendResult result;
        SpoolEncoder fast = spoolEncoder;
        if (fast != null) {
            Scratch sc = scratch.get();
            // A toString() of an argument that logs re-enters on this thread while the outer event
            // is half encoded in sc.line: give the inner event a builder of its own.
            ByteLineBuilder line = sc.busy ? new ByteLineBuilder(Scratch.INITIAL) : sc.line;
            boolean owner = !sc.busy;
            sc.busy = true;
            try {
                line.reset();
                fast.encodeTo(event, line);
                if (line.length() == 0) {
                    return; // a pattern logback rejected prints "": nothing to write, as below
                }
                result = s.append(line.array(), 0, line.length(), severity);
            } finally {
                if (owner) {
                    // Empty it now, not at this thread's next event: after a huge line reset()
                    // drops the big array, which an idle pool thread would otherwise pin for good.
                    sc.line.reset();
                    sc.busy = false;
                }
            }
        } else {
            byte[] bytes = encoder.encode(event);
            if (bytes == null || bytes.length == 0) {
                return;
            }
            result = s.append(bytes, 0, bytes.length, severity);
        }
        if (result == AppendResult.CLOSED && !warnedClosed) {
            warnedClosed = true;
            addWarn("SpoolAppender [" + name + "] received an event while stopping; it was not written");
        }
    }

    /**
     * Stops taking events, writes the encoder's footer, and drains the ring through
     * {@link Spool#stop(long, TimeUnit)} with the bounded wait {@code stopTimeoutMillis}. Called by
     * {@code LoggerContext.stop()}, by logback's {@code shutdownHook} and by reconfiguration
     * ({@code LoggerContext.reset()}), so each of them drains.
     */
    @Override
    public void stop() {
        if (!isStarted()) {
            return;
        }
        super.stop();
        Spool s = spool;
        if (s == null) {
            return;
        }
        byte[] footer = encoder.footerBytes();
        if (footer != null && footer.length > 0) {
            s.append(footer, 0, footer.length, Severity.FATAL);
        }
        boolean drained = s.stop(stopTimeoutMillis, TimeUnit.MILLISECONDS);
        if (!drained) {
            addWarn("SpoolAppender [" + name + "] stopped before its buffer drained within " + stopTimeoutMillis + " ms");
        }
        spool = null;
    }

    /** @return the running Spool, or {@code null}; for tests in this package */
    Spool spoolForTest() {
        return spool;
    }

    /** Routes core's status messages to logback's status manager under this appender's name. */
    private final class StatusRouter implements StatusListener {
        @Override
        public void status(StatusListener.Level level, String message, Throwable cause) {
            switch (level) {
                case ERROR:
                    addError(message, cause);
                    break;
                case WARN:
                    addWarn(message, cause);
                    break;
                default:
                    addInfo(message, cause);
            }
        }
    }

    /** A thread's reusable builder and whether it is in use (re-entrant logging). */
    private static final class Scratch {
        static final int INITIAL = 512;
        // reset() drops an array grown past MAX_RETAINED_BUILDER by a huge line
        final ByteLineBuilder line = new ByteLineBuilder(INITIAL, MAX_RETAINED_BUILDER);
        boolean busy;
    }
}
