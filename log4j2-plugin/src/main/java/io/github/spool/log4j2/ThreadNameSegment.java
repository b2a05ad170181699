package io.github.spool.log4j2;

import io.github.spool.text.NameCache;
import org.apache.logging.log4j.core.LogEvent;

/** {@code %t}, {@code %thread}: the thread name ({@code "null"} if absent, as log4j2). Internal API. */
final class ThreadNameSegment extends Segment {

    static final ThreadNameSegment INSTANCE = new ThreadNameSegment();

    /** Encoded thread names: a thread's name is the same {@code String} event after event. */
    private final NameCache<byte[]> names = new NameCache<>(name -> LineBuffer.encodeAlone(name, 0, name.length()));

    private ThreadNameSegment() {
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        String name = event.getThreadName();
        if (name == null) {
            out.append("null");
            return;
        }
        byte[] encoded = names.get(name);
        if (encoded != null) {
            out.appendBytes(encoded, 0, encoded.length);
        } else {
            out.append(name);
        }
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        sb.append(event.getThreadName());
    }
}
