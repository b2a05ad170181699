package io.github.spool;

import io.github.spool.io.ChannelSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Drain on stop, and sink faults: producers never see them, status fires once per episode, counts add up. */
class DrainAndFaultTest {
    @TempDir
    Path dir;

    private static byte[] line(int i) {
        return String.format("line %08d %s%n", i, "y".repeat(80)).getBytes();
    }

    @Test
    void stopDrainsEverythingIntoTheFile() throws Exception {
        Path file = dir.resolve("drain.log");
        Spool spool = Spool.start(SpoolConfig.builder("drain").file(file).build());
        int n = 300_000;
        for (int i = 0; i < n; i++) {
            byte[] b = line(i);
            assertEquals(AppendResult.ACCEPTED, spool.append(b, 0, b.length, Severity.INFO));
        }
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(n, Files.readAllLines(file).size());
        assertEquals(AppendResult.CLOSED, spool.append(line(0), 0, 10, Severity.INFO), "stopped appender refuses");
        assertTrue(spool.stop(1, TimeUnit.SECONDS), "stop is idempotent");
        Figures.print("DrainAndFaultTest drain", "produced=" + n, spool.stats());
    }

    @Test
    void devFullLosesCountedRecordsWithOneStatusMessage() throws Exception {
        RecordedStatus status = new RecordedStatus();
        Spool spool = Spool.start(SpoolConfig.builder("devfull").statusListener(status).build(),
                ChannelSink.append(Path.of("/dev/full")));
        int n = 50_000;
        for (int i = 0; i < n; i++) {
            byte[] b = line(i);
            assertEquals(AppendResult.ACCEPTED, spool.append(b, 0, b.length, Severity.INFO));
        }
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(n, spool.stats().getEventsWritten() + spool.stats().getEventsLost(), "accepted = written + lost");
        assertEquals(n, spool.stats().getEventsLost());
        assertTrue(spool.stats().getWriteErrors() > 0);
        assertEquals(1, status.count(StatusListener.Level.ERROR), status::toString);
        assertTrue(status.toString().contains("No space left on device"), status::toString);
        Figures.print("DrainAndFaultTest devfull", "produced=" + n, spool.stats());
    }

    @Test
    void faultEpisodesAreReportedOnceEachAndRecoveryResumesOutput() throws Exception {
        RecordedStatus status = new RecordedStatus();
        TestSink sink = new TestSink();
        Spool spool = Spool.start(SpoolConfig.builder("episodes").statusListener(status).build(), sink);
        int accepted = 0;
        StringBuilder recovered = new StringBuilder();
        for (int episode = 0; episode < 2; episode++) {
            sink.fail(new IOException("Broken pipe"));
            for (int i = 0; i < 1_000; i++) {
                byte[] b = line(i);
                spool.append(b, 0, b.length, Severity.INFO);
                accepted++;
            }
            long errorsBefore = spool.stats().getWriteErrors();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (spool.stats().getEventsWritten() + spool.stats().getEventsLost() < accepted) {
                assertTrue(System.nanoTime() < deadline, "writer keeps draining while the sink fails");
                Thread.onSpinWait();
            }
            assertTrue(spool.stats().getWriteErrors() >= errorsBefore);
            long before = sink.size();
            sink.heal();
            long healed = System.nanoTime();
            byte[] b = line(-1);
            spool.append(b, 0, b.length, Severity.INFO);
            accepted++;
            assertTrue(sink.awaitSize(before + b.length, 10_000), "new lines arrive after recovery (within 10 s: liveness)");
            // Time to recover: from the sink healing to the first new line written.
            recovered.append(" recoverMicros").append(episode + 1).append('=')
                    .append(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - healed));
        }
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(accepted, spool.stats().getEventsWritten() + spool.stats().getEventsLost());
        assertEquals(2, status.count(StatusListener.Level.ERROR), status::toString);
        assertEquals(2, status.count(StatusListener.Level.INFO), status::toString);
        Figures.print("DrainAndFaultTest episodes", "produced=" + accepted + recovered, spool.stats());
    }

    @Test
    void pipeWhoseReaderGoesAwayGivesEpipeNotAnException() throws Exception {
        Fifo fifo = Fifo.open(dir);
        RecordedStatus status = new RecordedStatus();
        Spool spool = Spool.start(SpoolConfig.builder("epipe").statusListener(status).build(), fifo.sink);
        FileChannel in = fifo.reader;
        int n = 20_000;
        ByteBuffer first = ByteBuffer.allocate(1_000);
        for (int i = 0; i < n; i++) {
            byte[] b = line(i);
            assertEquals(AppendResult.ACCEPTED, spool.append(b, 0, b.length, Severity.INFO));
            if (i == 100) {
                while (first.hasRemaining()) {
                    in.read(first);
                }
                in.close(); // the reader exits early
            }
        }
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertEquals(n, spool.stats().getEventsWritten() + spool.stats().getEventsLost(), "accepted = written + lost");
        assertTrue(spool.stats().getEventsLost() > 0);
        assertEquals(1, status.count(StatusListener.Level.ERROR), status::toString);
        assertTrue(status.toString().contains("Broken pipe"), status::toString);
        Figures.print("DrainAndFaultTest epipe", "produced=" + n, spool.stats());
    }
}
