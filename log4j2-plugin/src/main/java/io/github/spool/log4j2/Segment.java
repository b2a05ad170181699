package io.github.spool.log4j2;

import org.apache.logging.log4j.core.LogEvent;

/**
 * One compiled piece of a {@link SpoolLayout} pattern: a literal or one conversion. Internal API.
 *
 * <p>Each piece renders an event two ways that must agree: {@link #encode} straight to UTF-8 bytes in a {@link LineBuffer}
 * (the garbage-free hot path) and {@link #format} to chars (used for fields with width or
 * truncation modifiers, which log4j2 applies to chars, and for {@code toSerializable}).
 *
 * <p>An abstract class, not an interface: the layout calls {@link #encode} on a dozen kinds of
 * segment per line, and a megamorphic virtual call goes through a vtable stub where an interface
 * call needs an itable stub, which scans the receiver's interfaces first (6.6% of the producer's
 * time in a profile of a console run, async-profiler, docs/benchmarks.md).
 */
abstract class Segment {

    /**
     * Appends this piece's UTF-8 bytes for {@code event}.
     *
     * @param event   the event
     * @param out     the line being built
     * @param scratch a reusable builder this call may clear and use; no caller relies on its content
     */
    abstract void encode(LogEvent event, LineBuffer out, StringBuilder scratch);

    /**
     * Appends this piece's chars for {@code event}, exactly what log4j2's converter appends.
     *
     * @param event the event
     * @param sb    the destination
     */
    abstract void format(LogEvent event, StringBuilder sb);

    /** @return {@code true} if this piece prints the event's throwable (as {@code %ex} does) */
    boolean handlesThrowable() {
        return false;
    }

    /**
     * @return {@code true} for Spool's own garbage-free rendering, {@code false} for a conversion
     *         rendered by log4j2's converter ({@link FormatterSegment}) on events without a throwable
     */
    boolean isBytePath() {
        return true;
    }

    /**
     * @return {@code true} if this piece reads nothing but what a captured record carries — the
     *         instant, level, logger and thread name and the message, of an event without a
     *         throwable — so the writer thread can render it from a {@link CapturedEvent}
     */
    boolean rendersFromCapture() {
        return isBytePath();
    }

    /** @return the kind of segment, for {@code SpoolLayout.describe()} */
    @Override
    public String toString() {
        return getClass().getSimpleName();
    }
}
