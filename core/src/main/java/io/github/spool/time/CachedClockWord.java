package io.github.spool.time;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** The hot word: one writer (the refresher) plus rare reader CASes. Internal. */
abstract class CachedClockWord extends CachedClockL1Pad {

    /** Accessor for {@link #word}; every access states its ordering in the method name. */
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(CachedClockWord.class, "word", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@code millis << 1 | probeBit}, or {@code SLEEPING}; see {@link CachedClock}. */
    private long word;

    /** Acquire load: pairs with the release (or stronger) stores below. */
    final long lvWord() {
        return (long) WORD.getAcquire(this);
    }

    /** Release store: everything written before it is visible to whoever acquires the value. */
    final void soWord(long value) {
        WORD.setRelease(this, value);
    }

    /** Volatile compare-and-set (release and acquire). */
    final boolean casWord(long expected, long value) {
        return WORD.compareAndSet(this, expected, value);
    }
}

