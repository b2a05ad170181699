package io.github.spool;

/** Outcome of one {@link Spool#append} call; returned, never thrown. */
public enum AppendResult {
    /** The record is in the ring and will be written (or counted as lost to a sink fault). */
    ACCEPTED,
    /** The ring was at its cap under {@link OverflowPolicy#DISCARD}; the record was counted and dropped. */
    DISCARDED,
    /** The appender is stopped or stopping; the record was not taken. */
    CLOSED
}
