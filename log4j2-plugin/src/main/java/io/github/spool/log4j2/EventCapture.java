package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import io.github.spool.text.SymbolCache;
import io.github.spool.text.SymbolTable;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.time.Instant;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.message.ParameterConsumer;
import org.apache.logging.log4j.message.ParameterizedMessageFactory;
import org.apache.logging.log4j.message.ReusableParameterizedMessage;
import org.apache.logging.log4j.util.ReadOnlyStringMap;
import org.apache.logging.log4j.util.TriConsumer;

/**
 * The caller's half of render-on-writer: copies what a {@link SpoolLayout} line is made of into a
 * compact binary record, and {@link WriterRenderer} renders the line from it on the writer thread.
 * Internal API.
 *
 * <p>What is captured: the instant (seconds and nanoseconds), the level, logger and thread name
 * (ids into {@link SymbolTable}s: a name is copied once, not per event), and the message — a
 * {@code ParameterizedMessage}'s format (an id) and its arguments when every argument is of an
 * immutable type whose text log4j2 derives from its value alone ({@code String}, boxed
 * primitives, and the chars of a {@code StringBuilder}/{@code StringBuffer} — log4j2's {@code
 * Unbox} — copied now from a {@code ReusableParameterizedMessage}, as formatting it now would read
 * them); for any other message its text, formatted now exactly as {@link MessageSegment} formats
 * it. What log4j2 has already decided wins over the arguments: a {@code ParameterizedMessage} with
 * a {@code StringBuilder}/{@code StringBuffer} argument goes as its text, since log4j2 may have
 * formatted and cached it on the logging thread ({@code MutableLogEvent.setMessage}, an async front
 * end) before the builder changed; and a message whose placeholder count differs from its argument
 * count goes as its text, so that log4j2's status WARN about it is raised here, inside log4j2's
 * recursion guard, and never again on the writer. When the layout prints the context map
 * ({@code %X}), the entries it prints, their values of the same immutable types. An event with a
 * throwable, or whose names do not fit the tables, is not captured: the caller renders it and
 * appends a text record.
 *
 * <p>Record format ({@link RecordCodec}: big-endian, text records, values): a kind byte;
 * {@link RecordCodec#RECORD_EVENT}: long epoch second, int nano of second, int level, logger and
 * thread ids, a message kind byte, then {@link #MSG_TEXT}: a string; {@link #MSG_PARAMETERIZED}:
 * int format id, an argument count byte and the arguments, each a value; then, for a layout with
 * {@code %X}, an int entry count and the entries, each an int key id and a value. Strings are
 * ASCII, one byte per char, where that keeps the line's bytes ({@link LineBuffer} pairs
 * surrogates across fields), else UTF-16.
 */
final class EventCapture {

    static final byte MSG_TEXT = 0;
    static final byte MSG_PARAMETERIZED = 1;

    /** Most arguments a captured message carries (the count is one byte). */
    static final int MAX_ARGS = 255;

    /** Most context entries captured: an event with more is rendered by the caller. */
    static final int MAX_CONTEXT_ENTRIES = 1024;

    /** {@link SpoolLayout#capturedContextKeys()} of a layout that prints the whole context map. */
    static final String[] ALL_KEYS = new String[0];

    /** Shared by every Spool appender of this class loader; read back by their writers. */
    static final SymbolTable LEVELS = new SymbolTable();
    static final SymbolTable LOGGERS = new SymbolTable();
    static final SymbolTable THREADS = new SymbolTable();
    static final SymbolTable FORMATS = new SymbolTable();
    static final SymbolTable CONTEXT_KEYS = new SymbolTable();

    /**
     * {@code ParameterizedMessage}'s class, without a compile-time reference to it: its deprecated
     * constructors carry an annotation whose class is not on the compile class path (-Werror).
     */
    private static final Class<?> PARAMETERIZED = ParameterizedMessageFactory.INSTANCE.newMessage("{}", "x").getClass();

    /**
     * {@code ParameterizedMessage.countArgumentPlaceholders(String)}, found at run time for the same
     * reason; {@code null} if this log4j2 has none (every message is then formatted on the caller).
     */
    private static final MethodHandle COUNT_PLACEHOLDERS = countPlaceholdersHandle();

    private static final ParameterConsumer<Ids> PUT_ARG = (arg, index, ids) -> {
        if (!ids.failed && !putArg(ids.out, arg, ids.exact)) {
            ids.failed = true;
        }
    };

