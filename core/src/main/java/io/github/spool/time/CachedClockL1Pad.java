package io.github.spool.time;

/*
 * Class-chain padding, as JCTools does it (SpscArrayQueue: L1Pad, fields, L2Pad): HotSpot lays out
 * a superclass's fields before its subclass's, and does not reorder across the chain, so the hot
 * word sits between two blocks of 128 bytes (two cache lines, to defeat the adjacent-line
 * prefetcher) and never shares a line with another object's fields or with CachedClock's own cold
 * fields. A @Contended field would need -XX:-RestrictContended; this works without flags.
 * Checked once with JOL 0.17 on JDK 17 (compressed oops): word at offset 144, padding 16..143 and
 * 152..279; the JDK 15+ layout puts CachedClock's int wakeRequested into the header gap at 12 and
 * the refresher reference at 304, both outside the word's lines.
 */

/** Padding before the hot word. Internal. */
abstract class CachedClockL1Pad {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p08, p09, p10, p11, p12, p13, p14, p15;
}

