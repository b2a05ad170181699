package io.github.spool.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;

/**
 * The event's formatted message as JSON string content ({@link JsonEscape}), without building the
 * {@code String}: for the same cases, and by the same argument, as {@link DirectMessage} (a plain
 * {@link LoggingEvent} or a {@link CapturedEvent}, a pattern without backslash, arguments that are
 * {@code null}, {@code String}, {@code Integer}, {@code Long}, {@code Short}, {@code Byte} or
 * {@code Boolean}), the pieces of {@code MessageFormatter.arrayFormat}'s result are escaped one by
 * one; escaping is per char, so the bytes equal escaping the joined message. Any other event goes
 * through {@code getFormattedMessage()}.
 *
 * <p>Internal to the logback adapter.
 */
final class JsonMessage {

    private JsonMessage() {
    }

    /**
     * Appends the escaped message, without quotes.
     *
     * @return {@code false} if the event has no message (nothing written: the field is left out)
     */
    static boolean append(ILoggingEvent event, ByteLineBuilder out) {
        CapturedEvent captured = event.getClass() == CapturedEvent.class ? (CapturedEvent) event : null;
        String pattern = event.getMessage();
        if (pattern != null && (captured != null || event.getClass() == LoggingEvent.class)) {
            Object[] args = captured == null ? event.getArgumentArray() : null;
            int count = captured != null ? captured.argumentCount() : args == null ? -1 : args.length;
            if (count < 0) {
                JsonEscape.append(out, pattern, 0, pattern.length()); // logback: the message as is
                return true;
            }
            if (pattern.indexOf('\\') < 0 && (captured != null ? captured.argumentsDirect() : simple(args))) {
                int i = 0;
                for (int k = 0; k < count; k++) {
                    int j = pattern.indexOf("{}", i);
                    if (j < 0) {
                        break;
                    }
                    JsonEscape.append(out, pattern, i, j);
                    if (captured != null) {
                        appendArgument(out, captured, k);
                    } else {
                        appendArgument(out, args[k]);
                    }
                    i = j + 2;
                }
                JsonEscape.append(out, pattern, i, pattern.length());
                return true;
            }
        }
        String text = event.getFormattedMessage();
        if (text == null) {
            return false;
        }
        JsonEscape.append(out, text, 0, text.length());
        return true;
    }

    /** Whether every argument's text is fixed by its value and cannot throw (see {@link DirectMessage}). */
    private static boolean simple(Object[] args) {
        for (Object a : args) {
            if (a != null && !(a instanceof String) && !(a instanceof Integer) && !(a instanceof Long)
                    && !(a instanceof Short) && !(a instanceof Byte) && !(a instanceof Boolean)) {
                return false;
            }
        }
        return true;
    }

    private static void appendArgument(ByteLineBuilder out, Object arg) {
        if (arg == null) {
            out.appendAscii("null");
        } else if (arg instanceof String) {
            String s = (String) arg;
            JsonEscape.append(out, s, 0, s.length());
        } else if (arg instanceof Boolean) {
            out.appendAscii((Boolean) arg ? "true" : "false");
        } else {
            out.appendDecimal(((Number) arg).longValue()); // Integer, Long, Short, Byte: Long.toString's digits
        }
    }

    /** Argument {@code k} of a captured event, unboxed; only when {@code argumentsDirect()} holds. */
    private static void appendArgument(ByteLineBuilder out, CapturedEvent captured, int k) {
        byte type = captured.argumentType(k);
        if (!RecordCodec.isPrimitive(type)) {
            String s = captured.argumentString(k);
            if (s == null) {
                out.appendAscii("null");
            } else {
                JsonEscape.append(out, s, 0, s.length());
            }
        } else if (type == RecordCodec.BOOLEAN) {
            out.appendAscii(captured.argumentBits(k) != 0 ? "true" : "false");
        } else {
            out.appendDecimal(captured.argumentBits(k)); // INT, LONG, SHORT, BYTE: their sign-extended value
        }
    }
}
