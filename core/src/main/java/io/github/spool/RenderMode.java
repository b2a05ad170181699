package io.github.spool;

import java.util.Locale;

/**
 * Where an appender's lines are rendered: the adapters' {@code render} setting, one parse for both.
 * Whether {@link #WRITER} can apply depends on the layout; each adapter decides and says why not.
 */
public enum RenderMode {
    /**
     * The adapter chooses: {@link #WRITER} where the layout renders from a captured event and the
     * JVM has more than one processor, else {@link #CALLER} ({@link #writerByDefault()}).
     */
    AUTO,
    /** The logging thread captures the event's fields and the writer thread renders the line. */
    WRITER,
    /** The logging thread renders the line and copies its bytes into the ring. */
    CALLER;

    /**
     * Whether {@link #AUTO} renders on the writer (where the layout allows it): only when the JVM
     * has a second processor for the writer thread. On one processor the writer's decoding is CPU
     * the logging threads would wait for; with two, moving the rendering off them was as fast or
     * faster from 1 to 64 logging threads except with 4 (docs/benchmarks.md, "the writer renders
     * every captured line").
     *
     * @return {@code true} when {@link Runtime#availableProcessors()} is 2 or more
     */
    public static boolean writerByDefault() {
        return Runtime.getRuntime().availableProcessors() >= 2;
    }

    /**
     * Whether this setting asks for the writer to render, where the layout allows it: {@link #WRITER},
     * or {@link #AUTO} when {@link #writerByDefault()}.
     *
     * @return {@code false} for {@link #CALLER}, and for {@link #AUTO} on one processor
     */
    public boolean wantsWriter() {
        return this == WRITER || this == AUTO && writerByDefault();
    }

    /**
     * Parses a configured value, case-insensitive and trimmed.
     *
     * @param value {@code auto}, {@code writer} or {@code caller}
     * @return the mode
     * @throws IllegalArgumentException for any other value, with a message naming the accepted ones
     */
    public static RenderMode parse(String value) {
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "auto":
                return AUTO;
            case "writer":
                return WRITER;
            case "caller":
                return CALLER;
            default:
                throw new IllegalArgumentException("render '" + value
                        + "' is unknown; expected auto, writer or caller");
        }
    }
}
