package io.github.spool.log4j2;

import org.apache.logging.log4j.core.LogEvent;

/** {@code %t}, {@code %thread}: the thread name ({@code "null"} if absent, as log4j2). Internal API. */
final class ThreadNameSegment extends Segment {

    static final ThreadNameSegment INSTANCE = new ThreadNameSegment();

    private ThreadNameSegment() {
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        String name = event.getThreadName();
        out.append(name == null ? "null" : name);
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        sb.append(event.getThreadName());
    }
}
