package io.github.spool.metrics;

/**
 * The writer thread's counters. One writer updates them (plain read-modify-write of volatile
 * fields is safe with a single writer); any thread reads them. Volatile stores cost the writer
 * once per batch, not per record. Internal to Spool.
 */
public final class WriterCounters {
    private volatile long recordsWritten;
    private volatile long bytesWritten;
    private volatile long recordsLost;
    private volatile long bytesLost;
    private volatile long writeErrors;
    private volatile long writeCalls;
    private volatile long summaryLines;
    private volatile long timedWrites;
    private volatile long writeNanos;

    /**
     * Counts a successful write.
     *
     * @param records whole records it completed
     * @param bytes   bytes it wrote
     */
    public void written(long records, long bytes) {
        recordsWritten += records;
        bytesWritten += bytes;
    }

    /** Counts one call to the sink. */
    public void writeCall() {
        writeCalls++;
    }

    /**
     * Counts records given up because the sink failed.
     *
     * @param records whole records lost
     * @param bytes   bytes lost
     */
    public void lost(long records, long bytes) {
        recordsLost += records;
        bytesLost += bytes;
    }

    /**
     * Times one write of a batch to the sink (a rollover it triggers included), failed or not: two
     * clock reads per write call, on the writer, which a system call dwarfs.
     *
     * @param nanos how long the call took
     */
    public void batchWriteTime(long nanos) {
        timedWrites++;
        writeNanos += nanos;
    }

    /** Counts one failed write. */
    public void writeError() {
        writeErrors++;
    }

    /** Counts one discard summary line written into the stream. */
    public void summaryLine() {
        summaryLines++;
    }

    /** @return records written to the sink */
    public long recordsWritten() {
        return recordsWritten;
    }

    /** @return bytes written to the sink (discard summary lines included) */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** @return records lost to sink faults */
    public long recordsLost() {
        return recordsLost;
    }

    /** @return bytes lost to sink faults */
    public long bytesLost() {
        return bytesLost;
    }

    /** @return failed write calls */
    public long writeErrors() {
        return writeErrors;
    }

    /** @return write calls made to the sink */
    public long writeCalls() {
        return writeCalls;
    }

    /** @return batch writes timed by {@link #batchWriteTime} */
    public long timedWrites() {
        return timedWrites;
    }

    /** @return the time the batch writes of {@link #timedWrites()} took in all, in ns */
    public long writeNanos() {
        return writeNanos;
    }

    /** @return discard summary lines written */
    public long summaryLines() {
        return summaryLines;
    }
}
