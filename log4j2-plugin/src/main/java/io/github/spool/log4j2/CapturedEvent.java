package io.github.spool.log4j2;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.AbstractLogEvent;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.util.ReadOnlyStringMap;

/**
 * The writer thread's event: the fields a captured record carries, for {@link SpoolLayout}'s
 * segments to render from ({@link Segment#rendersFromCapture()}). Reused record after record;
 * everything else is {@link AbstractLogEvent}'s default (no throwable, no marker). Internal API.
 */
final class CapturedEvent extends AbstractLogEvent {

    private static final long serialVersionUID = 1L;

    private Level level;
    private String loggerName;
    private String threadName;
    private transient Message message;
    private final CapturedContext contextData;

    /**
     * @param contextData the context map, filled by the writer per record (empty when the layout
     *                    prints none)
     */
    CapturedEvent(CapturedContext contextData) {
        this.contextData = contextData;
    }

    void set(long epochSecond, int nanoOfSecond, Level level, String loggerName, String threadName, Message message) {
        getMutableInstant().initFromEpochSecond(epochSecond, nanoOfSecond);
        this.level = level;
        this.loggerName = loggerName;
        this.threadName = threadName;
        this.message = message;
    }

    @Override
    public ReadOnlyStringMap getContextData() {
        return contextData;
    }

    @Override
    public Level getLevel() {
        return level;
    }

    @Override
    public String getLoggerName() {
        return loggerName;
    }

    @Override
    public String getThreadName() {
        return threadName;
    }

    @Override
    public Message getMessage() {
        return message;
    }

    @Override
    public long getTimeMillis() {
        return getMutableInstant().getEpochMillisecond();
    }
}
