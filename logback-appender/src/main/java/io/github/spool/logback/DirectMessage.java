package io.github.spool.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.spool.text.ByteLineBuilder;

/**
 * {@code %msg} without the {@code String}: substitutes the arguments of a plain logback event
 * straight into the line, where {@link LoggingEvent#getFormattedMessage()} would build a
 * {@code StringBuilder}, a {@code String} per argument ({@code Long.toString}) and the message
 * {@code String}, which Spool then encodes again. On a console run that formatting was a quarter of
 * the producer's time (JFR, docs/benchmarks.md).
 *
 * <p>Byte-identical to logback by construction, because it only takes the cases whose result is
 * fixed by slf4j 2.0's {@code MessageFormatter.arrayFormat}: the event is exactly a
 * {@link LoggingEvent} or a {@link CapturedEvent} (whose {@code getFormattedMessage()} is that call), the pattern contains no
 * backslash (so no escaped or double-escaped {@code {}}), and every argument is {@code null}
 * (printed {@code "null"}), a {@code String} (its own {@code toString()}), or an {@code Integer},
 * {@code Long}, {@code Short}, {@code Byte} or {@code Boolean}, whose {@code toString()} cannot
 * throw and is plain ASCII. Then {@code arrayFormat} does exactly this: for each argument in turn,
 * find the next {@code "{}"}; if there is none, stop; otherwise copy the text before it and the
 * argument; finally copy the rest of the pattern. A throwable argument, an array, any other type or
 * a backslash falls back to {@code getFormattedMessage()} (the caller's job), so arrays, custom
 * {@code toString()}s and the throwable-candidate rule stay logback's own.
 *
 * <p>A pattern seen before is not scanned again: {@link MessagePattern} keeps it split at its
 * placeholders and encoded, by identity.
 *
 * <p>Internal to the logback adapter.
 */
final class DirectMessage {

    /** {@link #write} could not take the event: nothing was written. */
    static final int DECLINED = -1;

    private DirectMessage() {
    }

    /**
     * Writes the event's formatted message, if this class can.
     *
     * @return {@link #DECLINED} (nothing written), else {@code 1} if a lone surrogate was written
     *         (see {@link Wtf8}) and {@code 0} if not
     */
    static int write(ILoggingEvent event, ByteLineBuilder out) {
        // The writer's event keeps primitive arguments unboxed: read them from it, not its array.
        CapturedEvent captured = event.getClass() == CapturedEvent.class ? (CapturedEvent) event : null;
        if (captured == null && event.getClass() != LoggingEvent.class) {
            return DECLINED;
        }
        String pattern = event.getMessage();
        if (pattern == null) {
            return DECLINED;
        }
        Object[] args = null;
        int count;
        if (captured != null) {
            count = captured.argumentCount();
            if (count >= 0 && !captured.argumentsDirect()) {
                return DECLINED;
            }
        } else {
            args = event.getArgumentArray();
            count = args == null ? -1 : args.length;
            if (args != null && !takesArguments(args)) {
                return DECLINED;
            }
        }
        if (count < 0) {
            return Wtf8.append(out, pattern, 0, pattern.length()) ? 1 : 0; // logback: the message as is
        }
        MessagePattern compiled = MessagePattern.lookup(pattern);
        if (compiled != null) {
            return compiled.escapes() ? DECLINED : compiled.write(out, args, captured, count) ? 1 : 0;
        }
        if (pattern.indexOf('\\') >= 0) {
            return DECLINED;
        }
        boolean lone = false;
        int i = 0;
        for (int k = 0; k < count; k++) {
            int j = pattern.indexOf("{}", i);
            if (j < 0) {
                break;
            }
            lone |= Wtf8.append(out, pattern, i, j);
            lone |= appendArgument(out, args, captured, k);
            i = j + 2;
        }
        lone |= Wtf8.append(out, pattern, i, pattern.length());
        return lone ? 1 : 0;
    }

    /**
     * Writes argument {@code k}: from {@code captured} when it is not {@code null}, else from
     * {@code args}.
     */
    static boolean appendArgument(ByteLineBuilder out, Object[] args, CapturedEvent captured, int k) {
        return captured != null ? captured.appendArgument(out, k) : appendArgument(out, args[k]);
    }

    private static boolean takesArguments(Object[] args) {
        for (Object a : args) {
            if (a != null && !(a instanceof String) && !(a instanceof Integer) && !(a instanceof Long)
                    && !(a instanceof Short) && !(a instanceof Byte) && !(a instanceof Boolean)) {
                return false;
            }
        }
        return true;
    }

    static boolean appendArgument(ByteLineBuilder out, Object arg) {
        if (arg == null) {
            out.appendAscii("null");
            return false;
        }
        if (arg instanceof String) {
            String s = (String) arg;
            return Wtf8.append(out, s, 0, s.length());
        }
        if (arg instanceof Boolean) {
            out.appendAscii((Boolean) arg ? "true" : "false");
            return false;
        }
        out.appendDecimal(((Number) arg).longValue()); // Integer, Long, Short, Byte: Long.toString's digits
        return false;
    }
}
