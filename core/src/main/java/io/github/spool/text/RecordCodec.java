package io.github.spool.text;

import java.nio.ByteBuffer;

/**
 * The parts of a captured record both adapters write the same way (render on the writer: the
 * caller copies an event's fields into the ring, the writer renders the line). Each adapter
 * defines its event record; this class frames text records and writes and reads values.
 *
 * <p>A record starts with a kind byte: {@link #RECORD_TEXT} (an int length and a finished line,
 * which the writer copies as it is) or {@link #RECORD_EVENT} (the adapter's fields). All numbers
 * are big-endian. A value is a type byte and its payload: {@link #NULL}; a string
 * ({@link #STR_ASCII}: an int char count and one byte per char; {@link #STR_UTF16}: an int char
 * count and two bytes per char); a boxed primitive ({@link #INT} ... {@link #BYTE}).
 */
public final class RecordCodec {

    /** A finished line: int length, bytes. */
    public static final byte RECORD_TEXT = 0;
    /** An event's captured fields, as the adapter defines them. */
    public static final byte RECORD_EVENT = 1;
    /** Bytes before a text record's line: the kind byte and the int length. */
    public static final int TEXT_HEADER = 5;

    /**
     * Longest text the adapters capture, in chars: a longer message is rendered by its caller, so
     * that a huge one is not held three times over (captured, decoded, rendered) on the writer's
     * heap.
     */
    public static final int MAX_CAPTURED_CHARS = 16 << 10;

    public static final byte NULL = 0;
    public static final byte STR_ASCII = 1;
    public static final byte STR_UTF16 = 2;
    public static final byte INT = 3;
    public static final byte LONG = 4;
    public static final byte DOUBLE = 5;
    public static final byte FLOAT = 6;
    public static final byte BOOLEAN = 7;
    public static final byte CHAR = 8;
    public static final byte SHORT = 9;
    public static final byte BYTE = 10;

    private RecordCodec() {
    }

    /**
     * Starts a text record in an empty {@code out}: its header, the length left for {@link #endText}.
     *
     * @param out an empty builder
     */
    public static void beginText(ByteLineBuilder out) {
        out.append(RECORD_TEXT).putInt(0);
    }

    /**
     * Ends the text record {@link #beginText} started: sets its length to what was appended since.
     *
     * @param out the builder holding the record
     */
    public static void endText(ByteLineBuilder out) {
        out.setInt(1, out.length() - TEXT_HEADER);
    }

    /**
     * A text record holding {@code bytes} (a layout's header or footer: bytes that are no event's
     * line), for an appender whose ring holds captured records.
     *
     * @param bytes the text
     * @return a new builder holding the record
     */
    public static ByteLineBuilder textRecord(byte[] bytes) {
        ByteLineBuilder out = new ByteLineBuilder(bytes.length + TEXT_HEADER);
        beginText(out);
        out.append(bytes, 0, bytes.length);
        endText(out);
        return out;
    }

    /**
     * Writes {@code s} as a string value: one byte per char when it is ASCII — a lone surrogate
     * inside is kept as the {@code '?'} UTF-8 makes of it anyway, unless {@code exact} — else two.
     * A surrogate at either end always goes as UTF-16: in the line it may pair with a neighbouring
     * field's.
     *
     * @param out      the record
     * @param s        the text
     * @param exact    whether every char must come back as it is (the text is padded, truncated or
     *                 rebuilt as a {@code String} on the writer)
     * @param maxChars the longest text taken
     * @return {@code false} for a text longer than {@code maxChars} ({@code out} then holds
     *         nothing meaningful)
     */
    public static boolean putString(ByteLineBuilder out, CharSequence s, boolean exact, int maxChars) {
        int n = s.length();
        if (n > maxChars) {
            return false;
        }
        int at = out.length();
        out.append(STR_ASCII).putInt(n);
        int start = out.length();
        out.append(s, 0, n);
        // One byte per char means ASCII or lone surrogates ('?'); two or more for anything else.
        if (out.length() - start == n && (n == 0 || !Character.isSurrogate(s.charAt(0)) && !Character.isSurrogate(s.charAt(n - 1)))
                && (!exact || !hasSurrogate(s, 0, n))) {
            return true;
        }
        out.setLength(at);
        out.append(STR_UTF16).putInt(n).putChars(s, 0, n);
        return true;
    }

