package io.github.spool.ring;

import java.nio.ByteBuffer;

/**
 * What the writer collected from the ring in one pass: up to {@link #MAX_SEGMENTS} byte ranges,
 * in write order, ready for one gather write, and the cells that become free once they are
 * written. Reused by the single consumer; no allocation per batch. Internal to Spool.
 */
public final class Batch {
    /** At most this many ranges per gather write (well under the kernel's IOV_MAX of 1024). */
    public static final int MAX_SEGMENTS = 16;

    final ByteBuffer[] segments = new ByteBuffer[MAX_SEGMENTS];
    final long[] records = new long[MAX_SEGMENTS];
    /** Where each range started in its cell, so a partly written range can be told apart. */
    final int[] starts = new int[MAX_SEGMENTS];
    final Cell[] done = new Cell[MAX_SEGMENTS + 1];
    int count;
    int doneCount;
    /**
     * A written dedicated cell still waiting for its successor: it stops counting against the
     * cap once its bytes are out, or an oversized record followed by silence would hold the cap.
     */
    Cell unaccount;

    /** @return number of byte ranges collected */
    public int count() {
        return count;
    }

    /** @return the ranges; entries {@code 0 .. count()-1} are valid, positioned for writing */
    public ByteBuffer[] segments() {
        return segments;
    }

    /**
     * @param i a range index
     * @return how many whole records range {@code i} holds
     */
    public long records(int i) {
        return records[i];
    }

    /**
     * @param i a range index
     * @return where range {@code i} started before any of it was written
     */
    public int start(int i) {
        return starts[i];
    }

    void add(ByteBuffer segment, long recordCount) {
        starts[count] = segment.position();
        segments[count] = segment;
        records[count] = recordCount;
        count++;
    }

    /**
     * Replaces the collected ranges by one: the writer's rendering of them (see {@code
     * RecordRenderer}). The cells stay in the batch, to be released once it is written.
     *
     * @param rendered the bytes to write instead, or {@code null} (or empty) for none
     * @param records  how many records they hold
     */
    public void replaceRanges(ByteBuffer rendered, long records) {
        for (int i = 0; i < count; i++) {
            segments[i] = null;
        }
        count = 0;
        if (rendered != null && rendered.hasRemaining()) {
            add(rendered, records);
        }
    }

    /** @return whether nothing was collected: no range and no cell to recycle */
    public boolean isEmpty() {
        return count == 0 && doneCount == 0 && unaccount == null;
    }

    void clear() {
        for (int i = 0; i < count; i++) {
            segments[i] = null;
        }
        for (int i = 0; i < doneCount; i++) {
            done[i] = null;
        }
        count = 0;
        doneCount = 0;
        unaccount = null;
    }
}
