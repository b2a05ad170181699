package io.github.spool.ring;

import io.github.spool.AppendResult;
import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A producer that fails while it holds a cell's install flag (issue 31, item 7: a
 * {@link StackOverflowError} inside the pool call of {@code appendSlow} or {@code advance}) must
 * let go of the flag on its way out. Before, the flag stayed taken and every other logging thread
 * waited for the writer's stall recovery. Here the stall bound is a minute, so a bystander that
 * gets through at all got through without it; the failure is played by making the pool throw while
 * the producer holds the flag.
 */
class InstallFlagFailureTest {
    private static final long STALL_MILLIS = 60_000;
    private static final int LINES = 20_000;

    private static byte[] line(int seq) {
        return String.format("bystander %08d........................\n", seq).getBytes(StandardCharsets.US_ASCII);
    }

    /** Runs {@code failing} on a thread of its own with the pool broken; returns what it threw. */
    private static Throwable failInsidePool(RingRig rig, Runnable failing) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        Cell[] saved = rig.ring.pool().swapArray(null);
        try {
            Thread t = new Thread(() -> {
                try {
                    failing.run();
                } catch (Throwable e) {
                    thrown[0] = e;
                }
            }, "failing-installer");
            t.start();
            t.join(10_000);
            assertFalse(t.isAlive());
        } finally {
            rig.ring.pool().swapArray(saved);
        }
        return thrown[0];
    }

    /** A bystander logs {@link #LINES} lines (bounded join) after the failure; returns how many went in. */
    private static long bystander(RingRig rig) throws InterruptedException {
        AtomicLong accepted = new AtomicLong();
        Thread t = new Thread(() -> {
            for (int i = 0; i < LINES; i++) {
                byte[] b = line(i);
                if (rig.ring.append(b, 0, b.length, Severity.INFO) == AppendResult.ACCEPTED) {
                    accepted.incrementAndGet();
                }
            }
        }, "bystander");
        t.start();
        t.join(20_000);
        assertFalse(t.isAlive(), () -> "the bystander is not held up by a flag its holder left behind: " + rig.ring.describeState());
        return accepted.get();
    }

    private static void awaitWritten(RingRig rig, long records) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (rig.counters.recordsWritten() < records) {
            assertTrue(System.nanoTime() < deadline, "the first records are written");
            Thread.onSpinWait();
        }
    }

    @Test
    void crosserThatFailsInThePoolLetsGoOfTheFlag() throws Exception {
        try (RingRig rig = new RingRig(16 << 10, 16 << 10, OverflowPolicy.BLOCK, STALL_MILLIS)) {
            int cap = rig.ring.currentCell().capacity();
            byte[] filler = new byte[cap - 10];
            Arrays.fill(filler, (byte) 'f');
            filler[filler.length - 1] = '\n';
            assertEquals(AppendResult.ACCEPTED, rig.ring.append(filler, 0, filler.length, Severity.INFO));
            awaitWritten(rig, 1); // the writer has nothing to recycle while the pool is broken
            byte[] crossing = line(-1);
            Throwable thrown = failInsidePool(rig, () -> rig.ring.append(crossing, 0, crossing.length, Severity.INFO));
            assertTrue(thrown instanceof NullPointerException, () -> "the crosser failed in the pool: " + thrown);
            long accepted = 1 + bystander(rig);
            assertTrue(rig.stop(10_000));
            assertEquals(0, rig.ring.stallRecoveries(), "nobody waited for the writer's stall recovery");
            assertEquals(LINES + 1, accepted);
            assertEquals(accepted, rig.accounted());
        }
    }

    @Test
    void waiterThatFailsInThePoolLetsGoOfTheFlag() throws Exception {
        try (RingRig rig = new RingRig(16 << 10, 16 << 10, OverflowPolicy.BLOCK, STALL_MILLIS)) {
            byte[] first = line(-2);
            assertEquals(AppendResult.ACCEPTED, rig.ring.append(first, 0, first.length, Severity.INFO));
            awaitWritten(rig, 1);
            // A crosser seals the cell and lets go (as when it found the pool empty): the next
            // producer takes the flag in advance() and polls the pool there.
            Cell c = rig.ring.currentCell();
            long w = c.gaaClaim((long) c.capacity + 1);
            assertTrue(c.casSeal(Cell.gen(w), Cell.bytes(w)));
            byte[] next = line(-1);
            Throwable thrown = failInsidePool(rig, () -> rig.ring.append(next, 0, next.length, Severity.INFO));
            assertTrue(thrown instanceof NullPointerException, () -> "the installer failed in the pool: " + thrown);
            long accepted = 1 + bystander(rig);
            assertTrue(rig.stop(10_000));
            assertEquals(0, rig.ring.stallRecoveries(), "nobody waited for the writer's stall recovery");
            assertEquals(LINES + 1, accepted);
            assertEquals(accepted, rig.accounted());
        }
    }
}
