package io.github.spool.log4j2;

import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.util.StringBuilderFormattable;

import io.github.spool.text.RecordCodec;
import java.nio.ByteBuffer;

/**
 * A captured string on the writer thread, as {@link EventCapture} wrote it: ASCII bytes (which
 * are already the line's UTF-8) or UTF-16 chars — a message's text, or a string argument of a
 * parameterized message. {@link MessageSegment} copies ASCII bytes straight into the line;
 * everything else asks for chars ({@link #formatTo}). Reused record after record by one writer.
 * Internal API.
 */
final class CapturedText implements Message, StringBuilderFormattable {

    private static final long serialVersionUID = 1L;
    /** Arrays above this size are dropped after their record. */
    private static final int MAX_RETAINED = 64 << 10;

    private transient byte[] bytes = new byte[256];
    private transient char[] chars = new char[0];
    private int length;
    private boolean ascii;

    /** Reads a string of {@code type} ({@link RecordCodec#STR_ASCII} or {@link RecordCodec#STR_UTF16}). */
    void read(ByteBuffer in, byte type) {
        int n = in.getInt();
        length = n;
        if (type == RecordCodec.STR_ASCII) {
            ascii = true;
            if (bytes.length < n) {
                bytes = new byte[Math.max(n, 2 * bytes.length)];
            }
            in.get(bytes, 0, n);
        } else if (type == RecordCodec.STR_UTF16) {
            ascii = false;
            if (chars.length < n) {
                chars = new char[Math.max(n, 2 * chars.length)];
            }
            for (int i = 0; i < n; i++) {
                chars[i] = in.getChar();
            }
        } else {
            throw new IllegalStateException("unknown string type " + type);
        }
    }

    /** Appends the text to the line: ASCII as the bytes it already is, else through the chars. */
    void encodeTo(LineBuffer out, StringBuilder scratch) {
        if (ascii) {
            // No surrogate at either end (EventCapture): appending bytes cancels a pending high
            // surrogate exactly as appending these chars would.
            out.appendBytes(bytes, 0, length);
        } else {
            scratch.setLength(0);
            formatTo(scratch);
            out.append(scratch);
        }
    }

    @Override
    public void formatTo(StringBuilder buffer) {
        if (ascii) {
            buffer.ensureCapacity(buffer.length() + length);
            for (int i = 0; i < length; i++) {
                buffer.append((char) bytes[i]);
            }
        } else {
            buffer.append(chars, 0, length);
        }
    }

    /** Gives back the arrays of a huge text. */
    void trim() {
        if (bytes.length > MAX_RETAINED) {
            bytes = new byte[256];
        }
        if (chars.length > MAX_RETAINED) {
            chars = new char[0];
        }
    }

    @Override
    public String getFormattedMessage() {
        StringBuilder sb = new StringBuilder(length);
        formatTo(sb);
        return sb.toString();
    }

    /**
     * @return {@code null}: a captured text has no format of its own. JsonTemplateLayout's message
     *         resolver asks every message that is not a {@code SimpleMessage} for its format and
     *         prints one equal to {@code "JSON"} raw; the caller's message never had that format
     *         ({@link SpoolJsonTemplateLayout#capturable}), so neither may its text.
     */
    @Override
    @Deprecated
    public String getFormat() {
        return null;
    }

    @Override
    public Object[] getParameters() {
        return null;
    }

    @Override
    public Throwable getThrowable() {
        return null;
    }

    /**
     * @return the text: what {@code String.valueOf} gives a context value (JsonTemplateLayout's
     *         {@code "stringified": true}), as it would for the {@code String} captured
     */
    @Override
    public String toString() {
        return getFormattedMessage();
    }
}
