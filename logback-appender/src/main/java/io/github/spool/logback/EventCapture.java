package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import io.github.spool.text.SymbolCache;
import io.github.spool.text.SymbolTable;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The caller's half of render-on-writer for logback: copies what a {@link SpoolEncoder} line is
 * made of into a compact binary record; {@link WriterRenderer} renders the line from it on the
 * writer thread. Internal to the logback adapter.
 *
 * <p>What is captured: the time stamp (milliseconds and nanoseconds), the level, logger and thread
 * name (ids into {@link SymbolTable}s: a name is copied once, not per event), and the message —
 * for a plain {@link LoggingEvent} its pattern (an id) and its arguments when every argument is of
 * an immutable type whose text is fixed by its value ({@code String}, boxed primitives), else the
 * formatted message — {@code getFormattedMessage()}, which returns the text logback cached on the
 * logging thread when an {@code AsyncAppender} (or an earlier appender) formatted it, so a
 * {@code StringBuilder}/{@code StringBuffer} argument changed since prints as it was then; when
 * the pattern prints the MDC ({@code %X}), the entries it prints. An event with a throwable or key-value pairs, or whose names do not fit the tables, is not
 * captured: the caller renders it and appends a text record.
 *
 * <p>Record format ({@link RecordCodec}: big-endian, text records, values): a kind byte;
 * {@link RecordCodec#RECORD_EVENT}: long time stamp, int nanoseconds, int level, logger and thread
 * ids, a message kind byte, then {@link #MSG_TEXT}: a string; {@link #MSG_FORMAT}: int pattern id,
 * an argument count byte and the arguments, each a value; then, for a pattern with {@code %X}, an
 * int entry count ({@code -1}: the event had no MDC map) and the entries, each an int key id and a
 * value. Strings travel exactly (any surrogate as UTF-16): the writer rebuilds them as
 * {@code String}s.
 */
final class EventCapture {

    static final byte MSG_TEXT = 0;
    static final byte MSG_FORMAT = 1;

    /** Most arguments a captured message carries (the count is one byte). */
    static final int MAX_ARGS = 255;

    /** Most MDC entries captured: an event with more is rendered by the caller. */
    static final int MAX_MDC_ENTRIES = 1024;

    /** {@link SpoolEncoder#capturedMdcKeys()} of a pattern that prints the whole MDC. */
    static final String[] ALL_KEYS = new String[0];

    /**
     * As {@link #ALL_KEYS}, and the message must travel as its pattern and arguments (an event
     * whose arguments cannot is not captured, rather than sent as its formatted text): for
     * encoders that print the pattern, such as logback's {@code JsonEncoder}.
     */
    static final String[] ALL_KEYS_AND_PATTERN = new String[0];

    /** Shared by every Spool appender of this class loader; read back by their writers. */
    static final SymbolTable LOGGERS = new SymbolTable();
    static final SymbolTable THREADS = new SymbolTable();
    static final SymbolTable FORMATS = new SymbolTable();
    static final SymbolTable MDC_KEYS = new SymbolTable();

    private EventCapture() {
    }

    /** One thread's ids of the names it logs with ({@link SymbolCache}: thread-confined). */
    static final class Ids {
        private static final int SLOTS = 64;
        /** One slot: a thread logs under one name (until it is renamed). */
        private final SymbolCache threads = new SymbolCache(THREADS, 1);
        private final SymbolCache loggers = new SymbolCache(LOGGERS, SLOTS);
        private final SymbolCache formats = new SymbolCache(FORMATS, SLOTS);
        private final SymbolCache mdcKeys = new SymbolCache(MDC_KEYS, SLOTS);
        /** Visits a whole MDC map without an iterator object ({@code Map.forEach}). */
        private final MdcWalk walk = new MdcWalk(this);

    }

    /**
     * Copies every entry of a map it is handed to, counting them; thread-confined (one per
     * {@link Ids}). {@code Map.forEach} visits the entries in the order of the map's
     * {@code entrySet()}, which is the order {@code %X} prints them in.
     */
    private static final class MdcWalk implements BiConsumer<String, String> {
        private final Ids ids;
        ByteLineBuilder out;
        int count;
        boolean failed;

        MdcWalk(Ids ids) {
            this.ids = ids;
        }

        @Override
        public void accept(String key, String value) {
            if (!failed && (++count > MAX_MDC_ENTRIES || !putEntry(out, key, value, ids))) {
                failed = true;
            }
        }
    }

    /**
     * Writes the event's record into {@code out} (reset first).
     *
     * @param event   the event
     * @param out     the record buffer
     * @param ids     this thread's ids
     * @param mdcKeys the MDC entries to copy ({@link SpoolEncoder#capturedMdcKeys()})
     * @return {@code false} if the event is not captured (the caller renders it), {@code out} then
     *         holds nothing meaningful
     */
    static boolean capture(ILoggingEvent event, ByteLineBuilder out, Ids ids, String[] mdcKeys) {
        if (event.getThrowableProxy() != null) {
            return false;
        }
        List<?> kvps = event.getKeyValuePairs();
        if (kvps != null && !kvps.isEmpty()) {
            return false;
        }
        String thread = event.getThreadName();
        String logger = event.getLoggerName();
        Level level = event.getLevel();
        if (thread == null || logger == null || level == null) {
            return false;
        }
        int threadId = ids.threads.idOf(thread);
        int loggerId = ids.loggers.idOf(logger);
        if ((threadId | loggerId) < 0) {
            return false;
        }
        out.reset();
        out.append(RecordCodec.RECORD_EVENT).putLong(event.getTimeStamp()).putInt(event.getNanoseconds())
                .putInt(level.levelInt).putInt(loggerId).putInt(threadId);
        int messageAt = out.length();
        Object[] args = event.getArgumentArray();
        if (event.getClass() != LoggingEvent.class || args == null || event.getMessage() == null
                || !putFormat(event.getMessage(), args, out, ids)) {
            if (mdcKeys == ALL_KEYS_AND_PATTERN && args != null) {
                return false;
            }
            out.setLength(messageAt);
            String text = event.getFormattedMessage(); // what %msg prints, formatted now as on the caller
            if (text == null) {
                return false;
            }
            out.append(MSG_TEXT);
            if (!RecordCodec.putString(out, text, true, RecordCodec.MAX_CAPTURED_CHARS)) {
                return false;
            }
        }
        return mdcKeys == null || putMdc(event.getMDCPropertyMap(), out, ids, mdcKeys);
    }

    private static boolean putFormat(String format, Object[] args, ByteLineBuilder out, Ids ids) {
        if (args.length > MAX_ARGS) {
            return false;
        }
        int formatId = ids.formats.idOf(format);
        if (formatId < 0) {
            return false;
        }
        out.append(MSG_FORMAT).putInt(formatId).append((byte) args.length);
        for (Object arg : args) {
            // A builder's chars may have changed since logback formatted and cached the message
            // (AsyncAppender's prepareForDeferredProcessing, an appender before this one): that text
            // is what PatternLayoutEncoder prints, and getFormattedMessage() returns it.
            if (arg instanceof CharSequence && arg.getClass() != String.class
                    || !RecordCodec.putValue(out, arg, true, RecordCodec.MAX_CAPTURED_CHARS)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes the entries {@code keys} select: all of them, in the map's iteration order (the order
     * {@code %X} prints them), for {@link #ALL_KEYS}; else the keys present with a non-null value
     * ({@code %X{key}} prints its default for either).
     */
    private static boolean putMdc(Map<String, String> mdc, ByteLineBuilder out, Ids ids, String[] keys) {
        int countAt = out.length();
        out.putInt(-1);
        if (mdc == null) {
            return true;
        }
        int count = 0;
        if (keys == ALL_KEYS || keys == ALL_KEYS_AND_PATTERN) {
            MdcWalk walk = ids.walk;
            walk.out = out;
            walk.count = 0;
            walk.failed = false;
            mdc.forEach(walk);
            walk.out = null;
            if (walk.failed) {
                return false;
            }
            count = walk.count;
        } else {
            for (String key : keys) {
                String value = mdc.get(key);
                if (value != null) {
                    if (!putEntry(out, key, value, ids)) {
                        return false;
                    }
                    count++;
                }
            }
        }
        out.setInt(countAt, count);
        return true;
    }

    /** A value must be a {@code String} or null, as the writer's map holds them. */
    private static boolean putEntry(ByteLineBuilder out, String key, Object value, Ids ids) {
        int id = key == null || value != null && value.getClass() != String.class ? -1 : ids.mdcKeys.idOf(key);
        if (id < 0) {
            return false;
        }
        out.putInt(id);
        return RecordCodec.putValue(out, value, true, RecordCodec.MAX_CAPTURED_CHARS);
    }
}
