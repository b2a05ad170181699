package io.github.spool.log4j2;

import org.apache.logging.log4j.util.StringBuilderFormattable;

import io.github.spool.text.RecordCodec;

/**
 * A primitive argument of a parameterized message on the writer thread, kept unboxed: a
 * {@code Long} above the JDK's box cache would otherwise be a new object per record. log4j2's
 * formatter appends it through {@link #formatTo}, with the {@code StringBuilder.append} overload
 * that log4j2's own {@code StringBuilders.appendSpecificTypes} uses for the boxed type (log4j-api
 * 2.26.1, read from its bytecode: {@code int} for {@code Integer}, {@code Short} and {@code Byte},
 * then {@code long}, {@code double}, {@code boolean}, {@code char}, {@code float}), so the chars
 * are the same. A converter that reads the message's parameters instead sees this object, whose
 * {@link #toString()} is the boxed value's. Reused record after record by one writer. Internal API.
 */
final class CapturedPrimitive implements StringBuilderFormattable {

    private byte type;
    private long bits;

    /**
     * @param type a {@link RecordCodec} primitive type, {@link RecordCodec#INT} to {@link RecordCodec#BYTE}
     * @param bits {@link RecordCodec#readBits}'s value for it
     */
    void set(byte type, long bits) {
        this.type = type;
        this.bits = bits;
    }

    @Override
    public void formatTo(StringBuilder buffer) {
        switch (type) {
            case RecordCodec.INT, RecordCodec.SHORT, RecordCodec.BYTE -> buffer.append((int) bits);
            case RecordCodec.LONG -> buffer.append(bits);
            case RecordCodec.DOUBLE -> buffer.append(Double.longBitsToDouble(bits));
            case RecordCodec.FLOAT -> buffer.append(Float.intBitsToFloat((int) bits));
            case RecordCodec.BOOLEAN -> buffer.append(bits != 0);
            case RecordCodec.CHAR -> buffer.append((char) bits);
            default -> throw new IllegalStateException("unknown value type " + type);
        }
    }

    @Override
    public String toString() {
        return String.valueOf(RecordCodec.box(type, bits));
    }
}
