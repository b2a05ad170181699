package io.github.spool;

/** What a producer does when the ring is at {@code maxBufferSize} and the writer is behind. */
public enum OverflowPolicy {
    /** Wait for the writer to free space: nothing is lost, the caller may wait. */
    BLOCK,
    /**
     * Drop events at or below the discard threshold (counted per level and reported in the stream);
     * more severe events wait as with {@link #BLOCK}.
     */
    DISCARD
}
