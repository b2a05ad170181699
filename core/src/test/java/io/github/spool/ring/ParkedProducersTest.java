package io.github.spool.ring;

import io.github.spool.AppendResult;
import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Producers parked at the cap cost nothing while they wait (issue 31, item 8). Before, each woke
 * at least every millisecond and retook the install flag's CAS, the pool's monitor and the cap's
 * CAS: 400 producers behind a stalled sink burned about two cores. Here 400 producers fill a
 * small ring behind a stalled sink and stay parked for two seconds; the CPU time of all of them
 * over that window must stay well under 5% of one core (a bound on behaviour — sleeping threads use
 * none — not a speed claim), and once the sink resumes every one of them is released and every
 * record written.
 */
class ParkedProducersTest {
    private static final int PRODUCERS = 400;
    private static final int LINES_EACH = 125;
    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(2);

    @Test
    void parkedProducersUseNoCpuAndAllDrainAfterTheStall() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx.isThreadCpuTimeSupported(), "per-thread CPU time is measurable here");
        mx.setThreadCpuTimeEnabled(true);
        try (RingRig rig = new RingRig(16 << 10, 32 << 10, OverflowPolicy.BLOCK, 1000)) {
            rig.sink.stalled = true;
            AtomicLong accepted = new AtomicLong();
            Thread[] ts = new Thread[PRODUCERS];
            for (int p = 0; p < PRODUCERS; p++) {
                int id = p;
                ts[p] = new Thread(() -> {
                    for (int i = 0; i < LINES_EACH; i++) {
                        byte[] b = String.format("producer %03d line %05d ..............................\n", id, i)
                                .getBytes(StandardCharsets.US_ASCII);
                        if (rig.ring.append(b, 0, b.length, Severity.INFO) == AppendResult.ACCEPTED) {
                            accepted.incrementAndGet();
                        }
                    }
                }, "parked-" + p);
                ts[p].start();
            }
            // The ring (32 KiB) holds a fraction of the 50,000 lines: every producer that has not
            // finished (a few may, before the ring fills) ends up registered as a waiter. Wait
            // for that (bounded), then measure.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (rig.ring.waiting() < alive(ts)) {
                assertTrue(System.nanoTime() < deadline, () -> "the producers reach the cap and wait: waiting=" + rig.ring.waiting()
                        + " " + rig.ring.describeState() + " " + states(ts));
                Thread.sleep(10); // polling a condition, not synchronisation: nothing signals "all parked"
            }
            long[] before = new long[PRODUCERS];
            for (int p = 0; p < PRODUCERS; p++) {
                before[p] = mx.getThreadCpuTime(ts[p].getId());
            }
            long start = System.nanoTime();
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(WINDOW_NANOS)); // the stalled window being measured
            long window = System.nanoTime() - start;
            long cpu = 0;
            for (int p = 0; p < PRODUCERS; p++) {
                long after = mx.getThreadCpuTime(ts[p].getId());
                if (after >= 0 && before[p] >= 0) {
                    cpu += after - before[p];
                }
            }
            double cores = (double) cpu / window;
            System.out.println("figures ParkedProducersTest: producers=" + PRODUCERS + " cpuWhileParked=" + cpu / 1_000_000
                    + "ms over " + window / 1_000_000 + "ms (" + String.format("%.4f", cores) + " cores)");
            assertTrue(cores < 0.05, () -> "parked producers used " + String.format("%.3f", cores) + " cores");
            long released = System.nanoTime();
            rig.sink.gate.countDown();
            for (Thread t : ts) {
                t.join(60_000);
                assertFalse(t.isAlive(), "every producer is released after the stall");
            }
            System.out.println("figures ParkedProducersTest: all producers done " + (System.nanoTime() - released) / 1_000_000
                    + "ms after the sink resumed (a figure, not a bound)");
            assertTrue(rig.stop(30_000));
            assertEquals((long) PRODUCERS * LINES_EACH, accepted.get(), "BLOCK: every record accepted");
            assertEquals(accepted.get(), rig.counters.recordsWritten(), "and written");
            assertEquals(0, rig.ring.waiting(), "nothing left in the waiters' queue");
        }
    }

    private static String states(Thread[] ts) {
        java.util.Map<String, Integer> m = new java.util.TreeMap<>();
        for (Thread t : ts) {
            StackTraceElement[] st = t.getStackTrace();
            String where = t.getState() + (st.length > 2 ? " " + st[0].getMethodName() + "<" + st[1].getMethodName() + "<" + st[2].getMethodName() : "");
            m.merge(where, 1, Integer::sum);
        }
        return m.toString();
    }

    private static int alive(Thread[] ts) {
        int n = 0;
        for (Thread t : ts) {
            if (t.isAlive()) {
                n++;
            }
        }
        return n;
    }
}
