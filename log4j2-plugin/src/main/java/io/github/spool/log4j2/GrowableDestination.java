package io.github.spool.log4j2;

import java.nio.ByteBuffer;
import org.apache.logging.log4j.core.layout.ByteBufferDestination;

/**
 * A {@link ByteBufferDestination} over a heap buffer that grows instead of draining, so any
 * layout's {@code encode} leaves one whole record in {@link #array()} {@code [0, }{@link
 * #length()}{@code )}: a record larger than the buffer is kept whole, never split or truncated.
 * One per thread (see {@link SpoolAppender}); not thread-safe. Internal API.
 */
final class GrowableDestination implements ByteBufferDestination {

    /** Initial capacity; a typical line fits. */
    static final int INITIAL_CAPACITY = 8 << 10;
    /** Above this the buffer is replaced by a fresh small one after the record, so one huge
     *  record does not pin memory in every thread forever. */
    static final int RETAIN_LIMIT = 256 << 10;

    private ByteBuffer buffer = ByteBuffer.allocate(INITIAL_CAPACITY);
    /** True while an encode is in progress; a nested append on this thread must not reuse it. */
    boolean busy;

    /** Empties the buffer for the next record, shrinking it if the last record was huge. */
    void reset() {
        if (buffer.capacity() > RETAIN_LIMIT) {
            buffer = ByteBuffer.allocate(INITIAL_CAPACITY);
        } else {
            buffer.clear();
        }
    }

    /** @return the backing array; the record is {@code [0, length())} */
    byte[] array() {
        return buffer.array();
    }

    /** @return bytes written since {@link #reset()} */
    int length() {
        return buffer.position();
    }

    @Override
    public ByteBuffer getByteBuffer() {
        return buffer;
    }

    /** Grows instead of writing anything out: the caller continues with the returned buffer. */
    @Override
    public ByteBuffer drain(ByteBuffer buf) {
        ensureRoom(Math.max(1, buf.capacity()));
        return buffer;
    }

    @Override
    public void writeBytes(ByteBuffer data) {
        ensureRoom(data.remaining());
        buffer.put(data);
    }

    @Override
    public void writeBytes(byte[] data, int offset, int length) {
        ensureRoom(length);
        buffer.put(data, offset, length);
    }

    private void ensureRoom(int bytes) {
        if (buffer.remaining() >= bytes) {
            return;
        }
        long needed = (long) buffer.position() + bytes;
        long capacity = Math.max(needed, 2L * buffer.capacity());
        if (capacity > Integer.MAX_VALUE - 16) {
            if (needed > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("record larger than 2 GiB");
            }
            capacity = Integer.MAX_VALUE - 16;
        }
        ByteBuffer bigger = ByteBuffer.allocate((int) capacity);
        buffer.flip();
        bigger.put(buffer);
        buffer = bigger;
    }
}
