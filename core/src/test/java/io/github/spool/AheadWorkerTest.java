package io.github.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.time.SharedSlots;
import io.github.spool.time.TimestampFormat;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The ahead thread: while the writer is blocked in a write, the ring's new cells are allocated
 * ahead — the pool holds a spare after each install that emptied it — and the next second of a
 * timestamp format in use is rendered before it begins; the thread ends with the writer.
 */
class AheadWorkerTest {

    private static final int RECORD = 100; // 40 records fill a 4 KiB cell (4,000 of its 4,096 bytes)

    @Test
    void allocatesTheNextCellAheadAndEndsWithTheWriter() throws Exception {
        TestSink sink = new TestSink().stall();
        // 16 KiB ring: four 4 KiB cells; cap 64 KiB: sixteen.
        Spool spool = Spool.start(SpoolConfig.builder("grower").bufferSize(16 << 10).maxBufferSize(64 << 10)
                .statusListener(new RecordedStatus()).build(), sink);
        byte[] record = new byte[RECORD];
        Arrays.fill(record, (byte) 'g');
        record[RECORD - 1] = '\n';
        try {
            assertEquals(AppendResult.ACCEPTED, spool.append(record, 0, RECORD, Severity.INFO));
            assertTrue(sink.awaitBlocked(10, TimeUnit.SECONDS), "the writer holds the first record in a stalled write");
            assertTrue(awaitTrue(() -> aheadThread() != null), "the writer started the ahead thread with its first records");
            // 409 more: 410 records in 11 cells (10 full, 10 records in the current one), nothing freed.
            for (int i = 1; i < 410; i++) {
                assertEquals(AppendResult.ACCEPTED, spool.append(record, 0, RECORD, Severity.INFO));
            }
            // The install of the 11th cell emptied the pool; the grower adds one spare: 12 cells,
            // without another append. (Without the grower the ring would stay at 11 until the next
            // producer to need a cell allocated it on its own call.)
            assertTrue(awaitTrue(() -> spool.stats().getCells() == 12), () -> "cells: " + spool.stats().getCells());
            // Someone else's interrupt must not leave it spinning: park returns at once while the
            // status is set, so the grower clears it and parks again.
            Thread grower = aheadThread();
            grower.interrupt();
            assertTrue(awaitTrue(() -> grower.getState() == Thread.State.TIMED_WAITING && !grower.isInterrupted()),
                    () -> "grower " + grower.getState() + ", interrupted " + grower.isInterrupted());
            assertEquals(12, spool.stats().getCells());
        } finally {
            sink.release();
        }
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(410L * RECORD, sink.size());
        String text = new String(sink.toByteArray(), StandardCharsets.US_ASCII);
        assertEquals(410, text.chars().filter(c -> c == '\n').count());
        assertFalse(aheadThread() != null, "the ahead thread ended with the writer");
    }

    @Test
    void rendersTheNextSecondWhileTheWriterIsBlocked() throws Exception {
        TestSink sink = new TestSink().stall();
        Spool spool = Spool.start(SpoolConfig.builder("grower").statusListener(new RecordedStatus()).build(), sink);
        byte[] record = "blocked\n".getBytes(StandardCharsets.US_ASCII);
        try {
            assertEquals(AppendResult.ACCEPTED, spool.append(record, 0, record.length, Severity.INFO));
            assertTrue(sink.awaitBlocked(10, TimeUnit.SECONDS), "the writer is blocked in a stalled write");
            assertTrue(awaitTrue(() -> aheadThread() != null), "the writer started the ahead thread");
            // Created after the writer blocked: no pass of it has seen this format. The loop keeps
            // it in use each second; the ahead thread (ticking from x.501) must render second s + 1
            // while s is still the current second.
            TimestampFormat format = TimestampFormat.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", ZoneOffset.UTC);
            byte[] out = new byte[format.maxLength()];
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            boolean renderedAhead = false;
            while (!renderedAhead && System.nanoTime() < deadline) {
                long now = System.currentTimeMillis();
                format.format(now, out, 0);
                renderedAhead = SharedSlots.holds(format, Math.floorDiv(now, 1000) + 1);
                Thread.sleep(5); // a poll of another thread's work
            }
            assertTrue(renderedAhead, "a coming second was rendered before it began, the writer blocked");
        } finally {
            sink.release();
        }
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(record.length, sink.size());
    }

    private static Thread aheadThread() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("spool-ahead-grower") && t.isAlive()).findFirst().orElse(null);
    }

    /** Polls {@code condition} until it holds or 10 s pass (a state reached by another thread). */
    private static boolean awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }
}