    /**
     * Writes a value of an immutable type whose text is fixed by its value: {@code null}, a
     * {@code String} (or the chars of a {@code StringBuilder}/{@code StringBuffer}, copied now), a
     * boxed primitive.
     *
     * @return {@code false} for any other type or a text longer than {@code maxChars}
     */
    public static boolean putValue(ByteLineBuilder out, Object value, boolean exact, int maxChars) {
        if (value == null) {
            out.append(NULL);
            return true;
        }
        Class<?> c = value.getClass();
        if (c == String.class || c == StringBuilder.class || c == StringBuffer.class) {
            return putString(out, (CharSequence) value, exact, maxChars);
        } else if (c == Integer.class) {
            out.append(INT).putInt((Integer) value);
        } else if (c == Long.class) {
            out.append(LONG).putLong((Long) value);
        } else if (c == Double.class) {
            out.append(DOUBLE).putLong(Double.doubleToRawLongBits((Double) value));
        } else if (c == Float.class) {
            out.append(FLOAT).putInt(Float.floatToRawIntBits((Float) value));
        } else if (c == Boolean.class) {
            out.append(BOOLEAN).append((byte) ((Boolean) value ? 1 : 0));
        } else if (c == Character.class) {
            out.append(CHAR).putInt((Character) value);
        } else if (c == Short.class) {
            out.append(SHORT).putInt((Short) value);
        } else if (c == Byte.class) {
            out.append(BYTE).append((Byte) value);
        } else {
            return false;
        }
        return true;
    }

    /**
     * Reads a boxed primitive written by {@link #putValue} (boxed again: small values come from the
     * JDK's caches, larger ones allocate on the reading thread).
     *
     * @param in   the record, after the type byte
     * @param type the type byte, {@link #INT} to {@link #BYTE}
     * @return the value
     */
    public static Object readBoxed(ByteBuffer in, byte type) {
        return box(type, readBits(in, type));
    }

    /**
     * @param type a value's type byte
     * @return whether it is a boxed primitive ({@link #INT} to {@link #BYTE}), read with
     *         {@link #readBits}; else {@link #NULL} or a string
     */
    public static boolean isPrimitive(byte type) {
        return type >= INT && type <= BYTE;
    }

    /**
     * Reads a primitive written by {@link #putValue} without boxing it: integral types and
     * {@link #CHAR} as their (sign-extended) value, {@link #BOOLEAN} as 0 or 1, {@link #FLOAT} and
     * {@link #DOUBLE} as their raw bits.
     *
     * @param in   the record, after the type byte
     * @param type the type byte, {@link #INT} to {@link #BYTE}
     * @return the value's bits, for {@link #box}
     */
    public static long readBits(ByteBuffer in, byte type) {
        switch (type) {
            case INT:
            case FLOAT:
            case CHAR:
            case SHORT:
                return in.getInt();
            case LONG:
            case DOUBLE:
                return in.getLong();
            case BOOLEAN:
            case BYTE:
                return in.get();
            default:
                throw new IllegalStateException("unknown value type " + type);
        }
    }

    /**
     * The boxed value of {@link #readBits}'s result.
     *
     * @param type the type byte, {@link #INT} to {@link #BYTE}
     * @param bits what {@link #readBits} returned for it
     * @return the value
     */
    public static Object box(byte type, long bits) {
        switch (type) {
            case INT: return (int) bits;
            case LONG: return bits;
            case DOUBLE: return Double.longBitsToDouble(bits);
            case FLOAT: return Float.intBitsToFloat((int) bits);
            case BOOLEAN: return bits != 0;
            case CHAR: return (char) bits;
            case SHORT: return (short) bits;
            case BYTE: return (byte) bits;
            default: throw new IllegalStateException("unknown value type " + type);
        }
    }

    /**
     * Reads a string written by {@link #putString} as a new {@code String}.
     *
     * @param in   the record, after the type byte
     * @param type {@link #STR_ASCII} or {@link #STR_UTF16}
     * @return the text
     */
    public static String readString(ByteBuffer in, byte type) {
        int n = in.getInt();
        if (type == STR_ASCII) {
            byte[] b = new byte[n];
            in.get(b);
            return new String(b, java.nio.charset.StandardCharsets.ISO_8859_1);
        }
        if (type != STR_UTF16) {
            throw new IllegalStateException("unknown string type " + type);
        }
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = in.getChar();
        }
        return new String(c);
    }

    /**
     * @param s     the text
     * @param start first index
     * @param end   end index, exclusive
     * @return whether {@code s[start, end)} holds a surrogate, paired or not
     */
    public static boolean hasSurrogate(CharSequence s, int start, int end) {
        for (int i = start; i < end; i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }
}
