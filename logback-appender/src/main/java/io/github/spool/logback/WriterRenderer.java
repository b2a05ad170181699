package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import io.github.spool.io.EventRecordRenderer;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import java.nio.ByteBuffer;

/**
 * The writer's half of render-on-writer for logback: reads {@link EventCapture}'s records and
 * renders each line with the appender's own encoder ({@link SpoolEncoder}, {@link SpoolJsonEncoder}) from a {@link CapturedEvent} —
 * the same conversions the caller would have run, fed the same values, hence the same bytes.
 * Strings come back as {@code String}s (allocation on this thread, never on the caller); primitive
 * arguments stay unboxed unless a conversion asks for the argument array. Used by one writer
 * thread only. Internal to the logback adapter.
 */
final class WriterRenderer extends EventRecordRenderer {

    private final LineEncoder encoder;
    /** Whether records carry MDC entries ({@link SpoolEncoder#capturedMdcKeys()}). */
    private final boolean mdc;
    private final CapturedMdc mdcMap = new CapturedMdc();
    private final CapturedEvent event = new CapturedEvent(mdcMap);

    WriterRenderer(LineEncoder encoder) {
        this.encoder = encoder;
        this.mdc = encoder.capturedMdcKeys() != null;
    }

    @Override
    protected boolean renderEvent(ByteBuffer in, ByteLineBuilder out) {
        long timeStamp = in.getLong();
        int nanos = in.getInt();
        Level level = Level.toLevel(in.getInt());
        String logger = EventCapture.LOGGERS.name(in.getInt());
        String thread = EventCapture.THREADS.name(in.getInt());
        byte kind = in.get();
        String message;
        int argumentCount = -1;
        if (kind == EventCapture.MSG_TEXT) {
            message = readString(in);
        } else if (kind == EventCapture.MSG_FORMAT) {
            message = EventCapture.FORMATS.name(in.getInt());
            argumentCount = in.get() & 0xFF;
            for (int k = 0; k < argumentCount; k++) {
                byte type = in.get();
                if (RecordCodec.isPrimitive(type)) {
                    event.setArgument(k, type, RecordCodec.readBits(in, type), null);
                } else {
                    event.setArgument(k, type, 0, (String) readValue(in, type));
                }
            }
        } else {
            throw new IllegalStateException("unknown message kind " + kind);
        }
        boolean noMdc = false;
        mdcMap.clear();
        if (mdc) {
            int n = in.getInt();
            noMdc = n < 0;
            for (; n > 0; n--) {
                String key = EventCapture.MDC_KEYS.name(in.getInt());
                mdcMap.add(key, (String) readValue(in, in.get()));
            }
        }
        try {
            event.set(timeStamp, nanos, level, logger, thread, message, argumentCount, noMdc);
            encoder.encodeTo(event, out);
            return true;
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            return false;
        } finally {
            event.clear();
            mdcMap.clear();
        }
    }

    private static String readString(ByteBuffer in) {
        return RecordCodec.readString(in, in.get());
    }

    /** @return an argument or MDC value of {@code type}, as {@link RecordCodec#putValue} wrote it */
    private static Object readValue(ByteBuffer in, byte type) {
        switch (type) {
            case RecordCodec.NULL:
                return null;
            case RecordCodec.STR_ASCII:
            case RecordCodec.STR_UTF16:
                return RecordCodec.readString(in, type);
            default:
                return RecordCodec.readBoxed(in, type);
        }
    }
}
