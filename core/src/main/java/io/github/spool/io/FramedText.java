package io.github.spool.io;

import io.github.spool.AppendResult;
import io.github.spool.OwnedThreadLocal;
import io.github.spool.ring.ManyToOneCellRing;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;

import java.nio.ByteBuffer;

/**
 * Text records framed for a sink that must know where records end ({@link Sink#needsRecordEnds}:
 * a file rolling by size) while the adapter renders on its caller, whose records are bare text
 * the ring keeps no boundaries of. The caller's bytes get {@link RecordCodec}'s text header,
 * through a per-thread scratch array (allocation-free once it has grown), and the writer reads the
 * frames back as an {@link EventRecordRenderer}, learning each record's end. One copy more on each
 * side, paid only by size-rolling files rendered on the caller. Internal to Spool.
 */
public final class FramedText extends EventRecordRenderer {

    /** A scratch array larger than this is dropped after use, not pinned in the thread. */
    private static final int KEEP_BYTES = 64 << 10;

    private final OwnedThreadLocal<byte[][]> scratch = OwnedThreadLocal.withInitial(() -> new byte[][] {new byte[1024]});

    /** Creates the framing of one appender. */
    public FramedText() {
    }

    /**
     * Appends {@code src[offset, offset+length)} to {@code ring} as one framed text record.
     *
     * @param ring     the appender's ring
     * @param src      bytes
     * @param offset   first byte
     * @param length   number of bytes
     * @param severity the record's severity
     * @return what the ring did with it
     */
    public AppendResult append(ManyToOneCellRing ring, byte[] src, int offset, int length, int severity) {
        if (length == 0) {
            return ring.append(src, offset, 0, severity); // writes nothing: no frame needed
        }
        if (ring.virtualCallerWouldPark()) { // frame into an exact array: no borrowed scratch held while parked
            byte[] frame = frame(new byte[][] {new byte[RecordCodec.TEXT_HEADER + length]}, length);
            System.arraycopy(src, offset, frame, RecordCodec.TEXT_HEADER, length);
            return ring.append(frame, 0, frame.length, severity);
        }
        byte[][] holder = scratch.acquire();
        try {
            byte[] frame = frame(holder, length);
            System.arraycopy(src, offset, frame, RecordCodec.TEXT_HEADER, length);
            return ring.append(frame, 0, RecordCodec.TEXT_HEADER + length, severity);
        } finally {
            scratch.release(holder);
        }
    }

    /**
     * Appends the remaining bytes of {@code src} as one framed text record; its position is unchanged.
     *
     * @param ring     the appender's ring
     * @param src      bytes between position and limit
     * @param severity the record's severity
     * @return what the ring did with it
     */
    public AppendResult append(ManyToOneCellRing ring, ByteBuffer src, int severity) {
        int length = src.remaining();
        if (length == 0) {
            return ring.append(src, severity);
        }
        if (ring.virtualCallerWouldPark()) { // frame into an exact array: no borrowed scratch held while parked
            byte[] frame = frame(new byte[][] {new byte[RecordCodec.TEXT_HEADER + length]}, length);
            src.get(src.position(), frame, RecordCodec.TEXT_HEADER, length);
            return ring.append(frame, 0, frame.length, severity);
        }
        byte[][] holder = scratch.acquire();
        try {
            byte[] frame = frame(holder, length);
            src.get(src.position(), frame, RecordCodec.TEXT_HEADER, length);
            return ring.append(frame, 0, RecordCodec.TEXT_HEADER + length, severity);
        } finally {
            scratch.release(holder);
        }
    }

    private static byte[] frame(byte[][] holder, int length) {
        int size = RecordCodec.TEXT_HEADER + length;
        byte[] frame = holder[0];
        if (frame.length < size) {
            frame = new byte[Math.max(size, frame.length * 2)];
            if (size <= KEEP_BYTES) {
                holder[0] = frame;
            }
        }
        frame[0] = RecordCodec.RECORD_TEXT;
        frame[1] = (byte) (length >>> 24);
        frame[2] = (byte) (length >>> 16);
        frame[3] = (byte) (length >>> 8);
        frame[4] = (byte) length;
        return frame;
    }

    @Override
    protected boolean renderEvent(ByteBuffer in, ByteLineBuilder out) {
        throw new IllegalStateException("a framed text ring holds no event records");
    }
}
