package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import io.github.spool.io.EventRecordRenderer;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import java.nio.ByteBuffer;

/**
 * The writer's half of render-on-writer for logback: reads {@link EventCapture}'s records and
 * renders each line with the appender's own {@link SpoolEncoder} from a {@link CapturedEvent} —
 * the same conversions the caller would have run, fed the same values, hence the same bytes.
 * Strings come back as {@code String}s and arguments boxed again: allocation on this thread, never
 * on the caller. Used by one writer thread only. Internal to the logback adapter.
 */
final class WriterRenderer extends EventRecordRenderer {

    private final SpoolEncoder encoder;
    /** Whether records carry MDC entries ({@link SpoolEncoder#capturedMdcKeys()}). */
    private final boolean mdc;
    private final CapturedMdc mdcMap = new CapturedMdc();
    private final CapturedEvent event = new CapturedEvent(mdcMap);
    /** Argument arrays by length: {@code MessageFormatter} reads the array's length as the count. */
    private final Object[][] argArrays = new Object[EventCapture.MAX_ARGS + 1][];

    WriterRenderer(SpoolEncoder encoder) {
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
        Object[] args = null;
        if (kind == EventCapture.MSG_TEXT) {
            message = readString(in);
        } else if (kind == EventCapture.MSG_FORMAT) {
            message = EventCapture.FORMATS.name(in.getInt());
            int n = in.get() & 0xFF;
            args = argArrays[n];
            if (args == null) {
                args = new Object[n];
                argArrays[n] = args;
            }
            for (int i = 0; i < n; i++) {
                args[i] = readValue(in);
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
                mdcMap.add(key, (String) readValue(in));
            }
        }
        try {
            event.set(timeStamp, nanos, level, logger, thread, message, args, noMdc);
            encoder.encodeTo(event, out);
            return true;
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            return false;
        } finally {
            event.clear();
            mdcMap.clear();
            if (args != null) {
                java.util.Arrays.fill(args, null);
            }
        }
    }

    private static String readString(ByteBuffer in) {
        return RecordCodec.readString(in, in.get());
    }

    /** @return an argument or MDC value, as {@link RecordCodec#putValue} wrote it */
    private static Object readValue(ByteBuffer in) {
        byte type = in.get();
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
