package io.github.spool.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

/**
 * What every overload soak must show, for either adapter: the child exited cleanly, every line
 * is intact and in per-producer order, {@code produced = written + discarded} exactly (written
 * counted as the event lines that arrived, discarded as the sum of the summary lines, which must
 * also equal the MBean's count), the ring stayed under its cap, direct memory under the cap plus
 * {@link #DIRECT_SLACK}, and resident memory under heap + cap + {@link #JVM_BUDGET}. Test support.
 */
public final class SoakAssertions {

    /**
     * Direct memory beyond the ring that the child may use: the JDK's per-thread temporary direct
     * buffers ({@code sun.nio.ch.Util}) for the heap-buffer write of a summary line, and JDK
     * internals. The ring's cells are the only large direct buffers.
     */
    public static final long DIRECT_SLACK = 1L << 20;

    /**
     * Resident memory of the child beyond its (pre-touched) heap and the ring's cap: class
     * metadata, JIT code cache and compiler arenas, thread stacks, GC structures, the JMX beans.
     */
    public static final long JVM_BUDGET = 160L << 20;

    private SoakAssertions() {
    }

    /**
     * {@code BLOCK}: the ring reached its cap (so producers waited) and nothing was discarded.
     *
     * @param r        the finished run
     * @param cellSize the ring's cell size
     */
    public static void assertBlock(SoakRun r, long cellSize) {
        Map<String, Long> f = common(r);
        assertEquals(0L, f.get("discarded"), "BLOCK discards nothing");
        assertEquals(0, r.lines().summaryLines(), "no summary line under BLOCK");
        assertEquals(f.get("produced"), r.lines().eventLines(), "BLOCK: every produced event written");
        assertTrue(f.get("ringHighWater") > f.get("ringMax") - cellSize,
                "the run overloaded the sink: the ring reached its cap; " + r.summary());
    }

    /**
     * {@code DISCARD}: events were discarded, summary lines report all of them, at most one per
     * second (plus the last one at stop).
     *
     * @param r       the finished run
     * @param seconds the load's duration
     */
    public static void assertDiscard(SoakRun r, double seconds) {
        Map<String, Long> f = common(r);
        assertTrue(f.get("discarded") > 0, "the run overloaded the sink: something was discarded; " + r.summary());
        assertEquals(f.get("discarded"), r.lines().summarized(), "summary lines report every discard (MBean count)");
        long lines = r.lines().summaryLines();
        // The load may have run longer than asked, until it overloaded the sink (SoakChild).
        double ran = Math.max(seconds, f.getOrDefault("loadMillis", 0L) / 1000.0);
        assertTrue(lines >= 1 && lines <= (long) Math.ceil(ran) + 2,
                "summary lines: " + lines + " for " + ran + " s (at most one per second)");
    }

    private static Map<String, Long> common(SoakRun r) {
        assertEquals(0, r.exitCode(), () -> "child exit code; stderr:\n" + r.stderr());
        Map<String, Long> f = r.report();
        assertNotNull(f, () -> "no report line; stderr:\n" + r.stderr());
        assertFalse(r.stderr().contains("ERROR"), () -> "status errors:\n" + r.stderr());
        r.lines().finish(r.produced());
        assertNull(r.lines().problem(), "output");
        assertEquals(f.get("produced"), r.lines().eventLines() + r.lines().summarized(), "produced = written + discarded");
        long max = f.get("ringMax");
        assertTrue(max > 0, "the MBean was read");
        assertTrue(f.get("ringHighWater") <= max, () -> "ring high water under maxBufferSize; " + r.summary());
        assertTrue(f.get("ringInUseMax") <= max, () -> "ring in use under maxBufferSize; " + r.summary());
        assertTrue(f.get("directUsedMax") <= max + DIRECT_SLACK, () -> "direct memory under the cap + slack; " + r.summary());
        assertTrue(f.get("hwmKiB") * 1024 <= f.get("maxHeap") + max + JVM_BUDGET,
                () -> "resident memory under heap + cap + JVM budget; " + r.summary());
        return f;
    }
}
