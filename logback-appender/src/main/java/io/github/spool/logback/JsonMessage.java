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
 * through {@code getFormattedMessage()}. With Spring Boot's escaping ({@link SpringJsonEscape}) a
 * surrogate pair cut between two pieces would be written as two {@code ?}, so a message with any
 * surrogate in its pattern or string arguments is joined first.
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
        return append(event, out, false);
    }

    /**
     * Appends the escaped message, without quotes, escaped as Spring Boot's structured logging
     * escapes it ({@code spring}) or as Jackson does.
     *
     * @return {@code false} if the event has no message (nothing written: the field is left out)
     */
    static boolean append(ILoggingEvent event, ByteLineBuilder out, boolean spring) {
        CapturedEvent captured = event.getClass() == CapturedEvent.class ? (CapturedEvent) event : null;
        String pattern = event.getMessage();
        if (pattern != null && (captured != null || event.getClass() == LoggingEvent.class)) {
            Object[] args = captured == null ? event.getArgumentArray() : null;
            int count = captured != null ? captured.argumentCount() : args == null ? -1 : args.length;
            if (count < 0) {
                escape(out, pattern, 0, pattern.length(), spring); // logback: the message as is
                return true;
            }
            if (pattern.indexOf('\\') < 0 && (captured != null ? captured.argumentsDirect() : simple(args))
                    && (!spring || !surrogates(pattern, captured, args, count))) {
                int i = 0;
                for (int k = 0; k < count; k++) {
                    int j = pattern.indexOf("{}", i);
                    if (j < 0) {
                        break;
                    }
                    escape(out, pattern, i, j, spring);
                    if (captured != null) {
                        appendArgument(out, captured, k, spring);
                    } else {
                        appendArgument(out, args[k], spring);
                    }
                    i = j + 2;
                }
                escape(out, pattern, i, pattern.length(), spring);
                return true;
            }
        }
        String text = event.getFormattedMessage();
        if (text == null) {
            return false;
        }
        escape(out, text, 0, text.length(), spring);
        return true;
    }

    /**
     * @return whether the message, as {@link #append} writes it, has a char that is not
     *         {@code Character.isWhitespace} (Spring's {@code StringUtils.hasText}); {@code false}
     *         for no message
     */
    static boolean hasText(ILoggingEvent event) {
        CapturedEvent captured = event.getClass() == CapturedEvent.class ? (CapturedEvent) event : null;
        String pattern = event.getMessage();
        if (pattern != null && (captured != null || event.getClass() == LoggingEvent.class)) {
            Object[] args = captured == null ? event.getArgumentArray() : null;
            int count = captured != null ? captured.argumentCount() : args == null ? -1 : args.length;
            if (count < 0) {
                return hasText(pattern, 0, pattern.length());
            }
            if (pattern.indexOf('\\') < 0 && (captured != null ? captured.argumentsDirect() : simple(args))) {
                int i = 0;
                for (int k = 0; k < count; k++) {
                    int j = pattern.indexOf("{}", i);
                    if (j < 0) {
                        break;
                    }
                    if (hasText(pattern, i, j)) {
                        return true;
                    }
                    String s = captured != null
                            ? RecordCodec.isPrimitive(captured.argumentType(k)) ? "0" : captured.argumentString(k)
                            : args[k] == null || args[k] instanceof String ? (String) args[k] : "0";
                    if (s == null || hasText(s, 0, s.length())) { // null prints "null"; numbers and booleans have digits or letters
                        return true;
                    }
                    i = j + 2;
                }
                return hasText(pattern, i, pattern.length());
            }
        }
        String text = event.getFormattedMessage();
        return text != null && hasText(text, 0, text.length());
    }

    private static boolean hasText(String s, int start, int end) {
        for (int i = start; i < end; i++) {
            if (!Character.isWhitespace(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static void escape(ByteLineBuilder out, String s, int start, int end, boolean spring) {
        if (spring) {
            SpringJsonEscape.append(out, s, start, end);
        } else {
            JsonEscape.append(out, s, start, end);
        }
    }

    /** Whether the pattern or a string argument holds a surrogate (Spring's escaping: see the class comment). */
    private static boolean surrogates(String pattern, CapturedEvent captured, Object[] args, int count) {
        if (surrogate(pattern)) {
            return true;
        }
        for (int k = 0; k < count; k++) {
            Object a = captured != null ? captured.argumentString(k) : args[k];
            if (a instanceof String && surrogate((String) a)) {
                return true;
            }
        }
        return false;
    }

    private static boolean surrogate(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return true;
            }
        }
        return false;
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

    private static void appendArgument(ByteLineBuilder out, Object arg, boolean spring) {
        if (arg == null) {
            out.appendAscii("null");
        } else if (arg instanceof String) {
            String s = (String) arg;
            escape(out, s, 0, s.length(), spring);
        } else if (arg instanceof Boolean) {
            out.appendAscii((Boolean) arg ? "true" : "false");
        } else {
            out.appendDecimal(((Number) arg).longValue()); // Integer, Long, Short, Byte: Long.toString's digits
        }
    }

    /** Argument {@code k} of a captured event, unboxed; only when {@code argumentsDirect()} holds. */
    private static void appendArgument(ByteLineBuilder out, CapturedEvent captured, int k, boolean spring) {
        byte type = captured.argumentType(k);
        if (!RecordCodec.isPrimitive(type)) {
            String s = captured.argumentString(k);
            if (s == null) {
                out.appendAscii("null");
            } else {
                escape(out, s, 0, s.length(), spring);
            }
        } else if (type == RecordCodec.BOOLEAN) {
            out.appendAscii(captured.argumentBits(k) != 0 ? "true" : "false");
        } else {
            out.appendDecimal(captured.argumentBits(k)); // INT, LONG, SHORT, BYTE: their sign-extended value
        }
    }
}
