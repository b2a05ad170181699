package io.github.spool.log4j2;

import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.util.StringBuilderFormattable;

/**
 * {@code %m}, {@code %msg}, {@code %message}: the formatted message, as log4j2's {@code
 * SimpleMessagePatternConverter} renders it: {@link StringBuilderFormattable#formatTo} for
 * garbage-free messages (every {@code ReusableMessage}, {@code ParameterizedMessage}, {@code
 * SimpleMessage}), else {@link Message#getFormattedMessage()}; nothing for a {@code null} message.
 * Internal API.
 */
final class MessageSegment extends Segment {

    static final MessageSegment INSTANCE = new MessageSegment();

    private MessageSegment() {
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        Message msg = event.getMessage();
        if (msg instanceof CapturedText) {
            ((CapturedText) msg).encodeTo(out, scratch); // on the writer thread (render on writer)
        } else if (msg instanceof StringBuilderFormattable) {
            scratch.setLength(0);
            ((StringBuilderFormattable) msg).formatTo(scratch);
            out.append(scratch);
        } else if (msg != null) {
            String text = msg.getFormattedMessage();
            out.append(text == null ? "null" : text);
        }
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        Message msg = event.getMessage();
        if (msg instanceof StringBuilderFormattable) {
            ((StringBuilderFormattable) msg).formatTo(sb);
        } else if (msg != null) {
            sb.append(msg.getFormattedMessage());
        }
    }
}
