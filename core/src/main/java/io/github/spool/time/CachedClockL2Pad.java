package io.github.spool.time;

/* Second half of the padding; see CachedClockL1Pad. */
/** Padding after the hot word. Internal. */
abstract class CachedClockL2Pad extends CachedClockWord {
    long q00, q01, q02, q03, q04, q05, q06, q07;
    long q08, q09, q10, q11, q12, q13, q14, q15;
}
