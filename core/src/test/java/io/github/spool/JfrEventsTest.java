package io.github.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.io.rolling.RollingPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spool's JFR events, recorded as an operator would record them (a {@link Recording} with the
 * events' own default thresholds): a producer that waited at the cap, a slow sink write, a
 * discard summary, a rollover and its compression. The stall recovery's event is checked beside the recovery itself
 * ({@code ProducerFailureTest}).
 */
class JfrEventsTest {

    @TempDir
    Path dir;

    /** Records the named events with their default settings while {@code run} runs. */
    private List<RecordedEvent> record(String event, ThrowingRunnable run) throws Exception {
        Path file = dir.resolve(event + ".jfr");
        try (Recording r = new Recording()) {
            r.enable("io.github.spool." + event);
            r.start();
            run.run();
            r.stop();
            r.dump(file);
        }
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("io.github.spool." + event))
                .collect(Collectors.toList());
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static byte[] line(int i) {
        return String.format(Locale.ROOT, "line %08d %s%n", i, "x".repeat(80)).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aProducerThatWaitedAtTheCapPastTheThresholdIsRecorded() throws Exception {
        TestSink sink = new TestSink().stall();
        Spool spool = Spool.start(SpoolConfig.builder("jfr-wait").bufferSize(8 * 1024).maxBufferSize(16 * 1024)
                .overflowPolicy(OverflowPolicy.BLOCK).build(), sink);
        byte[] record = line(0);
        List<RecordedEvent> events = record("ProducerWait", () -> {
            Thread producer = new Thread(() -> {
                for (int i = 0; i < 1_000; i++) {
                    spool.append(record, 0, record.length, Severity.INFO);
                }
            }, "jfr-producer");
            producer.start();
            while (!spool.producersWaiting()) {
                assertTrue(producer.isAlive(), "the producer reached the cap");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            // What is measured: a wait of 50 ms, above the event's 10 ms threshold.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            sink.release();
            producer.join();
        });
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertFalse(events.isEmpty(), "a ProducerWait event");
        RecordedEvent e = events.get(0);
        assertEquals("jfr-wait", e.getString("appender"));
        assertEquals(record.length, e.getLong("bytes"));
        assertTrue(e.getDuration().compareTo(Duration.ofMillis(10)) >= 0, "over the threshold: " + e.getDuration());
        assertEquals("jfr-producer", e.getThread().getJavaName());
    }

    @Test
    void aSinkWriteOverTheThresholdIsRecorded() throws Exception {
        TestSink sink = new TestSink().stall();
        Spool spool = Spool.start(SpoolConfig.builder("jfr-slow").build(), sink);
        byte[] record = line(0);
        List<RecordedEvent> events = record("SlowWrite", () -> {
            spool.append(record, 0, record.length, Severity.INFO);
            assertTrue(sink.awaitBlocked(10, TimeUnit.SECONDS), "the writer is inside the write");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // what is measured: a 50 ms write
            sink.release();
            assertTrue(spool.stop(10, TimeUnit.SECONDS));
        });
        assertEquals(1, events.size(), "one slow write: " + events);
        RecordedEvent e = events.get(0);
        assertEquals("jfr-slow", e.getString("appender"));
        assertEquals(record.length, e.getLong("bytes"));
        assertEquals(record.length, e.getLong("written"));
        assertTrue(e.getDuration().compareTo(Duration.ofMillis(20)) >= 0, "over the threshold: " + e.getDuration());
    }

    @Test
    void aDiscardSummaryIsRecordedWithTheSummaryLinesFigures() throws Exception {
        TestSink sink = new TestSink().stall();
        Spool spool = Spool.start(SpoolConfig.builder("jfr-discard").bufferSize(8 * 1024).maxBufferSize(16 * 1024)
                .overflowPolicy(OverflowPolicy.DISCARD).build(), sink);
        long[] discarded = new long[1];
        List<RecordedEvent> events = record("Discard", () -> {
            for (int i = 0; i < 2_000; i++) {
                byte[] b = line(i);
                if (spool.append(b, 0, b.length, Severity.INFO) == AppendResult.DISCARDED) {
                    discarded[0]++;
                }
            }
            sink.release();
            assertTrue(spool.stop(10, TimeUnit.SECONDS)); // the stop writes the last summary
        });
        assertTrue(discarded[0] > 0, "some lines were discarded");
        assertEquals(discarded[0], events.stream().mapToLong(e -> e.getLong("discarded")).sum(), "every discard, in the summaries");
        RecordedEvent e = events.get(0);
        assertEquals("jfr-discard", e.getString("appender"));
        assertEquals("INFO", e.getString("threshold"));
        assertTrue(e.getString("byLevel").startsWith("INFO="), e.getString("byLevel"));
    }

    @Test
    void rolloversAndCompressionsAreRecorded() throws Exception {
        RollingPolicy policy = RollingPolicy.builder(dir.resolve("app-%i.log.gz").toString())
                .activeFile(dir.resolve("app.log")).maxFileSize(16 * 1024).indexing(RollingPolicy.Indexing.NEXT_FREE, 0, 0)
                .locale(Locale.ROOT).build();
        List<RecordedEvent> events = record("Rollover", () -> {
            Spool spool = Spool.start(SpoolConfig.builder("jfr-rolling").rolling(policy).build());
            for (int i = 0; i < 1_000; i++) { // ~90 KiB: a few rollovers of 16 KiB
                byte[] b = line(i);
                spool.append(b, 0, b.length, Severity.INFO);
            }
            assertTrue(spool.stop(10, TimeUnit.SECONDS)); // waits for the queued compressions
        });
        List<RecordedEvent> renames = events.stream().filter(e -> e.getString("phase").equals("rename")).collect(Collectors.toList());
        List<RecordedEvent> compressions = events.stream().filter(e -> e.getString("phase").equals("compress")).collect(Collectors.toList());
        assertTrue(renames.size() >= 3, renames.size() + " rollovers");
        assertEquals(renames.size(), compressions.size(), "each archive compressed");
        for (RecordedEvent e : events) {
            assertTrue(e.getBoolean("succeeded"), e.toString());
        }
        assertEquals(dir.resolve("app.log").toString(), renames.get(0).getString("source"));
        assertTrue(compressions.get(0).getString("target").endsWith(".log.gz"), compressions.get(0).getString("target"));
    }
}
