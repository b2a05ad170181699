package io.github.spool.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Lines discarded at the cap ({@code overflowPolicy} {@code DISCARD}) since the last summary: one
 * event per summary the writer writes into the stream, with the same figures. Internal to Spool.
 */
@Name("io.github.spool.Discard")
@Label("Discard")
@Category("Spool")
@Description("Lines a full Spool buffer discarded since the last summary")
@StackTrace(false)
public final class DiscardEvent extends jdk.jfr.Event {

    /** The appender's name. */
    @Label("Appender")
    public String appender;

    /** Lines discarded since the last summary. */
    @Label("Discarded")
    public long discarded;

    /** The configured {@code discardThreshold}. */
    @Label("Threshold")
    public String threshold;

    /** Per level, as the summary line says it, e.g. {@code INFO=120, DEBUG=3}. */
    @Label("By Level")
    public String byLevel;
}
