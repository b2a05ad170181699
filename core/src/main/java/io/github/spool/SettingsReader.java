// SPDX-License-Identifier: Apache-2.0
package io.github.spool;

import java.util.function.Function;

/**
 * Reads an appender's settings from configuration text the way both adapters promise: a setting
 * never stops the appender from starting. A value that cannot be parsed is an ERROR status naming
 * the setting and the value, and the default is used; a value below a minimum (or above a limit)
 * is a WARN status naming the setting, the value and what is used instead. Users copy values from
 * the framework's own appenders ({@code bufferSize="1024"} is a byte count in log4j2's Console
 * and logback's file appenders, below Spool's ring minimum); refusing them would leave the
 * application with no logs at all.
 *
 * <p>Messages start with {@code spool appender '<name>': }, as core's other status messages.
 * Called on the thread that configures the appender.
 */
public final class SettingsReader {

    private final String prefix;
    private final StatusListener status;

    /**
     * @param appender the appender's name
     * @param status   where the WARN and ERROR statuses go
     */
    public SettingsReader(String appender, StatusListener status) {
        this.prefix = "spool appender '" + appender + "': ";
        this.status = status;
    }

    /** @param message reported as INFO, after the appender's name */
    public void info(String message) {
        status.status(StatusListener.Level.INFO, prefix + message, null);
    }

    /** @param message reported as WARN, after the appender's name */
    public void warn(String message) {
        status.status(StatusListener.Level.WARN, prefix + message, null);
    }

    /** @param message reported as ERROR, after the appender's name */
    public void error(String message) {
        status.status(StatusListener.Level.ERROR, prefix + message, null);
    }

