package io.github.spool.log4j2;

import io.github.spool.StatusListener;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.status.StatusLogger;

/** Routes core's status messages to log4j2's {@link StatusLogger}. Internal API. */
final class StatusLoggerListener implements StatusListener {

    private static final Logger LOGGER = StatusLogger.getLogger();

    static final StatusLoggerListener INSTANCE = new StatusLoggerListener();

    private StatusLoggerListener() {
    }

    /** Whether log4j2's status logger prints at {@code level} (its configured {@code status}, ERROR by default). */
    @Override
    public boolean shows(Level level) {
        return LOGGER.isEnabled(level == Level.ERROR ? org.apache.logging.log4j.Level.ERROR
                : level == Level.WARN ? org.apache.logging.log4j.Level.WARN : org.apache.logging.log4j.Level.INFO);
    }

    @Override
    public void status(Level level, String message, Throwable cause) {
        switch (level) {
            case ERROR:
                LOGGER.error(message, cause);
                break;
            case WARN:
                LOGGER.warn(message, cause);
                break;
            default:
                LOGGER.info(message, cause);
        }
    }
}
