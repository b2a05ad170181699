/**
 * Java Flight Recorder events (the JDK's {@code jdk.jfr}, no dependency): what an operator
 * looks for when logging slows a service down — a producer that waited at the cap, lines
 * discarded, a slow sink write, a rollover and its compression, a recovery from a logging call
 * that failed half-way. Named under {@code io.github.spool.}, in the category "Spool", enabled
 * and thresholded like the JDK's own: a recording with the default settings records them, those
 * with a duration only above their threshold. They are created on slow paths only (a producer
 * about to park, a writer's batch, a rollover), so a JVM without a recording pays a flag check
 * there and nothing on the path of a logging call.
 */
package io.github.spool.jfr;
