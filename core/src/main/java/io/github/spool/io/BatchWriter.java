package io.github.spool.io;

import io.github.spool.StatusListener;
import io.github.spool.jfr.SlowWriteEvent;
import io.github.spool.metrics.WriterCounters;
import io.github.spool.ring.Batch;
import io.github.spool.ring.DirectMemory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The writer's writes to the sink: a batch's ranges in one gather write, rendered text a slice at
 * a time through a direct staging buffer, and a line of its own between batches (a discard
 * summary). It keeps what the sink's output looks like between writes (a torn last line), and
 * counts a failing sink's records as lost until the sink works again. Writer thread only; called
 * once per batch or range, never per record. Internal to Spool.
 */
final class BatchWriter {
    private final RingWriter w;
    /** Appender name, for the slow-write event. */
    private final String name;
    private final Sink sink;
    private final WriterCounters counters;
    /** Records are rendered: a heap range is then rendered text, a direct one a record passed through from the ring. */
    private final boolean rendering;
    /**
     * Rendered bytes go out through this fixed direct buffer, a slice at a time: handed a heap
     * buffer, a channel copies it whole into a temporary direct buffer of its size (and keeps it
     * cached), which would put direct memory beyond the ring's cap by a batch — or a 10 MiB line.
     * Allocated at the first rendered write (so that a start-up never fails for it, and an
     * appender that never renders holds none), freed when the writer ends (writer only).
     */
    private ByteBuffer[] staging;
    private DirectMemory.Block stagingMemory;
    /** Without direct memory for any staging buffer: the rendered range itself, written as it is. */
    private final ByteBuffer[] unstaged = new ByteBuffer[1];
    private boolean stagingTried;
    /** Whether the sink is told where records end before each write ({@link Sink#needsRecordEnds}). */
    private final boolean recordEnds;
    /** The record ends of the rendered text being written ({@link RecordRenderer.Result#ends}), or {@code null}. */
    int[] renderedEnds;
    int renderedEndCount;
    /** The end of a record passed through from the ring: one record, written alone. */
    private final int[] passThroughEnd = new int[1];
    private boolean inFault;
    /**
     * The sink's last byte is not a line end: a write ended mid-line and the next one failed.
     * The next write starts with {@link #newline}, so no line is glued onto the torn one.
     */
    private boolean torn;
    /** One line end, for {@link #torn}; reset before each use (writer only). */
    private final ByteBuffer[] newline = {ByteBuffer.wrap(new byte[] {'\n'})};
    private long faultLostRecords;
    /**
     * Set while the writer is inside a sink write (writer thread only). A record the writer
     * thread appends meanwhile was caused by the write itself — {@code follow} into a
     * {@code System.out} that is bridged back into logging — and would be written, and so
     * appended, again and again: {@link RingWriter#dropsFeedback} drops it.
     */
    boolean inSinkWrite;
    private boolean wouldBlockReported;

    BatchWriter(RingWriter w, String name, Sink sink, WriterCounters counters, boolean rendering) {
        this.w = w;
        this.name = name;
        this.sink = sink;
        this.counters = counters;
        this.rendering = rendering;
        this.recordEnds = rendering && sink.needsRecordEnds();
    }

    /** Writes one range of {@code records} records through {@link #write}. */
    void writeOne(Batch one, ByteBuffer range, long records) {
        one.replaceRanges(range, records);
        write(one);
        one.replaceRanges(null, 0);
    }

