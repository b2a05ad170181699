package io.github.spool.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/** One write of a batch to the sink took long: a slow disk, a pipe nobody reads. Internal to Spool. */
@Name("io.github.spool.SlowWrite")
@Label("Slow Write")
@Category("Spool")
@Description("A Spool writer's write of one batch to its sink took long")
@Threshold("20 ms")
@StackTrace(false)
public final class SlowWriteEvent extends jdk.jfr.Event {

    /** The appender's name. */
    @Label("Appender")
    public String appender;

    /** Bytes the call was asked to write. */
    @Label("Bytes")
    @DataAmount
    public long bytes;

    /** Bytes it wrote ({@code -1}: it failed). */
    @Label("Written")
    @DataAmount
    public long written;
}
