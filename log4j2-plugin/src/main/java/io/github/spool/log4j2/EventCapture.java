package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.SymbolTable;
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
 * Unbox} — copied now, as formatting now would read them); for any other message its text, formatted
 * now exactly as {@link MessageSegment} formats it; when the layout prints the context map
 * ({@code %X}), the entries it prints, their values of the same immutable types. An event with a
 * throwable, or whose names do not fit the tables, is not captured: the caller renders it and
 * appends a text record.
 *
 * <p>Record format (big-endian): a kind byte; {@link #RECORD_TEXT}: int length, the line's bytes;
 * {@link #RECORD_EVENT}: long epoch second, int nano of second, int level, logger and thread ids,
 * a message kind byte, then {@link #MSG_TEXT}: a string; {@link #MSG_PARAMETERIZED}: int format id,
 * an argument count byte and the arguments, each a type byte and its value; then, for a layout
 * with {@code %X}, an int entry count and the entries, each an int key id and a value as an
 * argument. A string is a type
 * byte, an int char count and its chars: one byte each ({@link #STR_ASCII}) when the text is ASCII
 * (a lone surrogate inside is kept as the {@code '?'} UTF-8 makes of it anyway), else two
 * ({@link #STR_UTF16}). Surrogates at either end always go as UTF-16: in the line they may pair
 * with a neighbouring field's ({@link LineBuffer}).
 */
final class EventCapture {

    static final byte RECORD_TEXT = 0;
    static final byte RECORD_EVENT = 1;

    static final byte MSG_TEXT = 0;
    static final byte MSG_PARAMETERIZED = 1;

    static final byte STR_ASCII = 1;
    static final byte STR_UTF16 = 2;
    static final byte ARG_NULL = 0;
    // STR_ASCII and STR_UTF16 are argument types too
    static final byte ARG_INT = 3;
    static final byte ARG_LONG = 4;
    static final byte ARG_DOUBLE = 5;
    static final byte ARG_FLOAT = 6;
    static final byte ARG_BOOLEAN = 7;
    static final byte ARG_CHAR = 8;
    static final byte ARG_SHORT = 9;
    static final byte ARG_BYTE = 10;

    /**
     * Longest text captured, in chars: a longer message is rendered by the caller, so that a huge
     * one is not held three times over (captured, decoded, rendered) on the writer's heap.
     */
    static final int MAX_CAPTURED_CHARS = 16 << 10;

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
        private String thread;
        private int threadId;
        private Level level;
        private int levelId;
        private final String[] loggers = new String[SLOTS];
        private final int[] loggerIds = new int[SLOTS];
        private final String[] formats = new String[SLOTS];
        private final int[] formatIds = new int[SLOTS];
        private final String[] contextKeys = new String[SLOTS];
        private final int[] contextKeyIds = new int[SLOTS];
        /** State of one {@link #PUT_ARG} or {@link #PUT_ENTRY} walk. */
        ByteLineBuilder out;
        boolean exact;
        boolean failed;
        int entries;

        int thread(String name) {
            if (name != thread) {
                int id = THREADS.idOf(name);
                if (id < 0) {
                    return -1;
                }
                thread = name;
                threadId = id;
            }
            return threadId;
        }

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
            return cached(name, loggers, loggerIds, LOGGERS);
        }

        int format(String f) {
            return cached(f, formats, formatIds, FORMATS);
        }

        int contextKey(String key) {
            return cached(key, contextKeys, contextKeyIds, CONTEXT_KEYS);
        }

        private static int cached(String s, String[] keys, int[] ids, SymbolTable table) {
            int slot = s.hashCode() & (SLOTS - 1);
            if (keys[slot] == s) {
                return ids[slot];
            }
            int id = table.idOf(s);
            if (id >= 0) {
                keys[slot] = s;
                ids[slot] = id;
            }
            return id;
        }
    }

    /** Bytes before a text record's line: the kind byte and the int length. */
    static final int TEXT_HEADER = 5;

    /**
     * Starts a text record in an empty {@code out}: its header, the length left for {@link #endText}.
     *
     * @param out an empty builder
     */
    static void beginText(ByteLineBuilder out) {
        out.append(RECORD_TEXT).putInt(0);
    }

    /**
     * Ends the text record {@link #beginText} started: sets its length to what was appended since.
     *
     * @param out the builder holding the record
     */
    static void endText(ByteLineBuilder out) {
        out.setInt(1, out.length() - TEXT_HEADER);
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
        int threadId = ids.thread(thread);
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
        out.append(RECORD_EVENT).putLong(instant.getEpochSecond()).putInt(nanos)
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
            if (n > MAX_ARGS) {
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
        if (n > MAX_ARGS) {
            return false;
        }
        out.append((byte) n);
        for (int i = 0; i < n; i++) {
            if (!putArg(out, args[i], exact)) {
                return false;
            }
        }
        return true;
    }

    /** @return {@code false} for an argument of a type not captured */
    private static boolean putArg(ByteLineBuilder out, Object arg, boolean exact) {
        if (arg == null) {
            out.append(ARG_NULL);
            return true;
        }
        Class<?> c = arg.getClass();
        if (c == String.class || c == StringBuilder.class || c == StringBuffer.class) {
            return putString(out, (CharSequence) arg, exact);
        } else if (c == Integer.class) {
            out.append(ARG_INT).putInt((Integer) arg);
        } else if (c == Long.class) {
            out.append(ARG_LONG).putLong((Long) arg);
        } else if (c == Double.class) {
            out.append(ARG_DOUBLE).putLong(Double.doubleToRawLongBits((Double) arg));
        } else if (c == Float.class) {
            out.append(ARG_FLOAT).putInt(Float.floatToRawIntBits((Float) arg));
        } else if (c == Boolean.class) {
            out.append(ARG_BOOLEAN).append((byte) ((Boolean) arg ? 1 : 0));
        } else if (c == Character.class) {
            out.append(ARG_CHAR).putInt((Character) arg);
        } else if (c == Short.class) {
            out.append(ARG_SHORT).putInt((Short) arg);
        } else if (c == Byte.class) {
            out.append(ARG_BYTE).append((Byte) arg);
        } else {
            return false;
        }
        return true;
    }

    /**
     * Writes {@code s} as a string (see the class comment); with {@code exact}, a text with any
     * surrogate goes as UTF-16, so that padding or truncating it sees the very chars.
     *
     * @return {@code false} for a text too long to capture ({@link #MAX_CAPTURED_CHARS})
     */
    static boolean putString(ByteLineBuilder out, CharSequence s, boolean exact) {
        int n = s.length();
        if (n > MAX_CAPTURED_CHARS) {
            return false;
        }
        int at = out.length();
        out.append(STR_ASCII).putInt(n);
        int start = out.length();
        out.append(s, 0, n);
        // One byte per char means ASCII or lone surrogates ('?'); two or more for anything else.
        if (out.length() - start == n && (n == 0 || !Character.isSurrogate(s.charAt(0)) && !Character.isSurrogate(s.charAt(n - 1)))
                && (!exact || !LineBuffer.hasSurrogate(s, 0, n))) {
            return true;
        }
        out.setLength(at);
        out.append(STR_UTF16).putInt(n).putChars(s, 0, n);
        return true;
    }
}
