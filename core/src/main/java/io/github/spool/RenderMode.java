package io.github.spool;

import java.util.Locale;

/**
 * Where an appender's lines are rendered: the adapters' {@code render} setting, one parse for both.
 * Whether {@link #WRITER} can apply depends on the layout; each adapter decides and says why not.
 */
public enum RenderMode {
    /** The adapter chooses; today that is {@link #CALLER} (docs/benchmarks.md, render on the writer). */
    AUTO,
    /** The logging thread captures the event's fields and the writer thread renders the line. */
    WRITER,
    /** The logging thread renders the line and copies its bytes into the ring. */
    CALLER;

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