    /**
     * Parses a value with an adapter's parser; if it throws {@link IllegalArgumentException}, reports
     * its message (which names the setting and the value) as an ERROR and returns the fallback.
     *
     * @param text         the configured text, or {@code null} when not set
     * @param parser       text to value; throws {@code IllegalArgumentException} naming the setting
     * @param fallback     the value used when {@code text} is {@code null} or bad
     * @param fallbackText how the fallback is named in the status, e.g. {@code "the default BLOCK"}
     * @param <T>          the value's type
     * @return the parsed value or the fallback
     */
    public <T> T parse(String text, Function<String, T> parser, T fallback, String fallbackText) {
        if (text == null) {
            return fallback;
        }
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            error(e.getMessage() + "; using " + fallbackText);
            return fallback;
        }
    }

    /**
     * Parses {@code true} or {@code false} (case-insensitive, trimmed); anything else is an ERROR
     * and the fallback. Frameworks' own converters read any other text as {@code false} (log4j2) or
     * skip the setting with a WARN (logback); here a typo never silently flips an option.
     *
     * @param setting  the setting's name
     * @param text     the configured text, or {@code null} when not set
     * @param fallback the default
     * @return the value
     */
    public boolean flag(String setting, String text, boolean fallback) {
        return parse(text, t -> {
            String v = t.trim();
            if ("true".equalsIgnoreCase(v)) {
                return Boolean.TRUE;
            }
            if ("false".equalsIgnoreCase(v)) {
                return Boolean.FALSE;
            }
            throw new IllegalArgumentException(setting + " '" + t + "' is neither true nor false");
        }, fallback, "the default " + fallback);
    }

    /**
     * Parses a whole number of at least zero (milliseconds, counts).
     *
     * @param setting      the setting's name
     * @param text         the configured text, or {@code null} when not set
     * @param fallback     the value used when {@code text} is {@code null} or bad
     * @param fallbackText how the fallback is named in the status
     * @return the value
     */
    public long wholeNumber(String setting, String text, long fallback, String fallbackText) {
        return parse(text, t -> {
            try {
                long v = Long.parseLong(t.trim());
                if (v >= 0) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // reported below, with the setting's name
            }
            throw new IllegalArgumentException(setting + " '" + t + "' is not a whole number of at least 0");
        }, fallback, fallbackText);
    }

    /**
     * Reads an appender's {@code writerNapMicros} into {@code b}: unset leaves the JVM's
     * {@value SpoolConfig#WRITER_NAP_PROPERTY} (else {@value SpoolConfig#DEFAULT_WRITER_NAP_MICROS}
     * µs); bad text is an ERROR and the same default; a value outside 1..{@value
     * SpoolConfig#MAX_WRITER_NAP_MICROS} is a WARN and clamped.
     *
     * @param b    the builder to set
     * @param text the configured text, or {@code null}
     */
    public void writerNap(SpoolConfig.Builder b, String text) {
        long fallback = SpoolConfig.jvmWriterNapMicros(SpoolConfig.DEFAULT_WRITER_NAP_MICROS);
        long micros = wholeNumber("writerNapMicros", text, fallback, "the default of " + fallback + " microseconds");
        if (text == null) {
            return;
        }
        long clamped = SpoolConfig.clampWriterNapMicros(micros);
        if (clamped != micros) {
            warn("writerNapMicros '" + text + "' is outside 1.." + SpoolConfig.MAX_WRITER_NAP_MICROS + "; using "
                    + "writerNapMicros=" + clamped);
        }
        b.writerNapMicros(clamped);
    }

    /**
     * Reads {@code bufferSize} and {@code maxBufferSize} ({@link ByteSize} syntax) into {@code b}:
     * bad text is an ERROR and the default; a {@code bufferSize} below {@link
     * SpoolConfig#MIN_BUFFER_SIZE} is raised to it, a {@code maxBufferSize} below the {@code
     * bufferSize} is raised to it, and either above {@link SpoolConfig#MAX_BUFFER_LIMIT} is lowered
     * to it, each with a WARN.
     *
     * @param b             the builder to set
     * @param bufferSize    the configured text, or {@code null}
     * @param maxBufferSize the configured text, or {@code null}
     */
    public void ringSizes(SpoolConfig.Builder b, String bufferSize, String maxBufferSize) {
        long initial = size("bufferSize", bufferSize, SpoolConfig.DEFAULT_BUFFER_SIZE);
        if (initial < SpoolConfig.MIN_BUFFER_SIZE) {
            warn("bufferSize '" + bufferSize + "' (" + initial + " bytes) is below the minimum of "
                    + SpoolConfig.MIN_BUFFER_SIZE + " bytes; using " + SpoolConfig.MIN_BUFFER_SIZE + " bytes (Spool's "
                    + "bufferSize is the initial size of its ring, which grows up to maxBufferSize, not an I/O buffer)");
            initial = SpoolConfig.MIN_BUFFER_SIZE;
        }
        initial = atMostLimit("bufferSize", bufferSize, initial);
        long cap = atMostLimit("maxBufferSize", maxBufferSize,
                size("maxBufferSize", maxBufferSize, SpoolConfig.DEFAULT_MAX_BUFFER_SIZE));
        if (cap < initial) {
            if (maxBufferSize != null) {
                warn("maxBufferSize '" + maxBufferSize + "' (" + cap + " bytes) is below bufferSize (" + initial
                        + " bytes); using " + initial + " bytes");
            } else {
                info("bufferSize (" + initial + " bytes) is above the default maxBufferSize (" + cap
                        + " bytes); using " + initial + " bytes as maxBufferSize");
            }
            cap = initial;
        }
        b.bufferSize(initial).maxBufferSize(cap);
    }

    private long size(String setting, String text, long fallback) {
        return parse(text, t -> ByteSize.parse(setting, t), fallback, "the default of " + fallback + " bytes");
    }

    private long atMostLimit(String setting, String text, long bytes) {
        if (bytes > SpoolConfig.MAX_BUFFER_LIMIT) {
            warn(setting + " '" + text + "' (" + bytes + " bytes) is above the limit of " + SpoolConfig.MAX_BUFFER_LIMIT
                    + " bytes (1 TiB); using " + SpoolConfig.MAX_BUFFER_LIMIT + " bytes");
            return SpoolConfig.MAX_BUFFER_LIMIT;
        }
        return bytes;
    }
}
