package io.github.spool.log4j2.it;

import io.github.spool.soak.HostileInputContract;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;

/** A started log4j2 {@link LoggerContext} as the shared hostile-input cases drive it. */
final class Log4jRun implements HostileInputContract.Run {

    final LoggerContext context;

    Log4jRun(LoggerContext context) {
        this.context = context;
    }

    @Override
    public HostileInputContract.Log logger(String name) {
        return log(context.getLogger(name));
    }

    private static HostileInputContract.Log log(Logger log) {
        return new HostileInputContract.Log(log::info, log::info, log::info, log::warn, log::error, log::error);
    }

    @Override
    public void putMdc(String key, String value) {
        ThreadContext.put(key, value);
    }

    @Override
    public void clearMdc() {
        ThreadContext.clearMap();
    }

    @Override
    public void logToRoot(String loggerName, String threadName, String message) {
        // Straight to the root LoggerConfig: creating two million log4j2 Loggers costs log4j2
        // itself about 15 us each (31 s in one run here), which says nothing about Spool.
        context.getConfiguration().getRootLogger().log(Log4jLogEvent.newBuilder().setLoggerName(loggerName)
                .setLevel(Level.INFO).setMessage(new SimpleMessage(message)).setThreadName(threadName).build());
    }

    @Override
    public void assertRenderMode() {
        Log4jRig.assertRenderMode(context, "spool");
    }

    @Override
    public void stop() {
        context.stop();
    }
}
