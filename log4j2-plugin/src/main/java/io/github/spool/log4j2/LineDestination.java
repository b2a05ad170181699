package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import java.nio.ByteBuffer;
import org.apache.logging.log4j.core.layout.ByteBufferDestination;

/**
 * A {@link ByteBufferDestination} that appends what a log4j2 layout's {@code encode} writes to a
 * {@link ByteLineBuilder}, after what it holds: {@link SpoolJsonTemplateLayout} hands it to its
 * internal {@code JsonTemplateLayout}, on the caller (into a text record) and on the writer (into
 * the writer's output). Reused: allocates nothing per event. One thread at a time. Internal API.
 */
final class LineDestination implements ByteBufferDestination {

    /** log4j2's encoder fills this and asks to drain it when full. */
    private final ByteBuffer buffer = ByteBuffer.allocate(8 << 10);
    private ByteLineBuilder out;

    /** Starts appending to {@code target}. */
    void begin(ByteLineBuilder target) {
        out = target;
        buffer.clear();
    }

    /** Moves what is still buffered into the builder and lets go of it. */
    void end() {
        flush();
        out = null;
    }

    private void flush() {
        buffer.flip();
        out.append(buffer.array(), 0, buffer.limit());
        buffer.clear();
    }

    @Override
    public ByteBuffer getByteBuffer() {
        return buffer;
    }

    @Override
    public ByteBuffer drain(ByteBuffer buf) {
        flush();
        return buffer;
    }

    @Override
    public void writeBytes(ByteBuffer data) {
        flush(); // keep the order of what was buffered and what comes now
        out.append(data, data.remaining());
    }

    @Override
    public void writeBytes(byte[] data, int offset, int length) {
        flush();
        out.append(data, offset, length);
    }
}
