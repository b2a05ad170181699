package io.github.spool.ring;

import io.github.spool.AppendResult;
import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Logging from deep recursion until the stack overflows (issue 11's first reproduction: the
 * appender wedged on the first trial in 3 of 3 runs). Every recursion level appends, so across
 * levels the {@link StackOverflowError} lands at every call inside {@code append} in turn —
 * between claim and commit among them. After each trial the ring must still take and write lines,
 * and at the end {@code accepted = written + lost}; a copy that threw leaves nothing in the output.
 */
class StackOverflowTest {
    private static final int TRIALS = 12;

    private static int depth;
    /**
     * Accepted records, counted with a field increment: a method call after append returns could
     * itself overflow and lose the count of a record the ring did accept. One recursing thread at
     * a time; {@code join} publishes it.
     */
    private static long acceptedDeep;

    private static void recurse(ManyToOneCellRing ring, byte[] line) {
        depth++;
        if (ring.append(line, 0, line.length, Severity.INFO) == AppendResult.ACCEPTED) {
            acceptedDeep++;
        }
        recurse(ring, line);
    }

    @Test
    void theRingOutlivesStackOverflowsInsideAppend() throws Exception {
        try (RingRig rig = new RingRig(16 << 10, 64 << 10, OverflowPolicy.BLOCK, 50)) {
            AtomicLong accepted = new AtomicLong();
            byte[] deep = "deep..............................\\n".replace("\\n", "\n").getBytes(StandardCharsets.US_ASCII);
            for (int trial = 0; trial < TRIALS; trial++) {
                // A small stack keeps each trial short; a fresh thread per trial starts shallow.
                Thread t = new Thread(null, () -> {
                    try {
                        recurse(rig.ring, deep);
                    } catch (StackOverflowError expected) {
                        // the point of the exercise
                    }
                }, "recursion-" + trial, 256 << 10);
                t.start();
                t.join(60_000);
                assertFalse(t.isAlive(), "the recursion ended in a StackOverflowError");
                // The ring still takes lines, and they come out. A mark may share a cell with a
                // hole no handler could record (an overflow after the claim's CAS, inside the
                // VarHandle call): the writer then gives that cell up after its stall bound and
                // counts the mark lost; a later mark must be written. Bounded, not a sleep.
                long deadline = System.nanoTime() + 20_000_000_000L;
                for (int k = 0; ; k++) {
                    String want = "mark " + trial + "." + k;
                    byte[] mark = (want + "\n").getBytes(StandardCharsets.US_ASCII);
                    assertEquals(AppendResult.ACCEPTED, rig.ring.append(mark, 0, mark.length, Severity.INFO));
                    accepted.incrementAndGet();
                    long markDeadline = Math.min(deadline, System.nanoTime() + 3_000_000_000L);
                    while (!rig.sink.lines().contains(want) && System.nanoTime() < markDeadline) {
                        Thread.onSpinWait();
                    }
                    if (rig.sink.lines().contains(want)) {
                        break;
                    }
                    int tr = trial;
                    assertTrue(System.nanoTime() < deadline, () -> "a line after trial " + tr + " is written: " + rig.ring.describeState());
                }
            }
            assertTrue(rig.stop(10_000));
            accepted.addAndGet(acceptedDeep);
            assertEquals(accepted.get(), rig.accounted(), () -> "accepted = written + lost: failedCopies=" + rig.ring.failedCopies()
                    + " stallRecoveries=" + rig.ring.stallRecoveries() + " lost=" + rig.ring.lostRecords()
                    + " written=" + rig.counters.recordsWritten() + " appends=" + depth);
            List<String> lines = rig.sink.lines();
            assertEquals(rig.counters.recordsWritten(), lines.size(), "output = records written");
            for (String l : lines) {
                assertTrue(l.equals(new String(deep, StandardCharsets.US_ASCII).trim()) || l.startsWith("mark "), () -> "torn: " + l);
            }
            System.out.println("figures StackOverflowTest: trials=" + TRIALS + " appends=" + depth + " accepted=" + accepted
                    + " failedCopies=" + rig.ring.failedCopies() + " stallRecoveries=" + rig.ring.stallRecoveries()
                    + " lost=" + rig.ring.lostRecords() + " written=" + rig.counters.recordsWritten());
        }
    }
}
