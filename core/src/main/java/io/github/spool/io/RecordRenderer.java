package io.github.spool.io;

import io.github.spool.text.ByteLineBuilder;

import java.nio.ByteBuffer;

/**
 * Turns the records an appender put in the ring into the bytes its sink receives, on the writer
 * thread. The adapters' capture mode appends compact binary records (an event's fields, not its
 * text) and renders them here, off the application's threads (docs/design.md, "Capture on the
 * caller, render on the writer"). Such records frame themselves: the ring keeps no boundaries.
 */
public interface RecordRenderer {

    /**
     * Renders whole records from {@code range}'s position onto {@code out}, until the range ends
     * or the next record is a text better written as it lies in the ring (a long line, already
     * rendered by its producer): then the range's position is left at that text's first byte and
     * {@link Result#passThrough} says how long it is; the writer writes it and calls again. A record
     * it cannot render is left out and counted in {@link Result#left}, never thrown for.
     *
     * @param range  the records; the renderer moves its position past what it handled
     * @param out    where the rendered bytes go (appended)
     * @param result cleared by the caller; filled in by the renderer
     */
    void render(ByteBuffer range, ByteLineBuilder out, Result result);

    /** What one {@link #render} call did. Reused by the writer. */
    final class Result {
        /** Records whose text is in {@code out}. */
        public long rendered;
        /** Records left out (counted as lost). */
        public long left;
        /** Bytes at the range's position to write as they are, as one more record; 0 for none. */
        public int passThrough;
        /**
         * Where each rendered record ends in {@code out} (its length just after the record), for a
         * sink that places whole records ({@link Sink#needsRecordEnds}); {@link #endCount} entries.
         */
        public int[] ends = new int[256];
        /** Entries of {@link #ends}. */
        public int endCount;

        /** Zeroes the fields. */
        public void clear() {
            rendered = 0;
            left = 0;
            passThrough = 0;
            endCount = 0;
        }

        /**
         * Notes that a record's text ends at {@code at} in {@code out}.
         *
         * @param at the length of {@code out} after the record
         */
        public void recordEnd(int at) {
            if (endCount == ends.length) {
                ends = java.util.Arrays.copyOf(ends, endCount * 2);
            }
            ends[endCount++] = at;
        }
    }
}
