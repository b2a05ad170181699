package io.github.spool.log4j2;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;

/** {@code %p}, {@code %level} without options: the level's name. Internal API. */
final class LevelSegment implements Segment {

    static final LevelSegment INSTANCE = new LevelSegment();

    private LevelSegment() {
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        Level level = event.getLevel();
        out.append(level == null ? "null" : level.name());
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        sb.append(event.getLevel()); // Level.toString() is its name, as in LevelPatternConverter
    }
}
