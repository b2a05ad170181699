package io.github.spool.ring;

import io.github.spool.AppendResult;
import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Closing is a cut (issue 31, item 9): once a producer has been told {@link AppendResult#CLOSED}
 * it is never told {@link AppendResult#ACCEPTED} again, and each producer's written output is a
 * gap-free prefix of what it logged. Before, a producer got {@code CLOSED} in the slow path and
 * then {@code ACCEPTED} from the fast path, which still claimed in the current cell until the
 * writer sealed it (4–10 of 60 stops).
 */
class CloseCutTest {
    private static final int ROUNDS = 60;
    private static final int PRODUCERS = 4;
    private static final int MAX_LINES = 200_000;

    @Test
    void noProducerIsAcceptedAfterItWasRefused() throws Exception {
        int violations = 0;
        for (int round = 0; round < ROUNDS; round++) {
            try (RingRig rig = new RingRig(16 << 10, 64 << 10, OverflowPolicy.BLOCK, 1000)) {
                AppendResult[][] results = new AppendResult[PRODUCERS][MAX_LINES];
                int[] counts = new int[PRODUCERS];
                CountDownLatch running = new CountDownLatch(PRODUCERS);
                Thread[] ts = new Thread[PRODUCERS];
                for (int p = 0; p < PRODUCERS; p++) {
                    int id = p;
                    ts[p] = new Thread(() -> {
                        int closedSeen = 0;
                        int i = 0;
                        for (; i < MAX_LINES && closedSeen < 2_000; i++) {
                            byte[] b = String.format("p%d %08d\n", id, i).getBytes(StandardCharsets.US_ASCII);
                            AppendResult r = rig.ring.append(b, 0, b.length, Severity.INFO);
                            results[id][i] = r;
                            if (r == AppendResult.CLOSED) {
                                closedSeen++;
                            }
                            if (i == 1_000) {
                                running.countDown();
                            }
                        }
                        counts[id] = i;
                        if (i <= 1_000) {
                            running.countDown();
                        }
                    }, "producer-" + p);
                    ts[p].start();
                }
                running.await();
                assertTrue(rig.stop(10_000));
                for (Thread t : ts) {
                    t.join(30_000);
                    assertFalse(t.isAlive());
                }
                List<String> lines = rig.recordLines();
                for (int p = 0; p < PRODUCERS; p++) {
                    boolean refused = false;
                    int accepted = 0;
                    for (int i = 0; i < counts[p]; i++) {
                        AppendResult r = results[p][i];
                        if (r == AppendResult.CLOSED) {
                            refused = true;
                        } else if (r == AppendResult.ACCEPTED) {
                            if (refused) {
                                violations++;
                            }
                            accepted++;
                        }
                    }
                    String prefix = "p" + p + " ";
                    int seq = 0;
                    for (String l : lines) {
                        if (l.startsWith(prefix)) {
                            assertEquals(String.format("p%d %08d", p, seq), l, "each producer's output is a gap-free prefix");
                            seq++;
                        }
                    }
                    assertEquals(accepted, seq, "every accepted record of producer " + p + " is written");
                }
                assertEquals(rig.counters.recordsWritten(), rig.accounted(), "nothing lost");
            }
        }
        assertEquals(0, violations, "records accepted after their producer was told CLOSED");
    }
}
