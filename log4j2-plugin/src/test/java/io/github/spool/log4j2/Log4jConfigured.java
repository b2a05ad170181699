// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2;

import io.github.spool.SpoolConfig;
import io.github.spool.dropin.Configured;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;

/**
 * A {@code <Spool name="dropin">} appender from a real {@code log4j2.xml}, with the status messages
 * naming it as log4j2's {@link StatusLogger} received them. Test support.
 */
final class Log4jConfigured implements Configured {

    private final List<Status> statuses = new CopyOnWriteArrayList<>();
    private final StatusListener listener = new StatusListener() {
        @Override
        public void log(StatusData data) {
            String message = data.getMessage().getFormattedMessage();
            if (!message.contains("spool appender '" + NAME + "'")) {
                return;
            }
            Level l = data.getLevel();
            io.github.spool.StatusListener.Level level = l.isMoreSpecificThan(Level.ERROR) ? io.github.spool.StatusListener.Level.ERROR
                    : l.isMoreSpecificThan(Level.WARN) ? io.github.spool.StatusListener.Level.WARN : io.github.spool.StatusListener.Level.INFO;
            statuses.add(new Status(level, message));
        }

        @Override
        public Level getStatusLevel() {
            return Level.INFO;
        }

        @Override
        public void close() {
        }
    };
    private final LoggerContext ctx;
    private boolean closed;

    private Log4jConfigured(Path dir, Map<String, String> settings) throws IOException {
        StringBuilder attributes = new StringBuilder();
        settings.forEach((k, v) -> attributes.append(' ').append(k).append("=\"").append(escape(v)).append('"'));
        String xml = "<?xml version='1.0' encoding='UTF-8'?>\n<Configuration status='warn'>\n<Appenders>"
                + "<Spool name='" + NAME + "'" + attributes + "><PatternLayout pattern='%m%n'/></Spool>"
                + "</Appenders>\n<Loggers><Root level='info'><AppenderRef ref='" + NAME + "'/></Root></Loggers>\n"
                + "</Configuration>\n";
        Path config = Files.createTempFile(dir, "log4j2-", ".xml");
        Files.writeString(config, xml, StandardCharsets.UTF_8);
        StatusLogger.getLogger().registerListener(listener);
        ctx = new LoggerContext(config.getFileName().toString(), null, config.toUri());
        ctx.start();
    }

    /**
     * @param dir      where the configuration file goes
     * @param settings attributes of the {@code <Spool>} element
     * @return the started context's appender
     * @throws IOException if the file cannot be written
     */
    static Log4jConfigured start(Path dir, Map<String, String> settings) throws IOException {
        return new Log4jConfigured(dir, settings);
    }

    private static String escape(String v) {
        return v.replace("&", "&amp;").replace("<", "&lt;").replace("\"", "&quot;");
    }

    private Appender appender() {
        return ctx.getConfiguration().getAppender(NAME);
    }

    @Override
    public boolean started() {
        Appender a = appender();
        return a instanceof SpoolAppender && a.isStarted();
    }

    @Override
    public SpoolConfig config() {
        return ((SpoolAppender) appender()).getSpoolConfig();
    }

    @Override
    public List<Status> statuses() {
        return List.copyOf(statuses);
    }

    @Override
    public void log(String message) {
        ctx.getLogger("dropin.test").info(message);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                ctx.stop(10, TimeUnit.SECONDS);
            } finally {
                StatusLogger.getLogger().removeListener(listener);
            }
        }
    }
}
