package io.github.spool.log4j2;

import io.github.spool.io.EventRecordRenderer;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.message.ReusableParameterizedMessage;

import java.nio.ByteBuffer;
import java.util.Arrays;

import static io.github.spool.log4j2.EventCapture.*;

/**
 * The writer's half of render-on-writer: reads {@link EventCapture}'s records and renders each line
 * with the appender's {@link CapturingLayout} ({@link SpoolLayout}, {@link SpoolJsonTemplateLayout})
 * from a {@link CapturedEvent} — the same segments or resolvers the caller would have run, fed the
 * same values, hence the same bytes. Used by one writer thread only.
 * Internal API.
 *
 * <p>A parameterized message is formatted here by log4j2's own {@link ReusableParameterizedMessage}
 * with the captured arguments as reused objects that log4j2 appends through
 * {@code StringBuilderFormattable.formatTo}: strings as {@link CapturedText}s (the very chars it
 * appends for a {@code String}, {@code StringBuilders.appendSpecificTypes} in log4j-api 2.26.1)
 * and primitives unboxed as {@link CapturedPrimitive}s, so a record allocates nothing for them.
 * Context values that are not strings are boxed again, on this thread, never on the caller.
 */
final class WriterRenderer extends EventRecordRenderer {

    private final CapturingLayout layout;
    private final SpoolLayout.Scratch scratch = new SpoolLayout.Scratch();
    /** The writer's output as the layout's line: lines are rendered into it, not copied. */
    private LineBuffer target;
    /** Whether records carry context entries ({@link SpoolLayout#capturedContextKeys()}). */
    private final boolean context;
    private final CapturedContext contextData = new CapturedContext();
    private final CapturedEvent event = new CapturedEvent(contextData);
    private final CapturedText textMessage = new CapturedText();
    private final ReusableParameterizedMessage parameterized = new ReusableParameterizedMessage();
    /** Argument arrays by length: {@code set(format, args)} takes the array's length as the count. */
    private final Object[][] argArrays = new Object[MAX_ARGS + 1][];
    /**
     * String arguments and context values, reused slot by slot: log4j2 appends them through
     * {@code formatTo}.
     */
    private CapturedText[] argTexts = new CapturedText[4];
    /** Slots of {@link #argTexts} the current record uses. */
    private int textsUsed;
    /** Primitive arguments, reused slot by slot. */
    private CapturedPrimitive[] argPrimitives = new CapturedPrimitive[4];
    /** Levels by id, resolved once each. */
    private Level[] levels = new Level[16];

    WriterRenderer(CapturingLayout layout) {
        this.layout = layout;
        this.context = layout.capturedContextKeys() != null;
    }

    @Override
    protected boolean renderEvent(ByteBuffer in, ByteLineBuilder out) {
        long second = in.getLong();
        int nanos = in.getInt();
        Level level = level(in.getInt());
        String logger = LOGGERS.name(in.getInt());
        String thread = THREADS.name(in.getInt());
        textsUsed = 0;
        Message message = readMessage(in);
        if (context) {
            contextData.clear(); // a record that failed to read may have left entries
            readContext(in);
        }
        try {
            event.set(second, nanos, level, logger, thread, message);
            if (target == null || target.bytes() != out) {
                target = new LineBuffer(out); // the writer hands the same builder every time
            }
            layout.renderCaptured(event, scratch, target);
            return true;
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            return false;
        } finally {
            release();
        }
    }

    /** Drops what a huge message left behind, so the writer does not pin it until the next one. */
    private void release() {
        parameterized.clear();
        contextData.clear();
        textMessage.trim();
        for (CapturedText t : argTexts) {
            if (t != null) {
                t.trim();
            }
        }
        SpoolLayout.releaseScratch(scratch);
    }

    private Level level(int id) {
        if (id >= levels.length) {
            levels = Arrays.copyOf(levels, Math.max(id + 1, levels.length * 2));
        }
        Level l = levels[id];
        if (l == null) {
            l = Level.getLevel(LEVELS.name(id));
            levels[id] = l;
        }
        return l;
    }

    private Message readMessage(ByteBuffer in) {
        byte kind = in.get();
        if (kind == MSG_TEXT) {
            textMessage.read(in, in.get());
            return textMessage;
        }
        if (kind != MSG_PARAMETERIZED) {
            throw new IllegalStateException("unknown message kind " + kind);
        }
        String format = FORMATS.name(in.getInt());
        int n = in.get() & 0xFF;
        Object[] args = argArrays[n];
        if (args == null) {
            args = new Object[n];
            argArrays[n] = args;
        }
        for (int i = 0; i < n; i++) {
            byte type = in.get();
            if (RecordCodec.isPrimitive(type)) {
                CapturedPrimitive p = argPrimitive(i);
                p.set(type, RecordCodec.readBits(in, type));
                args[i] = p;
            } else {
                args[i] = readValue(in, type);
            }
        }
        parameterized.set(format, args);
        return parameterized;
    }

    private void readContext(ByteBuffer in) {
        for (int n = in.getInt(); n > 0; n--) {
            String key = CONTEXT_KEYS.name(in.getInt());
            contextData.add(key, readValue(in, in.get()));
        }
    }

    /** @return an argument or context value, as {@link RecordCodec#putValue} wrote it */
    private Object readValue(ByteBuffer in, byte type) {
        switch (type) {
            case RecordCodec.NULL:
                return null;
            case RecordCodec.STR_ASCII:
            case RecordCodec.STR_UTF16:
                CapturedText text = argText(textsUsed++);
                text.read(in, type);
                return text;
            default:
                return RecordCodec.readBoxed(in, type);
        }
    }

    private CapturedPrimitive argPrimitive(int i) {
        if (i >= argPrimitives.length) {
            argPrimitives = Arrays.copyOf(argPrimitives, Math.max(i + 1, argPrimitives.length * 2));
        }
        CapturedPrimitive p = argPrimitives[i];
        if (p == null) {
            p = new CapturedPrimitive();
            argPrimitives[i] = p;
        }
        return p;
    }

    private CapturedText argText(int i) {
        if (i >= argTexts.length) {
            argTexts = Arrays.copyOf(argTexts, Math.max(i + 1, argTexts.length * 2));
        }
        CapturedText t = argTexts[i];
        if (t == null) {
            t = new CapturedText();
            argTexts[i] = t;
        }
        return t;
    }
}
