/**
 * Time for log lines: a cached millisecond clock read in about a nanosecond ({@link
 * io.github.spool.time.CachedClock}), a hand-driven clock for tests ({@link
 * io.github.spool.time.ManualClock}) and a timestamp formatter that renders the date part once per
 * second and only the sub-second digits per event, straight into bytes ({@link
 * io.github.spool.time.TimestampFormat}).
 *
 * <p>Access naming, as in JCTools: {@code lvX} is a load with acquire (or stronger) semantics,
 * {@code lpX} a plain load, {@code soX} an ordered (release) store, {@code casX} a compare-and-set
 * with volatile semantics.
 */
package io.github.spool.time;
