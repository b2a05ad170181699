package io.github.spool;

import io.github.spool.io.RecordRenderer;
import io.github.spool.io.rolling.RollingPolicy;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Immutable settings of one Spool appender. Built with {@link #builder(String)}; {@link
 * Builder#build()} validates everything and throws {@link IllegalArgumentException} with a message
 * that names the bad setting, so adapters can report configuration errors at start-up.
 */
public final class SpoolConfig {

    /** Where the writer writes. */
    public enum Target {
        /** File descriptor 1, through a channel on {@link java.io.FileDescriptor#out}. */
        STDOUT,
        /** File descriptor 2, through a channel on {@link java.io.FileDescriptor#err}. */
        STDERR,
        /** A file, opened in append mode unless {@link Builder#append(boolean) append} is off. */
        FILE
    }

    /** Default initial ring size: 1 MiB, four cells of 256 KiB. */
    public static final long DEFAULT_BUFFER_SIZE = 1L << 20;
    /** Default hard cap: 32 MiB. */
    public static final long DEFAULT_MAX_BUFFER_SIZE = 32L << 20;
    /** Smallest accepted {@code bufferSize}: two cells of the smallest cell size. */
    public static final long MIN_BUFFER_SIZE = 8L << 10;
    /** Largest accepted {@code bufferSize} and {@code maxBufferSize}: 1 TiB. */
    public static final long MAX_BUFFER_LIMIT = 1L << 40;
    /** The system property giving every appender's default writer nap, in microseconds. */
    public static final String WRITER_NAP_PROPERTY = "spool.writerNapMicros";
    /** Default writer nap without {@value #WRITER_NAP_PROPERTY}: 5 ms. */
    public static final long DEFAULT_WRITER_NAP_MICROS = 5_000;
    /** Longest accepted writer nap: 1 s, the writer's housekeeping period. */
    public static final long MAX_WRITER_NAP_MICROS = 1_000_000;
    /** Logging context of an appender whose framework names none (as logback's default context). */
    public static final String DEFAULT_CONTEXT = "default";

    private final String name;
    private final String context;
    private final Object contextIdentity;
    private final Target target;
    private final Path file;
    private final long bufferSize;
    private final long maxBufferSize;
    private final OverflowPolicy overflowPolicy;
    private final int discardThreshold;
    private final StatusListener statusListener;
    private final boolean follow;
    private final boolean append;
    private final RollingPolicy rolling;
    private final RecordRenderer renderer;
    private final long writerNapMicros;

    private SpoolConfig(Builder b) {
        this.name = b.name;
        this.context = b.context;
        this.contextIdentity = b.contextIdentity;
        this.target = b.target;
        this.file = b.file;
        this.bufferSize = b.bufferSize;
        this.maxBufferSize = b.maxBufferSize;
        this.overflowPolicy = b.overflowPolicy;
        this.discardThreshold = b.discardThreshold;
        this.statusListener = b.statusListener;
        this.renderer = b.renderer;
        this.follow = b.follow;
        this.append = b.append;
        this.rolling = b.rolling;
        this.writerNapMicros = b.writerNapMicros >= 0 ? b.writerNapMicros : jvmWriterNapMicros(DEFAULT_WRITER_NAP_MICROS);
    }

    /**
     * The writer nap the JVM sets for appenders that set none: {@value #WRITER_NAP_PROPERTY} if
     * given, clamped to 1..{@value #MAX_WRITER_NAP_MICROS} (not rejected: no appender can report a
     * bad JVM setting), else {@code fallback}.
     *
     * @param fallback the nap without the property, microseconds
     * @return microseconds
     */
    public static long jvmWriterNapMicros(long fallback) {
        final Long jvm = Long.getLong(WRITER_NAP_PROPERTY);
        return jvm == null ? fallback : clampWriterNapMicros(jvm);
    }

    /** @return {@code micros} brought into 1..{@value #MAX_WRITER_NAP_MICROS} */
    static long clampWriterNapMicros(long micros) {
        return Math.min(MAX_WRITER_NAP_MICROS, Math.max(1, micros));
    }

    /**
     * Starts a builder.
     *
     * @param name the appender's name (used in status messages and the JMX object name)
     * @return a builder with every other setting at its default
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** @return the appender's name */
    public String name() {
        return name;
    }

    /** @return the logging context the appender belongs to (part of its JMX object name) */
    public String context() {
        return context;
    }

    /** @return the logging context itself, or {@code null} if the adapter named none */
    public Object contextIdentity() {
        return contextIdentity;
    }

    /** @return where the writer writes */
    public Target target() {
        return target;
    }

    /** @return the file for {@link Target#FILE}, else {@code null} */
    public Path file() {
        return file;
    }

    /** @return the initial ring size in bytes */
    public long bufferSize() {
        return bufferSize;
    }

    /** @return the hard cap of the ring in bytes */
    public long maxBufferSize() {
        return maxBufferSize;
    }

    /** @return what producers do at the cap */
    public OverflowPolicy overflowPolicy() {
        return overflowPolicy;
    }

    /** @return the most severe {@link Severity} that {@link OverflowPolicy#DISCARD} may drop */
    public int discardThreshold() {
        return discardThreshold;
    }

    /** @return where status messages go */
    public StatusListener statusListener() {
        return statusListener;
    }

    /**
     * @return whether batches for {@link Target#STDOUT}/{@link Target#STDERR} (and a file's stderr
     *         fallback) go through the current {@code System.out}/{@code System.err}
     */
    public boolean follow() {
        return follow;
    }

    /** @return {@code false} if a {@link Target#FILE} is truncated when first opened */
    public boolean append() {
        return append;
    }

    /** @return what renders the records on the writer thread, or {@code null} when records are text */
    public RecordRenderer renderer() {
        return renderer;
    }

    /**
     * @return how long the writer naps between passes while lines trickle in, microseconds: the
     *         longest a line waits before the writer picks it up
     */
    public long writerNapMicros() {
        return writerNapMicros;
    }

    /** @return how the file rolls, or {@code null} for a file that does not roll (or no file) */
    public RollingPolicy rolling() {
        return rolling;
    }

    /** Collects settings; not thread-safe. */
    public static final class Builder {
        private final String name;
        private String context = DEFAULT_CONTEXT;
        private Object contextIdentity;
        private Target target = Target.STDOUT;
        private Path file;
        private long bufferSize = DEFAULT_BUFFER_SIZE;
        private long maxBufferSize = DEFAULT_MAX_BUFFER_SIZE;
        private OverflowPolicy overflowPolicy = OverflowPolicy.BLOCK;
        private int discardThreshold = Severity.INFO;
        private StatusListener statusListener = StatusListener.STDERR;
        private boolean follow;
        private boolean append = true;
        private RollingPolicy rolling;
        private RecordRenderer renderer;
        /** -1: not set, the JVM-wide default applies. */
        private long writerNapMicros = -1;

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Names the logging context the appender belongs to, so that same-named appenders of two
         * contexts (one per web application, say) have distinct JMX object names.
         *
         * @param context log4j2's {@code LoggerContext} name or logback's context name; default
         *                {@link #DEFAULT_CONTEXT}
         * @return this builder
         */
        public Builder context(String context) {
            this.context = Objects.requireNonNull(context, "context");
            return this;
        }

        /**
         * Tells which logging context the appender belongs to, beside its name: two contexts of
         * the same name (two web applications that leave logback's context unnamed, both
         * {@code default}) then get distinct JMX object names, and a reconfiguration of one is
         * told apart from the other (metrics.JmxRegistry). Held weakly there.
         *
         * @param identity log4j2's or logback's {@code LoggerContext}; default {@code null} (the
         *                 name is the identity)
         * @return this builder
         */
        public Builder contextIdentity(Object identity) {
            this.contextIdentity = identity;
            return this;
        }

        /**
         * Writes to standard output or standard error.
         *
         * @param target {@link Target#STDOUT} or {@link Target#STDERR}
         * @return this builder
         */
        public Builder target(Target target) {
            if (target == Target.FILE) {
                throw new IllegalArgumentException("use file(Path) to write to a file");
            }
            this.target = Objects.requireNonNull(target, "target");
            this.file = null;
            this.rolling = null;
            return this;
        }

        /**
         * Writes to a file, opened in append mode (created with its parent directories if missing);
         * if it cannot be opened, the writer falls back to stderr and retries it ({@link
         * io.github.spool.io.FileFallbackSink}).
         *
         * @param file the file
         * @return this builder
         */
        public Builder file(Path file) {
            this.file = Objects.requireNonNull(file, "file");
            this.target = Target.FILE;
            this.rolling = null;
            return this;
        }

        /**
         * @param bytes initial ring size, at least {@link #MIN_BUFFER_SIZE}
         * @return this builder
         */
        public Builder bufferSize(long bytes) {
            this.bufferSize = bytes;
            return this;
        }

        /**
         * @param bytes hard cap of the ring, at least {@code bufferSize}
         * @return this builder
         */
        public Builder maxBufferSize(long bytes) {
            this.maxBufferSize = bytes;
            return this;
        }

        /**
         * @param policy what producers do at the cap
         * @return this builder
         */
        public Builder overflowPolicy(OverflowPolicy policy) {
            this.overflowPolicy = Objects.requireNonNull(policy, "overflowPolicy");
            return this;
        }

        /**
         * @param severity the most severe {@link Severity} that {@link OverflowPolicy#DISCARD} drops
         * @return this builder
         */
        public Builder discardThreshold(int severity) {
            this.discardThreshold = Severity.check(severity);
            return this;
        }

        /**
         * @param listener where status messages go
         * @return this builder
         */
        public Builder statusListener(StatusListener listener) {
            this.statusListener = Objects.requireNonNull(listener, "statusListener");
            return this;
        }

        /**
         * Writes each batch through the {@code System.out}/{@code System.err} current at that batch
         * instead of fd 1/fd 2, so that whatever replaced them (a test framework, an output
         * capture, an IDE) sees the lines; still batched, still on the writer thread.
         *
         * @param follow {@code true} to follow; default {@code false}
         * @return this builder
         */
        public Builder follow(boolean follow) {
            this.follow = follow;
            return this;
        }

        /**
         * @param append {@code false} to truncate a {@link Target#FILE} when it is first opened;
         *               default {@code true}
         * @return this builder
         */
        public Builder append(boolean append) {
            this.append = append;
            return this;
        }

        /**
         * Writes to a rolling file: the policy's active file (or, without one, the file its
         * pattern names for the current period).
         *
         * @param policy how the file rolls
         * @return this builder
         */
        public Builder rolling(RollingPolicy policy) {
            this.rolling = Objects.requireNonNull(policy, "policy");
            this.file = policy.activeFile();
            this.target = Target.FILE;
            return this;
        }

        /**
         * How long the writer naps between passes while lines trickle in: the longest a line
         * waits before the writer picks it up, and the rate at which a writer with lines to
         * write wakes. A cell that fills wakes the writer at once whatever the nap. Longer naps
         * cost the machine fewer wake-ups (on 2 vCPUs each costs tens of microseconds of CPU and
         * can preempt an application thread) and lose more lines to a SIGKILL; the exit drain
         * writes everything either way.
         *
         * @param micros 1 to {@value #MAX_WRITER_NAP_MICROS}; default {@value #WRITER_NAP_PROPERTY}
         *               or {@value #DEFAULT_WRITER_NAP_MICROS}
         * @return this builder
         */
        public Builder writerNapMicros(long micros) {
            this.writerNapMicros = micros;
            return this;
        }

        /**
         * Renders records on the writer thread: producers append what {@code renderer} reads (an
         * adapter's captured events) instead of finished text. Adapters only.
         *
         * @param renderer the renderer, or {@code null} for text records (the default)
         * @return this builder
         */
        public Builder renderer(RecordRenderer renderer) {
            this.renderer = renderer;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the configuration
         * @throws IllegalArgumentException naming the first bad setting
         */
        public SpoolConfig build() {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name must not be empty");
            }
            if (bufferSize < MIN_BUFFER_SIZE) {
                throw new IllegalArgumentException("bufferSize " + bufferSize + " is below the minimum of " + MIN_BUFFER_SIZE + " bytes");
            }
            if (maxBufferSize < bufferSize) {
                throw new IllegalArgumentException("maxBufferSize " + maxBufferSize + " is below bufferSize " + bufferSize);
            }
            if (bufferSize > MAX_BUFFER_LIMIT || maxBufferSize > MAX_BUFFER_LIMIT) {
                throw new IllegalArgumentException("bufferSize/maxBufferSize above 1 TiB");
            }
            if (writerNapMicros != -1 && (writerNapMicros < 1 || writerNapMicros > MAX_WRITER_NAP_MICROS)) {
                throw new IllegalArgumentException("writerNapMicros " + writerNapMicros + " is outside 1.."
                        + MAX_WRITER_NAP_MICROS);
            }
            return new SpoolConfig(this);
        }
    }

    /**
     * This configuration with a smaller initial ring: how an appender starts when the JVM has too
     * little direct memory for {@link #bufferSize()} (Spool.start). Everything else is kept.
     *
     * @param bytes the initial ring bytes, at least {@link #MIN_BUFFER_SIZE}
     * @return the copy
     */
    SpoolConfig withBufferSize(long bytes) {
        Builder b = new Builder(name);
        b.context = context;
        b.contextIdentity = contextIdentity;
        b.target = target;
        b.file = file;
        b.bufferSize = bytes;
        b.maxBufferSize = maxBufferSize;
        b.overflowPolicy = overflowPolicy;
        b.discardThreshold = discardThreshold;
        b.statusListener = statusListener;
        b.follow = follow;
        b.append = append;
        b.rolling = rolling;
        b.renderer = renderer;
        b.writerNapMicros = writerNapMicros;
        return b.build();
    }

    @Override
    public String toString() {
        return "SpoolConfig{name=" + name + ", context=" + context + ", target=" + (target != Target.FILE ? target : file != null ? file : rolling.filePattern())
                + ", bufferSize=" + bufferSize + ", maxBufferSize=" + maxBufferSize
                + ", overflowPolicy=" + overflowPolicy + ", discardThreshold=" + Severity.name(discardThreshold)
                + ", writerNapMicros=" + writerNapMicros
                + (rolling != null ? ", rolling=" + rolling : "") + (follow ? ", follow=true" : "") + (renderer != null ? ", render=writer" : "") + (append ? "" : ", append=false") + '}';
    }
}