    void write(Batch batch) {
        ByteBuffer[] segments = batch.segments();
        int count = batch.count();
        int first = 0;
        int pauses = 0;
        while (first < count) {
            if (!torn && !segments[first].hasRemaining()) {
                // Empty ranges first: a write of nothing returns 0, which must not read as a full
                // non-blocking descriptor — the writer once waited for ever on a batch whose
                // remaining ranges were all empty (ContentionTest, in CI). Their records (if any)
                // count as written, as after a write that finished them.
                long records = 0;
                while (first < count && !segments[first].hasRemaining()) {
                    records += batch.records(first);
                    first++;
                }
                counters.written(records, 0);
                continue;
            }
            long n;
            if (torn && sink.sizeNow() == 0) {
                torn = false; // truncated (copytruncate) or new since the torn write: no torn line to end
            }
            boolean endingTornLine = torn;
            inSinkWrite = true;
            long began = System.nanoTime();
            SlowWriteEvent slow = new SlowWriteEvent(); // per batch, on the writer; committed only if over its threshold
            slow.begin();
            try {
                counters.writeCall();
                if (endingTornLine) {
                    newline[0].clear();
                    if (recordEnds) {
                        sink.recordEnds(null, 0, -1, 0); // the end of a torn line: place it by its line end
                    }
                    n = sink.write(newline, 0, 1);
                } else if (!rendering || segments[first].isDirect()) {
                    if (recordEnds) {
                        // A direct range here is one record passed through from the ring.
                        passThroughEnd[0] = segments[first].limit();
                        sink.recordEnds(passThroughEnd, 0, count - first == 1 ? 1 : -1, segments[first].position());
                    }
                    n = sink.write(segments, first, count - first);
                } else {
                    n = writeStaged(segments[first]);
                }
            } catch (Throwable e) {
                inSinkWrite = false;
                counters.batchWriteTime(System.nanoTime() - began);
                slowWrite(slow, -1, segments, first, count);
                // Anything a sink throws is a fault of that write, Errors included: the records
                // are counted, the writer goes on.
                fault(e, segments, first, count, batch);
                return;
            }
            inSinkWrite = false;
            counters.batchWriteTime(System.nanoTime() - began);
            slowWrite(slow, n, segments, first, count);
            if (n == 0) {
                // Would block (a non-blocking descriptor): wait for the reader rather than lose.
                if (!wouldBlockReported) {
                    wouldBlockReported = true;
                    w.report(StatusListener.Level.WARN, sink.describe()
                            + " is non-blocking and full (EAGAIN); the writer waits and retries", null);
                }
                if (w.pastDeadline()) {
                    giveUp(segments, first, count, batch);
                    w.givenUp = true; // records were dropped for the deadline: not a drain
                    return;
                }
                LockSupport.parkNanos(w, Math.min(TimeUnit.MILLISECONDS.toNanos(10), 10_000L << Math.min(pauses++, 10)));
                continue;
            }
            if (endingTornLine) {
                torn = false;
                counters.written(0, n);
                continue;
            }
            long records = 0;
            while (first < count && !segments[first].hasRemaining()) {
                records += batch.records(first);
                first++;
            }
            counters.written(records, n);
            if (inFault) {
                inFault = false;
                w.report(StatusListener.Level.INFO, "writing to " + sink.describe() + " works again; "
                        + faultLostRecords + " records were lost while it failed", null);
                faultLostRecords = 0;
            }
        }
    }

    /** Writes the next slice of a rendered (heap) range through {@link #staging}; moves its position. */
    private long writeStaged(ByteBuffer rendered) throws java.io.IOException {
        ByteBuffer[] staging = staging();
        if (staging == null) {
            unstaged[0] = rendered;
            try {
                return sink.write(unstaged, 0, 1); // moves rendered's position
            } finally {
                unstaged[0] = null;
            }
        }
        ByteBuffer st = staging[0];
        st.clear();
        int from = rendered.position();
        int len = Math.min(st.capacity(), rendered.remaining());
        int endsFrom = 0;
        int endsCount = -1;
        if (recordEnds && renderedEnds != null) {
            // The slice holds whole records where it can; the sink places them (size rollovers).
            int[] ends = renderedEnds;
            int i = 0;
            while (i < renderedEndCount && ends[i] <= from) {
                i++;
            }
            int j = i;
            while (j < renderedEndCount && ends[j] <= from + len) {
                j++;
            }
            endsFrom = i;
            endsCount = j - i;
            if (endsCount > 0 && len < rendered.remaining()) {
                len = ends[j - 1] - from;
            }
        }
        if (len < rendered.remaining() && endsCount <= 0) {
            // End the slice after its last line end: every write(2) then holds whole lines, and an
            // O_APPEND file shared with another writer (a reconfiguration's old and new appender)
            // never gets a line cut by theirs. Only a line longer than the slice goes out in parts.
            for (int i = from + len - 1; i > from; i--) {
                if (rendered.get(i) == '\n') {
                    len = i + 1 - from;
                    break;
                }
            }
        }
        st.put(0, rendered, from, len);
        st.limit(len);
        if (recordEnds) {
            sink.recordEnds(renderedEnds, endsFrom, renderedEnds == null ? -1 : endsCount, from);
        }
        long n = sink.write(staging, 0, 1);
        rendered.position(from + (int) n);
        return n;
    }

    /**
     * The staging buffer, allocated at the first call: {@link RingWriter#STAGING_BYTES}, or with too little
     * direct memory {@link RingWriter#SMALL_STAGING_BYTES} (slices are then smaller, each still whole lines),
     * or none (rendered ranges then go to the sink as they are, which may copy them itself). Said
     * once when it is not the full size; never thrown into a logging call: it runs on the writer.
     */
    private ByteBuffer[] staging() {
        if (!stagingTried) {
            stagingTried = true;
            DirectMemory.Block b = DirectMemory.tryAllocate(RingWriter.STAGING_BYTES);
            if (b == null) {
                b = DirectMemory.tryAllocate(RingWriter.SMALL_STAGING_BYTES);
                w.report(StatusListener.Level.WARN, "not enough direct memory for the " + (RingWriter.STAGING_BYTES >> 10)
                        + " KiB buffer rendered lines go out through; " + (b == null ? "writing them without one"
                        : "using " + (RingWriter.SMALL_STAGING_BYTES >> 10) + " KiB"), null);
            }
            if (b != null) {
                stagingMemory = b;
                staging = new ByteBuffer[] {b.buffer()};
            }
        }
        return staging;
    }

