package io.github.spool.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.ReferenceQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link StallWatch} on a synthetic clock: what counts toward the stall bound. The writer's passes
 * come every nap (5 ms by default) while a state looks stuck; a pause of the whole JVM puts one
 * long gap between two of them.
 */
class StallWatchTest {

    private static final long BOUND = TimeUnit.SECONDS.toNanos(1);
    private static final long NAP = TimeUnit.MILLISECONDS.toNanos(5);

    private final Cell cell = new Cell(DirectMemory.allocateAtStart(64), false, new Reservation(64, new ReferenceQueue<>()));
    private final StallWatch watch = new StallWatch();

    private boolean look(long now) {
        return look(now, BOUND);
    }

    /** The same state each time: cell, committed and claimed words, no successor. */
    private boolean look(long now, long bound) {
        return watch.stuck(cell, 7, 65, null, cell, null, now, bound);
    }

    /** Passes at the nap: the bound is the time the state lasted, within one pass. */
    @Test
    void aStateWatchedAtTheNapIsStuckAfterTheBound() {
        long now = 1_000;
        assertFalse(look(now));
        int passes = 0;
        while (!look(now += NAP)) {
            passes++;
            assertTrue(passes < 1_000, "never stuck");
        }
        assertEquals(BOUND / NAP - 1, passes, "stuck on the pass that completes the bound");
        assertFalse(watch.pending(), "cleared for the recovery to act once");
    }

    /**
     * A 2-second pause (a GC, a frozen container) just after the state was first seen: it counts
     * as one pass's share of the bound, 1/32 of it, and the holder then has the rest of the bound
     * with the writer running. Counted whole, the pass after the pause took over (the CI failure).
     */
    @Test
    void aPauseOfTheWholeJvmIsNoEvidence() {
        long now = 1_000;
        assertFalse(look(now));
        for (int i = 0; i < ManyToOneCellRing.STALL_MIN_PASSES; i++) {
            assertFalse(look(now += TimeUnit.MICROSECONDS.toNanos(50)));
        }
        now += TimeUnit.SECONDS.toNanos(2);
        assertFalse(look(now), "the first pass after the pause");
        long resumed = now;
        while (!look(now += NAP)) {
            assertTrue(now - resumed < 2 * BOUND, "never stuck");
        }
        long watchedAfter = now - resumed;
        long share = BOUND / ManyToOneCellRing.STALL_MIN_PASSES;
        assertTrue(watchedAfter >= BOUND - share - TimeUnit.MICROSECONDS.toNanos(50) * 33 - NAP && watchedAfter <= BOUND,
                "the bound, less the pause's share, after the pause: " + watchedAfter / 1_000 + " µs");
    }

    /** However far apart the passes, the bound takes STALL_MIN_PASSES of them. */
    @Test
    void theBoundTakesAtLeastTheMinimumPasses() {
        long now = 1_000;
        assertFalse(look(now));
        int passes = 0;
        do {
            passes++;
        } while (!look(now += BOUND));
        assertEquals(ManyToOneCellRing.STALL_MIN_PASSES, passes);
    }

    /** A bound of 1 ns (the stress tests' rings) still ends, after the minimum passes. */
    @Test
    void aBoundTooShortToShareOutEndsAfterTheMinimumPasses() {
        long now = 1_000;
        assertFalse(look(now, 1));
        int passes = 0;
        do {
            passes++;
            assertTrue(passes <= ManyToOneCellRing.STALL_MIN_PASSES, "never stuck");
        } while (!look(now += 1L << 40, 1));
        assertEquals(ManyToOneCellRing.STALL_MIN_PASSES, passes);
    }

    /** Any change of the state starts the watch again. */
    @Test
    void progressStartsTheWatchAgain() {
        long now = 1_000;
        assertFalse(look(now));
        for (int i = 0; i < 150; i++) {
            assertFalse(look(now += NAP));
        }
        assertFalse(watch.stuck(cell, 8, 65, null, cell, null, now += NAP, BOUND), "a commit: progress");
        for (int i = 0; i < 150; i++) {
            assertFalse(watch.stuck(cell, 8, 65, null, cell, null, now += NAP, BOUND), "750 ms since the progress");
        }
        assertTrue(watch.pending());
    }
}
