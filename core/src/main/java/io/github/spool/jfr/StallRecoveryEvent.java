package io.github.spool.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The writer recovered from a logging call that failed (or stalled past the bound) half-way
 * through appending: it gave a cell up, installed a successor, or republished the current one.
 * Internal to Spool.
 */
@Name("io.github.spool.StallRecovery")
@Label("Stall Recovery")
@Category("Spool")
@Description("A Spool writer recovered from a logging call that failed half-way")
@StackTrace(false)
public final class StallRecoveryEvent extends jdk.jfr.Event {

    /** The appender's name. */
    @Label("Appender")
    public String appender;

    /** What was stuck: a claim never committed, an install flag held, a successor never published. */
    @Label("Stuck")
    public String stuck;

    /** Recoveries of this appender so far. */
    @Label("Recoveries")
    public long recoveries;

    /** Records the ring has counted lost so far. */
    @Label("Lost So Far")
    public long lostSoFar;
}
