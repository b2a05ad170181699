// SPDX-License-Identifier: Apache-2.0
package io.github.spool.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Issue 31's soak, short enough for the build (the 2-minute runs are in docs/reliability.md): many
 * producers parked at the cap while the sink stalls, a few times after a warm-up stall. Nothing is lost without a count,
 * parked producers cost the process under 5% of a core, each stall drains within a second, and
 * direct memory stays under the cap.
 */
class ParkedProducersSoakTest {

    private static void check(ParkedProducersSoak.Result r) {
        System.out.println("figures ParkedProducersSoakTest: " + r);
        assertEquals(r.accepted, r.written + r.lost, () -> "accepted = written + lost: " + r);
        assertEquals(0, r.lost, () -> "nothing lost: " + r);
        for (double cores : r.parkedCores) {
            assertTrue(cores < 0.05, () -> "parked producers cost under 5% of a core: " + r);
        }
        for (long ms : r.drainMillis) {
            assertTrue(ms < 1_000, () -> "each stall drains within a second: " + r);
        }
        // The ring's cap (1 MiB) plus what the JVM's own direct buffers may hold.
        assertTrue(r.maxDirectBytes < (4 << 20), () -> "direct memory under the cap: " + r);
    }

    @Test
    void aThousandPlatformThreadsParkedAtTheCap() throws Exception {
        check(ParkedProducersSoak.run(1_000, false, 2, 2_500, 3_500));
    }

    @Test
    void tenThousandVirtualThreadsParkedAtTheCap() throws Exception {
        // 100,000 in the long run (docs/reliability.md); 10,000 keep the build's run short.
        Assumptions.assumeTrue(ParkedProducersSoak.virtualThreadsAvailable(), "virtual threads need JDK 21+");
        check(ParkedProducersSoak.run(10_000, true, 2, 2_500, 3_500));
    }
}