    /**
     * Context values are captured with their chars exact (any surrogate as UTF-16): {@code %X}
     * may be padded or truncated, and a value's chars then matter one by one.
     */
    private static final TriConsumer<String, Object, Ids> PUT_ENTRY = (key, value, ids) -> {
        if (!ids.failed && (++ids.entries > MAX_CONTEXT_ENTRIES || !putEntry(ids.out, key, value, ids))) {
            ids.failed = true;
        }
    };

    private EventCapture() {
    }

    /**
     * One thread's ids of the names it logs with. Thread-confined, so ids taken from it keep
     * {@link SymbolTable}'s ordering argument; direct-mapped by the names' (cached) hash codes.
     */
    static final class Ids {
        private static final int SLOTS = 64;
        /** One slot: a thread logs under one name (until it is renamed). */
        private final SymbolCache threads = new SymbolCache(THREADS, 1);
        private Level level;
        private int levelId;
        private final SymbolCache loggers = new SymbolCache(LOGGERS, SLOTS);
        private final SymbolCache formats = new SymbolCache(FORMATS, SLOTS);
        private final SymbolCache contextKeys = new SymbolCache(CONTEXT_KEYS, SLOTS);
        /** Placeholder counts of formats, direct-mapped by the formats' hash codes, by identity. */
        private final String[] countedFormats = new String[SLOTS];
        private final int[] placeholderCounts = new int[SLOTS];
        /** State of one {@link #PUT_ARG} or {@link #PUT_ENTRY} walk. */
        ByteLineBuilder out;
        boolean exact;
        boolean failed;
        int entries;

        int level(Level l) {
            if (l != level) {
                int id = LEVELS.idOf(l.name());
                if (id < 0) {
                    return -1;
                }
                level = l;
                levelId = id;
            }
            return levelId;
        }

        int logger(String name) {
            return loggers.idOf(name);
        }

        int format(String f) {
            return formats.idOf(f);
        }

        int contextKey(String key) {
            return contextKeys.idOf(key);
        }

        /** log4j2's count of {@code {}} placeholders in {@code format}, counted once per format and slot. */
        int placeholders(String format) {
            int slot = format.hashCode() & (SLOTS - 1);
            if (countedFormats[slot] != format) {
                placeholderCounts[slot] = countPlaceholders(format);
                countedFormats[slot] = format;
            }
            return placeholderCounts[slot];
        }
    }

