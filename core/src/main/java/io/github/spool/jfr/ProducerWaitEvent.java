package io.github.spool.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/** A logging call waited at the cap (the buffer full, {@code overflowPolicy} {@code BLOCK}). Internal to Spool. */
@Name("io.github.spool.ProducerWait")
@Label("Producer Wait")
@Category("Spool")
@Description("A logging call waited for room in a full Spool buffer")
@Threshold("10 ms")
@StackTrace(true)
public final class ProducerWaitEvent extends jdk.jfr.Event {

    /** The appender's name. */
    @Label("Appender")
    public String appender;

    /** The record's size. */
    @Label("Record Size")
    @DataAmount
    public long bytes;
}