    /** Gives back the staging buffer's direct memory now; the writer has ended. */
    void freeStaging() {
        DirectMemory.Block b = stagingMemory;
        if (b != null) {
            stagingMemory = null;
            staging = null;
            b.free();
        }
    }

    private void fault(Throwable e, ByteBuffer[] segments, int first, int count, Batch batch) {
        counters.writeError();
        long lost = giveUp(segments, first, count, batch);
        if (!inFault) {
            inFault = true;
            w.report(StatusListener.Level.ERROR, "writing to " + sink.describe() + " failed (" + e
                    + "); records are dropped and counted until the sink works again", e);
        }
        faultLostRecords += lost;
        if (!w.stopRequested) {
            LockSupport.parkNanos(w, RingWriter.FAULT_PAUSE_NANOS);
        }
    }

    /**
     * Counts the rest of a batch as lost. Ranges from {@code first} on may be partly written: by a
     * short write before the one that failed, or by a sink that wrote part of a gather write and
     * then threw (a rolling file meeting ENOSPC mid-batch). In each, the whole records that reached
     * the sink count as written, found by their line ends when every record of the range is
     * exactly one line (the ring keeps no record boundaries; the adapters' layouts end each record
     * with one line separator); the record the sink stopped in counts as lost, once. A partly
     * written range whose records are not one line each counts wholly as lost, and
     * docs/reliability.md says so. When the sink's last byte is not a line end, the next write
     * ends that torn line first ({@link #torn}).
     *
     * @return records lost
     */
    private long giveUp(ByteBuffer[] segments, int first, int count, Batch batch) {
        long records = 0;
        long bytes = 0;
        int lastTouched = -1;
        for (int i = first; i < count; i++) {
            ByteBuffer s = segments[i];
            int start = batch.start(i);
            long inRange = batch.records(i);
            bytes += s.remaining();
            if (s.position() > start) {
                lastTouched = i;
                if (countLineEnds(s, start, s.limit()) == inRange) {
                    long out = countLineEnds(s, start, s.position());
                    counters.written(out, 0);
                    records += inRange - out;
                    continue;
                }
            }
            records += inRange;
        }
        if (lastTouched >= 0) {
            ByteBuffer s = segments[lastTouched];
            torn = s.get(s.position() - 1) != '\n';
        }
        counters.lost(records, bytes);
        return records;
    }

    private static long countLineEnds(ByteBuffer b, int from, int to) {
        long n = 0;
        for (int i = from; i < to; i++) {
            if (b.get(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    /**
     * Ends a batch write's {@link SlowWriteEvent} and commits it if a recording wants it (over its
     * threshold, 20 ms by default). The bytes asked are what the write took plus what the
     * segments still hold, added up only then.
     */
    private void slowWrite(SlowWriteEvent event, long written, ByteBuffer[] segments, int first, int count) {
        try {
            event.end();
            if (event.shouldCommit()) {
                long left = 0;
                for (int i = first; i < count; i++) {
                    left += segments[i].remaining();
                }
                event.appender = name;
                event.written = written;
                event.bytes = Math.max(written, 0) + left;
                event.commit();
            }
        } catch (Throwable ignored) {
            // a diagnostic must never take the writer down
        }
    }

    /**
     * Writes a discard summary, {@code text} ending with a line separator, between two batches: on
     * a line of its own after a torn line. A sink that fails here counts a write error, no fault
     * episode: the summary is no record.
     */
    void writeSummaryLine(String text) {
        // After a torn line, the summary starts on a line of its own (unless the file was emptied since).
        if (torn && sink.sizeNow() == 0) {
            torn = false;
        }
        String line = (torn ? System.lineSeparator() : "") + text;
        ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        ByteBuffer[] one = {bytes};
        try {
            while (bytes.hasRemaining()) {
                if (w.pastDeadline()) {
                    // the stop deadline outranks the summary; the counters keep the figures
                    torn |= bytes.position() > 0;
                    return;
                }
                counters.writeCall();
                if (recordEnds) {
                    sink.recordEnds(null, 0, -1, 0); // one line, between two batches
                }
                long n;
                inSinkWrite = true;
                try {
                    n = sink.write(one, 0, 1);
                } finally {
                    inSinkWrite = false;
                }
                if (n == 0) {
                    LockSupport.parkNanos(w, TimeUnit.MILLISECONDS.toNanos(1));
                } else {
                    counters.written(0, n);
                }
            }
            torn = false;
            counters.summaryLine();
        } catch (Throwable e) {
            if (bytes.position() > 0) {
                torn = bytes.get(bytes.position() - 1) != '\n';
            }
            counters.writeError();
        }
    }
}