    private static MethodHandle countPlaceholdersHandle() {
        try {
            return MethodHandles.publicLookup().findStatic(PARAMETERIZED, "countArgumentPlaceholders",
                    MethodType.methodType(int.class, String.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * @return log4j2's count of placeholders in {@code format}, as {@code ParameterFormatter} counts
     *         them when it warns of a mismatch; -1 when it cannot be known
     */
    private static int countPlaceholders(String format) {
        if (COUNT_PLACEHOLDERS == null) {
            return -1;
        }
        try {
            return (int) COUNT_PLACEHOLDERS.invokeExact(format);
        } catch (Throwable e) { // a static counting method declares nothing; be safe all the same
            return -1;
        }
    }

    /**
     * Writes the event's record into {@code out} (reset first).
     *
     * @param event       the event
     * @param out         the record buffer
     * @param text        a scratch builder this call may clear
     * @param ids         this thread's ids
     * @param exact       whether a text's lone surrogates must be kept (see {@link SpoolLayout#formatsMessageChars()})
     * @param contextKeys the context entries to copy ({@link SpoolLayout#capturedContextKeys()})
     * @return {@code false} if the event is not captured (the caller renders it), {@code out} then
     *         holds nothing meaningful
     */
    static boolean capture(LogEvent event, ByteLineBuilder out, StringBuilder text, Ids ids, boolean exact,
            String[] contextKeys) {
        if (event.getThrown() != null) {
            return false;
        }
        String thread = event.getThreadName();
        String logger = event.getLoggerName();
        Level level = event.getLevel();
        if (thread == null || logger == null || level == null) {
            return false;
        }
        int threadId = ids.threads.idOf(thread);
        int loggerId = ids.logger(logger);
        int levelId = ids.level(level);
        if ((threadId | loggerId | levelId) < 0) {
            return false;
        }
        Instant instant = event.getInstant();
        int nanos = instant.getNanoOfSecond();
        if (nanos < 0 || nanos >= 1_000_000_000 || instant.getEpochMillisecond() != event.getTimeMillis()) {
            return false; // an event built by hand with an instant MutableInstant would refuse
        }
        out.reset();
        out.append(RecordCodec.RECORD_EVENT).putLong(instant.getEpochSecond()).putInt(nanos)
                .putInt(levelId).putInt(loggerId).putInt(threadId);
        Message msg = event.getMessage();
        int messageAt = out.length();
        if (msg == null || msg.getClass() != ReusableParameterizedMessage.class && msg.getClass() != PARAMETERIZED
                || !putParameterized(msg, out, ids, exact)) {
            out.setLength(messageAt);
            out.append(MSG_TEXT);
            text.setLength(0);
            MessageSegment.INSTANCE.format(event, text); // the very chars %m renders
            if (!putString(out, text, exact)) {
                return false;
            }
        }
        return contextKeys == null || putContext(event.getContextData(), out, ids, contextKeys);
    }

    /**
     * Writes the entries {@code keys} select: all of them, in the map's order, for {@link #ALL_KEYS};
     * else those of the keys present with a non-null value ({@code %X{key}} prints nothing for
     * either).
     */
    private static boolean putContext(ReadOnlyStringMap data, ByteLineBuilder out, Ids ids, String[] keys) {
        int countAt = out.length();
        out.putInt(0);
        if (data == null || data.isEmpty()) {
            return true;
        }
        int count = 0;
        if (keys == ALL_KEYS) {
            ids.out = out;
            ids.failed = false;
            ids.entries = 0;
            data.forEach(PUT_ENTRY, ids);
            ids.out = null;
            if (ids.failed) {
                return false;
            }
            count = ids.entries;
        } else {
            for (String key : keys) {
                Object value = data.getValue(key);
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

    private static boolean putEntry(ByteLineBuilder out, String key, Object value, Ids ids) {
        int id = key == null ? -1 : ids.contextKey(key);
        if (id < 0) {
            return false;
        }
        out.putInt(id);
        return putArg(out, value, true);
    }

    @SuppressWarnings("deprecation") // Message.getFormat(): both classes implement it, as the pattern
    private static boolean putParameterized(Message msg, ByteLineBuilder out, Ids ids, boolean exact) {
        String format = msg.getFormat();
        if (format == null) {
            return false;
        }
        int formatId = ids.format(format);
        if (formatId < 0) {
            return false;
        }
        out.append(MSG_PARAMETERIZED).putInt(formatId);
        if (msg instanceof ReusableParameterizedMessage) {
            ReusableParameterizedMessage r = (ReusableParameterizedMessage) msg;
            int n = r.getParameterCount();
            if (n > MAX_ARGS || ids.placeholders(format) != n) {
                return false;
            }
            out.append((byte) n);
            ids.out = out;
            ids.exact = exact;
            ids.failed = false;
            r.forEachParameter(PUT_ARG, ids);
            ids.out = null;
            return !ids.failed;
        }
        Object[] args = msg.getParameters();
        int n = args == null ? 0 : args.length;
        if (n > MAX_ARGS || ids.placeholders(format) != n) {
            return false;
        }
        out.append((byte) n);
        for (int i = 0; i < n; i++) {
            Object arg = args[i];
            // A builder's chars may have changed since log4j2 formatted and cached the text
            // (MutableLogEvent.setMessage, an async front end): that text is what PatternLayout prints.
            if (arg instanceof CharSequence && arg.getClass() != String.class || !putArg(out, arg, exact)) {
                return false;
            }
        }
        return true;
    }

    /** @return {@code false} for an argument of a type not captured */
    private static boolean putArg(ByteLineBuilder out, Object arg, boolean exact) {
        return RecordCodec.putValue(out, arg, exact, RecordCodec.MAX_CAPTURED_CHARS);
    }

    /**
     * Writes {@code s} as a string ({@link RecordCodec#putString}); with {@code exact}, a text with
     * any surrogate goes as UTF-16, so that padding or truncating it sees the very chars.
     *
     * @return {@code false} for a text too long to capture ({@link RecordCodec#MAX_CAPTURED_CHARS})
     */
    static boolean putString(ByteLineBuilder out, CharSequence s, boolean exact) {
        return RecordCodec.putString(out, s, exact, RecordCodec.MAX_CAPTURED_CHARS);
    }
}
