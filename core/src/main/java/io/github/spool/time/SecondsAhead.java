package io.github.spool.time;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Renders the next second of every live {@link TimestampFormat} before it begins, on a Spool
 * writer thread, so that no logging call renders a whole second. Internal to Spool.
 *
 * <p>Why: the first call of each second renders the date part ({@code DatePattern.render}), and
 * since that runs once a second the JIT never compiles it; in the interpreter, from cold caches,
 * it cost that call 70–340 µs (docs/benchmarks.md, "the cell switch"), the longest call of a
 * logging thread after the cell switch. Writer threads run often whatever the producers do
 * (they nap 5 ms while there is traffic), and nobody waits for them.
 *
 * <p>How: every writer pass, and each appender's ahead thread just past the middle of each second
 * (it runs while its writer is blocked in a write), calls {@link #tick} with the wall clock. From
 * half-way through second {@code S} on, the first tick renders {@code S + 1} into each format's
 * slot of that parity, which held {@code S - 1} (TimestampFormat's two shared slots). A format
 * nobody used in {@code S} is skipped: idle formats cost nothing. A thread still formatting
 * {@code S - 1} then (an event half a second old) misses that slot and uses its own, as it would
 * for any other second. The ticks of other writers in the same second return after one volatile read.
 *
 * <p>Formats are held weakly: a layout discarded by a reconfiguration takes its formats with it.
 */
final class SecondsAhead {

    /** Registered formats; guarded by itself. */
    private static final List<WeakReference<TimestampFormat>> FORMATS = new ArrayList<>();
    /** The last second rendered ahead; written under the lock, read outside it. */
    private static volatile long prepared = Long.MIN_VALUE;

    private SecondsAhead() {
    }

    static void register(TimestampFormat format) {
        synchronized (FORMATS) {
            FORMATS.add(new WeakReference<>(format));
        }
    }

    /**
     * Renders the next second ahead if the clock is past the middle of its second and that has
     * not been done yet.
     *
     * @param nowMillis the wall clock
     */
    static void tick(long nowMillis) {
        long second = Math.floorDiv(nowMillis, 1000L);
        // Equality, not order: a wall clock stepped back must not stop the renders until it
        // catches up again.
        if (prepared == second + 1 || nowMillis - second * 1000L < 500) {
            return;
        }
        synchronized (FORMATS) {
            if (prepared == second + 1) {
                return;
            }
            prepared = second + 1;
            for (Iterator<WeakReference<TimestampFormat>> it = FORMATS.iterator(); it.hasNext();) {
                TimestampFormat f = it.next().get();
                if (f == null) {
                    it.remove();
                } else {
                    try {
                        f.renderAhead(second + 1, second);
                    } catch (RuntimeException e) {
                        // An optimisation only: this format fails on the call that renders the
                        // second itself, as it would without us; the others are still rendered.
                    }
                }
            }
        }
    }
}
