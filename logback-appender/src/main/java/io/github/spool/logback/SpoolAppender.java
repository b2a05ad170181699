package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Layout;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import io.github.spool.AppendResult;
import io.github.spool.OverflowPolicy;
import io.github.spool.RenderMode;
import io.github.spool.OwnedThreadLocal;
import io.github.spool.SettingsReader;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;
import io.github.spool.StatusListener;
import io.github.spool.io.rolling.RollingPolicy;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import java.io.IOException;
import java.nio.file.Paths;
import java.util.Arrays;
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
 * <p>With a {@link SpoolEncoder} or {@link SpoolJsonEncoder} the event is encoded straight into a per-thread
 * {@link ByteLineBuilder} and copied into the ring from there: no {@code byte[]} per event. With any
 * other encoder ({@code PatternLayoutEncoder}, logstash-logback-encoder, ...) the appender takes the
 * {@code byte[]} that {@link Encoder#encode} returns.
 *
 * <p>Settings are plain strings so that {@link #start()} reads all of them itself: a value that
 * cannot be parsed is an ERROR status naming it and the default is used, a value below a minimum
 * is raised to it with a WARN, and the appender starts all the same ({@link SettingsReader}).
 * Joran would skip a bad {@code boolean} or {@code int} with only a WARN. Settings users bring
 * from {@code ConsoleAppender}, {@code FileAppender} and {@code AsyncAppender} are accepted with
 * the meaning docs/logback.md gives each, or a WARN saying why they do not apply.
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
    private boolean stopTimeoutSet;
    private String follow;
    private String immediateFlush;
    private String append;
    private String prudent;
    private String withJansi;
    private String queueSize;
    private String neverBlock;
    private String discardingThreshold;
    private String includeCallerData;
    private String maxFlushTime;
    private String render;
    private String writerNapMicros;
    /** {@code render} as read at start. */
    private RenderMode renderSetting = RenderMode.AUTO;
    /** Whether events are captured and rendered on the writer ({@link WriterRenderer}). */
    private boolean capture;
    /** The MDC entries a capture copies ({@link SpoolEncoder#capturedMdcKeys()}). */
    private String[] mdcKeys;
    private final RollingElements rolling = new RollingElements();
    /** What {@link #stop()} waits, as read at start from {@code stopTimeoutMillis}/{@code maxFlushTime}. */
    private long effectiveStopTimeoutMillis = Spool.DEFAULT_STOP_TIMEOUT_MILLIS;

    private volatile Spool spool;
    /** The encoder when it is one of Spool's (byte path, render on the writer), else {@code null}. */
    private LineEncoder spoolEncoder;
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
        this.stopTimeoutSet = true;
    }

    /**
     * @param follow {@code true} to write each batch through the current {@code System.out}/{@code
     *               System.err} (what {@code ConsoleAppender} always does), so test frameworks and
     *               output captures see the lines; default {@code false}: fd 1/fd 2 directly
     */
    public void setFollow(String follow) {
        this.follow = follow;
    }

    /**
     * A {@code <layout>} as {@code ConsoleAppender} still takes it: wrapped in a {@link
     * LayoutWrappingEncoder}, as {@code OutputStreamAppender.setLayout} does.
     *
     * @param layout the layout
     */
    public void setLayout(Layout<ILoggingEvent> layout) {
        LayoutWrappingEncoder<ILoggingEvent> wrapper = new LayoutWrappingEncoder<>();
        wrapper.setLayout(layout);
        wrapper.setContext(context);
        this.encoder = wrapper;
    }

    /** @param immediateFlush accepted from {@code OutputStreamAppender}; Spool writes every batch at once anyway */
    public void setImmediateFlush(String immediateFlush) {
        this.immediateFlush = immediateFlush;
    }

    /** @param append {@code false} truncates {@code file} at start, as in {@code FileAppender}; default {@code true} */
    public void setAppend(String append) {
        this.append = append;
    }

    /** @param prudent from {@code FileAppender}; not supported (a WARN says so), implies {@code append} */
    public void setPrudent(String prudent) {
        this.prudent = prudent;
    }

    /** @param withJansi from {@code ConsoleAppender}; not supported (a WARN says so) */
    public void setWithJansi(String withJansi) {
        this.withJansi = withJansi;
    }

    /** @param queueSize from {@code AsyncAppender}: an event count, no byte meaning; ignored with a WARN */
    public void setQueueSize(String queueSize) {
        this.queueSize = queueSize;
    }

    /** @param neverBlock from {@code AsyncAppender}: {@code true} means {@code overflowPolicy} DISCARD for every level */
    public void setNeverBlock(String neverBlock) {
        this.neverBlock = neverBlock;
    }

    /** @param discardingThreshold from {@code AsyncAppender}: above 0 means DISCARD of INFO and below; 0 means BLOCK */
    public void setDiscardingThreshold(String discardingThreshold) {
        this.discardingThreshold = discardingThreshold;
    }

    /** @param includeCallerData from {@code AsyncAppender}; caller data is computed on the logging thread anyway */
    public void setIncludeCallerData(String includeCallerData) {
        this.includeCallerData = includeCallerData;
    }

    /** @param maxFlushTime from {@code AsyncAppender}: milliseconds, used as {@code stopTimeoutMillis} */
    public void setMaxFlushTime(String maxFlushTime) {
        this.maxFlushTime = maxFlushTime;
    }

    /**
     * @param render where lines are rendered: {@code caller} (the logging thread), {@code writer}
     *               (the logging thread copies the event's fields, the writer thread renders the
     *               line) or {@code auto} (the default: the writer when the JVM has 2 or more
     *               processors and the encoder is a {@link SpoolEncoder} or {@link SpoolJsonEncoder} that renders from a captured
     *               event, else the caller; {@link RenderMode#wantsWriter()})
     */
    public void setRender(String render) {
        this.render = render;
    }

    /**
     * @param writerNapMicros how long the writer thread sleeps after a pass that found nothing,
     *                        1..1,000,000 µs (default: the JVM's {@code spool.writerNapMicros}, else
     *                        5,000): the longest a line waits to be written while lines trickle in,
     *                        and what a SIGKILL can lose
     */
    public void setWriterNapMicros(String writerNapMicros) {
        this.writerNapMicros = writerNapMicros;
    }

    /**
     * {@code <rollingPolicy class="ch.qos.logback.core.rolling....">}, as written for
     * {@code RollingFileAppender}: a container. Joran hands the elements nested in it to this
     * appender's setters of the same names ({@link RollingElements}); its text is ignored.
     *
     * @param ignored the element's text
     */
    public void setRollingPolicy(String ignored) {
        // the nested elements carry the settings
    }

    /** @param ignored {@code <triggeringPolicy>}'s text; its nested {@code <maxFileSize>} is read */
    public void setTriggeringPolicy(String ignored) {
        // the nested elements carry the settings
    }

    /** @param ignored the deprecated {@code <timeBasedFileNamingAndTriggeringPolicy>}'s text; its nested elements are read */
    public void setTimeBasedFileNamingAndTriggeringPolicy(String ignored) {
        // the nested elements carry the settings
    }

    /** @param fileNamePattern archive names: {@code %d{...}}, {@code %i}, a {@code .gz} or {@code .zip} suffix */
    public void setFileNamePattern(String fileNamePattern) {
        rolling.fileNamePattern = fileNamePattern;
    }

    /** @param maxFileSize size at which the file rolls (with {@code %i}) */
    public void setMaxFileSize(String maxFileSize) {
        rolling.maxFileSize = maxFileSize;
    }

    /** @param maxHistory periods of archives kept */
    public void setMaxHistory(String maxHistory) {
        rolling.maxHistory = maxHistory;
    }

    /** @param totalSizeCap most bytes of archives kept (with maxHistory) */
    public void setTotalSizeCap(String totalSizeCap) {
        rolling.totalSizeCap = totalSizeCap;
    }

    /** @param cleanHistoryOnStart whether retention also runs at start */
    public void setCleanHistoryOnStart(String cleanHistoryOnStart) {
        rolling.cleanHistoryOnStart = cleanHistoryOnStart;
    }

    /** @param minIndex lowest index of a fixed window */
    public void setMinIndex(String minIndex) {
        rolling.minIndex = minIndex;
    }

    /** @param maxIndex highest index of a fixed window */
    public void setMaxIndex(String maxIndex) {
        rolling.maxIndex = maxIndex;
    }

    /** @param checkIncrement {@code SizeBasedTriggeringPolicy}'s check interval; not needed (an INFO says so) */
    public void setCheckIncrement(String checkIncrement) {
        rolling.checkIncrement = checkIncrement;
    }

    /**
     * Reads the settings (a bad or out-of-range value is reported and replaced, never fatal: see
     * {@link SettingsReader}), starts the default encoder if none was configured, and starts the
     * Spool. A file that cannot be opened is reported and written to stderr until it opens.
     */
    @Override
    public void start() {
        if (isStarted()) {
            return;
        }
        StatusRouter status = new StatusRouter();
        SpoolConfig.Builder settings = buildConfig(status);
        if (encoder == null) {
            SpoolEncoder defaultEncoder = new SpoolEncoder();
            defaultEncoder.setContext(context);
            defaultEncoder.setPattern(DEFAULT_PATTERN);
            defaultEncoder.start();
            encoder = defaultEncoder;
            addInfo("SpoolAppender [" + name + "] uses the default SpoolEncoder with pattern " + DEFAULT_PATTERN);
        }
        if (encoder instanceof LayoutWrappingEncoder && !encoder.isStarted()) {
            encoder.start(); // made by setLayout, which no configurator starts
        }
        if (!encoder.isStarted()) {
            addError("SpoolAppender [" + name + "] not started: its encoder " + encoder.getClass().getName() + " failed to start (see the errors above)");
            return;
        }
        spoolEncoder = LineEncoder.of(encoder);
        capture = renderMode(new SettingsReader(name == null ? "spool" : name, status), settings);
        if (capture) {
            mdcKeys = spoolEncoder.capturedMdcKeys();
        }
        SpoolConfig config = settings.build();
        if (!claimFiles(config)) {
            return;
        }
        try {
            spool = Spool.start(config);
        } catch (IOException | RuntimeException | Error e) {
            // Errors too: an OutOfMemoryError (no direct memory even for core's smallest ring, no
            // thread) must not reach the logging call that configured us.
            FileClaims.release(context, String.valueOf(name));
            addError("SpoolAppender [" + name + "] not started: cannot start on " + describeSink(config), e);
            return;
        }
        warnedClosed = false;
        byte[] header = encoder.headerBytes();
        if (header != null && header.length > 0) {
            appendRaw(spool, header);
        }
        super.start();
    }

    /**
     * Refuses a file or archive pattern another started appender of this context writes, as logback
     * refuses a second {@code RollingFileAppender} on them.
     */
    private boolean claimFiles(SpoolConfig config) {
        if (context == null || config.target() != SpoolConfig.Target.FILE) {
            return true;
        }
        String[] collision = FileClaims.claim(context, String.valueOf(name), file == null ? null : file.trim(),
                config.rolling() == null ? null : config.rolling().filePattern());
        if (collision == null) {
            return true;
        }
        for (String error : collision) {
            addError(error);
        }
        return false;
    }

    private SpoolConfig.Builder buildConfig(StatusListener status) {
        String appenderName = name == null ? "spool" : name;
        SettingsReader r = new SettingsReader(appenderName, status);
        // The context name keeps the JMX names of two contexts' same-named appenders apart.
        String contextName = context == null ? null : context.getName();
        SpoolConfig.Builder b = SpoolConfig.builder(appenderName).statusListener(status)
                .context(contextName == null || contextName.isEmpty() ? SpoolConfig.DEFAULT_CONTEXT : contextName)
                .contextIdentity(context);
        boolean toFile = sink(r, b);
        r.ringSizes(b, bufferSize, maxBufferSize);
        r.writerNap(b, writerNapMicros);
        if (queueSize != null) {
            long events = r.wholeNumber("queueSize", queueSize, -1, "nothing");
            if (events >= 0) {
                r.warn("queueSize " + events + " (AsyncAppender's capacity in events) does not apply: Spool's buffer "
                        + "holds encoded bytes, whatever the number of events; it starts at bufferSize and grows up to "
                        + "maxBufferSize, so set those instead. queueSize is ignored");
            }
        }
        overflow(r, b);
        b.follow(r.flag("follow", follow, false));
        if (!r.flag("immediateFlush", immediateFlush, true)) {
            r.info("immediateFlush false changes nothing: Spool's writer writes each batch as soon as it takes it "
                    + "and batches by itself under load, so nothing waits for a flush");
        }
        boolean prudentOn = r.flag("prudent", prudent, false);
        boolean appendOn = r.flag("append", append, true);
        if (prudentOn) {
            r.warn("prudent mode is not supported: Spool does not lock the file for other processes; its one "
                    + "writer thread appends each batch with O_APPEND. Give each process its own file"
                    + (appendOn ? "" : ". As in FileAppender, prudent implies append: the file is not truncated"));
            appendOn = true;
        }
        if (!appendOn && !toFile) {
            r.warn("append false applies to a file only; ignored for " + (target == null ? "System.out" : target.trim()));
        }
        b.append(appendOn);
        if (r.flag("withJansi", withJansi, false)) {
            r.warn("withJansi is not supported: Spool writes the encoder's bytes to the console as they are, ANSI "
                    + "escape sequences included, without Jansi's Windows translation");
        }
        if (!r.flag("includeCallerData", includeCallerData, true)) {
            r.info("includeCallerData false changes nothing: the encoder runs on the logging thread, so caller "
                    + "data (%caller, %class, %method, %line, %file) is computed whenever the pattern uses it, as "
                    + "with ConsoleAppender");
        }
        effectiveStopTimeoutMillis = stopTimeout(r);
        renderSetting = r.parse(render, RenderMode::parse, RenderMode.AUTO, "the default auto");
        return b;
    }

    /**
     * Renders on the writer thread ({@link WriterRenderer}) when {@code render} asks for it
     * ({@link RenderMode#wantsWriter()}) and the encoder is a {@link SpoolEncoder} whose every
     * conversion renders from a captured event.
     *
     * @return whether events are captured
     */
    private boolean renderMode(SettingsReader r, SpoolConfig.Builder b) {
        if (!renderSetting.wantsWriter()) {
            return false;
        }
        if (spoolEncoder != null && spoolEncoder.rendersFromCapture()) {
            b.renderer(new WriterRenderer(spoolEncoder));
            return true;
        }
        if (renderSetting == RenderMode.AUTO) {
            return false; // auto: the encoder decides, quietly
        }
        r.warn("render \"writer\" needs a SpoolEncoder in UTF-8 whose conversions are all among %d, %level, "
                + "%logger, %thread, %msg, %X, %n, literals and groups of them (" + (spoolEncoder != null
                ? String.join(", ", spoolEncoder.describe()) : encoder.getClass().getName())
                + "); rendering on the calling thread");
        return false;
    }

    /** Sets the target or file; a bad one is an ERROR and falls back. Returns whether it is a file. */
    private boolean sink(SettingsReader r, SpoolConfig.Builder b) {
        if (file == null && rolling.present()) {
            // As RollingFileAppender without <file>: the pattern names the file being written.
            RollingPolicy policy = rolling.read(r, null);
            if (policy != null) {
                if (target != null && !target.isBlank()) {
                    r.warn("both target (" + target + ") and a rolling policy are set; writing the rolling file, "
                            + "target is ignored");
                }
                b.rolling(policy);
                return true;
            }
        }
        if (file == null) {
            b.target(r.parse(target, SpoolAppender::parseTarget, SpoolConfig.Target.STDOUT, "the default System.out"));
            return false;
        }
        if (target != null && !target.isBlank()) {
            r.warn("both target (" + target + ") and file (" + file + ") are set; writing to the file, target is ignored");
        }
        try {
            if (file.isBlank()) {
                throw new IllegalArgumentException("it is empty");
            }
            b.file(Paths.get(file.trim()));
        } catch (IllegalArgumentException e) { // InvalidPathException included
            r.error("file '" + file + "' is not a usable path (" + e.getMessage() + "); writing this appender's lines "
                    + "to stderr instead");
            b.target(SpoolConfig.Target.STDERR);
            return false;
        }
        if (rolling.present()) {
            RollingPolicy policy = rolling.read(r, Paths.get(file.trim()));
            if (policy != null) {
                b.rolling(policy);
            }
        }
        return true;
    }

    /**
     * overflowPolicy and discardThreshold, or AsyncAppender's neverBlock and discardingThreshold
     * mapped onto them; Spool's own names win when both are set.
     */
    private void overflow(SettingsReader r, SpoolConfig.Builder b) {
        boolean neverBlockOn = r.flag("neverBlock", neverBlock, false);
        long slots = r.wholeNumber("discardingThreshold", discardingThreshold, -1, "nothing (it is ignored)");
        OverflowPolicy mapped = null;
        int mappedThreshold = Severity.INFO;
        String because = null;
        if (neverBlockOn) {
            // AsyncAppender's neverBlock offers and drops whatever does not fit, at every level.
            mapped = OverflowPolicy.DISCARD;
            mappedThreshold = Severity.ERROR;
            because = "neverBlock true";
        } else if (slots > 0) {
            // AsyncAppender then drops TRACE, DEBUG and INFO when nearly full; Spool drops at its cap.
            mapped = OverflowPolicy.DISCARD;
            because = "discardingThreshold " + slots;
        } else if (slots == 0 || neverBlock != null) {
            mapped = OverflowPolicy.BLOCK;
            because = slots == 0 ? "discardingThreshold 0" : "neverBlock false";
        }
        OverflowPolicy fallback = mapped == null ? OverflowPolicy.BLOCK : mapped;
        OverflowPolicy policy = r.parse(overflowPolicy, SpoolAppender::parsePolicy, null,
                mapped == null ? "the default BLOCK" : mapped + " (from " + because + ")");
        if (policy != null && mapped != null && policy != mapped) {
            r.warn(because + " (AsyncAppender) would mean overflowPolicy " + mapped + ", but overflowPolicy is set to "
                    + policy + "; using " + policy);
        }
        boolean fromAsync = policy == null && mapped != null;
        policy = policy == null ? fallback : policy;
        int defaultThreshold = fromAsync ? mappedThreshold : Severity.INFO;
        int threshold = r.parse(discardThreshold, SpoolAppender::parseThreshold, defaultThreshold,
                "the default " + Severity.name(defaultThreshold));
        if (fromAsync) {
            r.info(because + " (AsyncAppender) means overflowPolicy " + policy + (policy == OverflowPolicy.BLOCK
                    ? ": nothing is dropped; when the buffer is at maxBufferSize the logging thread waits"
                    : " with discardThreshold " + Severity.name(threshold) + ": when the buffer is at maxBufferSize, "
                    + "events at " + Severity.name(threshold) + " and below are dropped and counted instead of waiting"));
        }
        b.overflowPolicy(policy).discardThreshold(threshold);
    }

    /** stopTimeoutMillis, or AsyncAppender's maxFlushTime when only that is set. */
    private long stopTimeout(SettingsReader r) {
        long timeout = stopTimeoutMillis;
        if (timeout < 0) {
            r.error("stopTimeoutMillis " + timeout + " is negative; using the default " + Spool.DEFAULT_STOP_TIMEOUT_MILLIS);
            timeout = Spool.DEFAULT_STOP_TIMEOUT_MILLIS;
        }
        if (maxFlushTime == null) {
            return timeout;
        }
        long flush = r.wholeNumber("maxFlushTime", maxFlushTime, -1, "stopTimeoutMillis " + timeout);
        if (flush < 0) {
            return timeout;
        }
        if (stopTimeoutSet) {
            r.warn("maxFlushTime " + flush + " (AsyncAppender) and stopTimeoutMillis " + timeout + " are both set; "
                    + "stop() waits at most stopTimeoutMillis");
            return timeout;
        }
        if (flush == 0) {
            r.warn("maxFlushTime 0 makes AsyncAppender wait without limit at stop; Spool always bounds the wait: "
                    + "using stopTimeoutMillis " + timeout);
            return timeout;
        }
        return flush; // the same meaning: how long stop() waits for the buffer to drain
    }

    static SpoolConfig.Target parseTarget(String target) {
        if (target == null || target.isBlank() || SYSTEM_OUT.equalsIgnoreCase(target.trim())) {
            return SpoolConfig.Target.STDOUT;
        }
        if (SYSTEM_ERR.equalsIgnoreCase(target.trim())) {
            return SpoolConfig.Target.STDERR;
        }
        throw new IllegalArgumentException("target '" + target + "' is not one of System.out, System.err (use file for a file)");
    }

    static OverflowPolicy parsePolicy(String value) {
        try {
            return OverflowPolicy.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("overflowPolicy '" + value + "' is not one of BLOCK, DISCARD");
        }
    }

    static int parseThreshold(String value) {
        Level level = Level.toLevel(value.trim(), null);
        if (level == null || level.levelInt < Level.TRACE_INT || level.levelInt > Level.ERROR_INT) { // not ALL, OFF
            throw new IllegalArgumentException("discardThreshold '" + value + "' is not one of TRACE, DEBUG, INFO, WARN, ERROR");
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
        if (config.target() != SpoolConfig.Target.FILE) {
            return config.target().toString();
        }
        return config.file() != null ? "file " + config.file() : "rolling file " + config.rolling().filePattern();
    }

    /** @return scratch buffers made for callers so far (per platform thread; borrowed by virtual ones). For tests. */
    long scratchesMade() {
        return scratch.created();
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
        LineEncoder fast = spoolEncoder;
        if (fast != null) {
            // A platform thread's own scratch; a virtual thread's borrowed for this call.
            Scratch sc = scratch.acquire();
            // A toString() of an argument that logs re-enters on this thread while the outer event
            // is half encoded in sc.line: give the inner event a builder of its own.
            ByteLineBuilder line = sc.busy ? new ByteLineBuilder(Scratch.INITIAL) : sc.line;
            boolean owner = !sc.busy;
            sc.busy = true;
            byte[] parked = null;
            try {
                line.reset();
                if (capture) {
                    if (!fast.capturable(event) || !EventCapture.capture(event, line, sc.ids(), mdcKeys)) {
                        line.reset();
                        RecordCodec.beginText(line);
                        fast.encodeTo(event, line);
                        if (line.length() == RecordCodec.TEXT_HEADER) {
                            return; // nothing to write, as below
                        }
                        RecordCodec.endText(line);
                    }
                } else {
                    fast.encodeTo(event, line);
                    if (line.length() == 0) {
                        return; // a pattern logback rejected prints "": nothing to write, as below
                    }
                }
                if (s.virtualCallerWouldPark()) {
                    // This call will most likely park at the cap: park holding the record's bytes
                    // only, not the scratch (a stall can park every virtual thread there is).
                    parked = Arrays.copyOf(line.array(), line.length());
                    result = null;
                } else {
                    result = s.append(line.array(), 0, line.length(), severity);
                }
            } finally {
                if (owner) {
                    // Empty it now, not at this thread's next event: after a huge line reset()
                    // drops the big array, which an idle pool thread would otherwise pin for good.
                    sc.line.reset();
                    sc.busy = false;
                }
                scratch.release(sc);
            }
            if (parked != null) {
                result = s.append(parked, 0, parked.length, severity);
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
            appendRaw(s, footer);
        }
        boolean drained = s.stop(effectiveStopTimeoutMillis, TimeUnit.MILLISECONDS);
        if (!drained) {
            addWarn("SpoolAppender [" + name + "] stopped before its buffer drained within " + effectiveStopTimeoutMillis + " ms");
        }
        spool = null;
        if (context != null) {
            FileClaims.release(context, String.valueOf(name));
        }
    }

    /** Appends bytes that are not an event's line (header, footer): framed as text when capturing. */
    private void appendRaw(Spool s, byte[] bytes) {
        if (capture) {
            ByteLineBuilder framed = RecordCodec.textRecord(bytes);
            s.append(framed.array(), 0, framed.length(), Severity.FATAL);
        } else {
            s.append(bytes, 0, bytes.length, Severity.FATAL);
        }
    }

    /** @return how long {@link #stop()} waits for the drain; for tests in this package */
    long stopTimeoutForTest() {
        return effectiveStopTimeoutMillis;
    }

    /** @return the running Spool, or {@code null}; for tests in this package */
    Spool spoolForTest() {
        return spool;
    }

    /** Routes core's status messages to logback's status manager under this appender's name. */
    private final class StatusRouter implements StatusListener {
        /**
         * logback keeps status messages in its status manager and prints them only when a status
         * listener is registered ({@code debug="true"}, {@code <statusListener>}) or its own
         * configuration failed: without one, core prints its exit-time loss warnings to stderr.
         */
        @Override
        public boolean shows(StatusListener.Level level) {
            return context != null && !context.getStatusManager().getCopyOfStatusListenerList().isEmpty();
        }

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
        /** This thread's symbol ids, created on its first captured event. */
        private EventCapture.Ids ids;

        EventCapture.Ids ids() {
            if (ids == null) {
                ids = new EventCapture.Ids();
            }
            return ids;
        }
    }
}
