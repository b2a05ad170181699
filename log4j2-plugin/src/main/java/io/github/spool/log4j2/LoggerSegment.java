package io.github.spool.log4j2;

import io.github.spool.text.NameCache;
import org.apache.logging.log4j.core.LogEvent;

/**
 * {@code %c}, {@code %logger} with no option or an element-count option: {@code {36}} keeps the
 * last 36 dot-separated elements, {@code {-2}} drops the first two. These are log4j2's
 * {@code NameAbbreviator.MaxElementAbbreviator} RETAIN and DROP strategies, re-implemented here so
 * that the kept range is encoded straight from the logger name without a copy. (log4j2 counts
 * elements, not characters as logback's {@code %logger{36}} does.) Internal API.
 */
final class LoggerSegment extends Segment {

    /** The whole name. */
    static final LoggerSegment FULL = new LoggerSegment(0, false);

    private final int count;
    private final boolean drop;
    /** The kept range of each logger name, encoded: logger names are the same {@code String}s event after event. */
    private final NameCache<byte[]> names = new NameCache<>(name -> LineBuffer.encodeAlone(name, start(name), name.length()));

    /**
     * @param count elements to keep ({@code drop == false}, at least 1 as in log4j2) or to drop
     * @param drop  {@code true} for a negative option ({@code {-n}})
     */
    LoggerSegment(int count, boolean drop) {
        this.count = drop ? Math.max(count, 0) : Math.max(count, 1);
        this.drop = drop;
    }

    /** Index of the first char printed, following log4j2's loops exactly (including edge cases). */
    private int start(String name) {
        if (this == FULL) {
            return 0;
        }
        if (drop) {
            int start = 0;
            for (int i = 0; i < count; i++) {
                int next = name.indexOf('.', start);
                if (next == -1) {
                    return 0;
                }
                start = next + 1;
            }
            return start;
        }
        int end = name.length() - 1;
        for (int i = count; i > 0; i--) {
            end = name.lastIndexOf('.', end - 1);
            if (end == -1) {
                return 0;
            }
        }
        return end + 1;
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        String name = event.getLoggerName();
        if (name == null) {
            out.append("null"); // log4j2 prints "null" for the whole name and fails on abbreviation
            return;
        }
        byte[] encoded = names.get(name);
        if (encoded != null) {
            out.appendBytes(encoded, 0, encoded.length);
        } else {
            out.append(name, start(name), name.length());
        }
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        String name = event.getLoggerName();
        if (name == null) {
            name = "null";
        }
        sb.append(name, start(name), name.length());
    }
}
