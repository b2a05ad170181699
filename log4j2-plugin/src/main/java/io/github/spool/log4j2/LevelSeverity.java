package io.github.spool.log4j2;

import io.github.spool.Severity;
import org.apache.logging.log4j.Level;

/**
 * Maps log4j2 levels onto core's {@link Severity}. Public for the appender only; internal API.
 *
 * <p>Custom levels map by {@link Level#intLevel()} range, the way log4j2 itself compares levels
 * ({@link Level#isMoreSpecificThan}): a level maps to the most severe standard level it is at least
 * as severe as, so a custom level with intLevel 350 (between WARN 300 and INFO 400) maps to INFO.
 */
public final class LevelSeverity {

    private LevelSeverity() {
    }

    /**
     * Returns the severity of a log4j2 level.
     *
     * @param level the level; {@code null} maps to {@link Severity#INFO}
     * @return a {@link Severity} constant
     */
    public static int of(Level level) {
        return level == null ? Severity.INFO : ofIntLevel(level.intLevel());
    }

    /**
     * Returns the severity of a log4j2 intLevel (smaller is more severe).
     *
     * @param intLevel {@link Level#intLevel()}
     * @return a {@link Severity} constant
     */
    public static int ofIntLevel(int intLevel) {
        if (intLevel <= Level.FATAL.intLevel()) {
            return Severity.FATAL;
        }
        if (intLevel <= Level.ERROR.intLevel()) {
            return Severity.ERROR;
        }
        if (intLevel <= Level.WARN.intLevel()) {
            return Severity.WARN;
        }
        if (intLevel <= Level.INFO.intLevel()) {
            return Severity.INFO;
        }
        if (intLevel <= Level.DEBUG.intLevel()) {
            return Severity.DEBUG;
        }
        return Severity.TRACE;
    }

    /**
     * Parses a level name for {@code discardThreshold}: any level log4j2 knows (custom levels
     * included), except {@code OFF} and {@code ALL}, which name no events.
     *
     * @param name the level name, case-insensitive
     * @return the severity it maps to
     * @throws IllegalArgumentException naming the bad value
     */
    public static int parseThreshold(String name) {
        Level level = name == null ? null : Level.toLevel(name.trim(), null);
        if (level == null || level == Level.OFF || level == Level.ALL) {
            throw new IllegalArgumentException("discardThreshold '" + name
                    + "' is not a log4j2 level; expected TRACE, DEBUG, INFO, WARN, ERROR, FATAL or a custom level");
        }
        return of(level);
    }
}
