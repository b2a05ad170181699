package io.github.spool.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A rolling file's rollover ({@code phase} {@code rename}: the active file closed and archived,
 * a new one opened, on the writer) or an archive's compression ({@code phase} {@code compress}, on
 * the compressor thread). Internal to Spool.
 */
@Name("io.github.spool.Rollover")
@Label("Rollover")
@Category("Spool")
@Description("A Spool rolling file rolled over, or compressed an archive")
@StackTrace(false)
public final class RolloverEvent extends jdk.jfr.Event {

    /** {@code rename} or {@code compress}. */
    @Label("Phase")
    public String phase;

    /** The file rolled, or compressed. */
    @Label("Source")
    public String source;

    /** The archive it became. */
    @Label("Target")
    public String target;

    /** Whether it worked (a failure is also reported as a status). */
    @Label("Succeeded")
    public boolean succeeded;
}
