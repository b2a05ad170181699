package io.github.spool.bench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The coordinated-omission correction on a synthetic schedule with a fake clock: one connection,
 * 1,000 requests/s for 2 s, a 100 µs answer, and a server that stalls for 100 ms once.
 */
class OpenLoopRecorderTest {

    private static final long SERVICE = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long STALL_FROM = TimeUnit.MILLISECONDS.toNanos(1_000);
    private static final long STALL_UNTIL = STALL_FROM + TimeUnit.MILLISECONDS.toNanos(100);

    private long now;

    @Test
    void aStallShowsInTheHighPercentilesOfEveryRequestDueDuringIt() {
        OpenLoopRecorder recorder = new OpenLoopRecorder(() -> now, 1_000);
        long start = recorder.start();
        long fromSend = 0; // what a sender that waits for the server would have measured as its worst
        for (long n = 0; n < 2_000; n++) {
            long intended = recorder.intendedNanos(n);
            now = Math.max(now, intended); // the one connection is free again, or the request waits for it
            long sent = now;
            now = sent >= STALL_FROM && sent < STALL_UNTIL ? STALL_UNTIL + SERVICE : sent + SERVICE;
            recorder.completed(intended);
            fromSend = Math.max(fromSend, now - sent);
        }
        assertEquals(0, start);
        assertEquals(2_000, recorder.latency().getTotalCount());
        // ~100 of the 2,000 requests fell due in the stall: 5%, latencies 100, 99, ... 1 ms
        long p99 = recorder.latency().getValueAtPercentile(99);
        assertTrue(p99 >= TimeUnit.MILLISECONDS.toNanos(75), "p99 " + p99 + " ns hides the stall");
        assertTrue(recorder.latency().getValueAtPercentile(97.5) >= TimeUnit.MILLISECONDS.toNanos(40),
                "p97.5 " + recorder.latency().getValueAtPercentile(97.5));
        assertTrue(recorder.latency().getMaxValue() >= TimeUnit.MILLISECONDS.toNanos(99));
        assertTrue(recorder.latency().getValueAtPercentile(50) <= TimeUnit.MICROSECONDS.toNanos(101));
        // the service times alone show one slow request: at p99 the stall would have vanished
        assertTrue(fromSend >= TimeUnit.MILLISECONDS.toNanos(99));
        assertEquals(1_000, recorder.achievedPerSecond(), 5);
    }

    @Test
    void aClosedLoopIsDueWhenSent() {
        OpenLoopRecorder recorder = new OpenLoopRecorder(() -> now, 0);
        recorder.start();
        now = 5_000;
        long intended = recorder.intendedNanos(7);
        assertEquals(5_000, intended);
        now = 5_400;
        recorder.completed(intended);
        assertEquals(400, recorder.latency().getMaxValue(), 1);
    }
}
