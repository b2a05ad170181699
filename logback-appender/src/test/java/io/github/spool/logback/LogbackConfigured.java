// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.joran.spi.JoranException;
import io.github.spool.SpoolConfig;
import io.github.spool.StatusListener;
import io.github.spool.dropin.Configured;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A {@code SpoolAppender} named {@code dropin} from logback XML (Joran), with the status messages
 * naming it as logback's status manager received them. Test support.
 */
final class LogbackConfigured implements Configured {

    static final String SPOOL_ENCODER = "<encoder class='io.github.spool.logback.SpoolEncoder'><pattern>%m%n</pattern></encoder>";

    private final LoggerContext lc = newContext();
    private boolean closed;

    private LogbackConfigured(String appenderBody) throws JoranException {
        String xml = "<configuration>\n  <appender name='" + NAME + "' class='io.github.spool.logback.SpoolAppender'>\n"
                + appenderBody + "\n  </appender>\n  <root level='INFO'><appender-ref ref='" + NAME + "'/></root>\n"
                + "</configuration>\n";
        configure(lc, xml);
    }

    /** @return a logger context with logback's MDC adapter, as logback's own initialisation gives one */
    static LoggerContext newContext() {
        LoggerContext lc = new LoggerContext();
        lc.setMDCAdapter(new LogbackMDCAdapter());
        return lc;
    }

    /**
     * Configures {@code lc} from logback XML held in a string (Joran, as {@code logback.xml} is read).
     *
     * @param lc  the context
     * @param xml the configuration
     * @throws JoranException if Joran fails
     */
    static void configure(LoggerContext lc, String xml) throws JoranException {
        JoranConfigurator jc = new JoranConfigurator();
        jc.setContext(lc);
        jc.doConfigure(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * @param settings appender properties, each written as an element, plus a {@link SpoolEncoder} with {@code %m%n}
     * @return the configured appender
     * @throws JoranException if Joran fails
     */
    static LogbackConfigured start(Map<String, String> settings) throws JoranException {
        StringBuilder body = new StringBuilder();
        settings.forEach((k, v) -> body.append("    <").append(k).append('>').append(escape(v)).append("</").append(k).append(">\n"));
        return new LogbackConfigured(body + "    " + SPOOL_ENCODER);
    }

    /**
     * @param appenderBody the appender's elements, verbatim
     * @return the configured appender
     * @throws JoranException if Joran fails
     */
    static LogbackConfigured startBody(String appenderBody) throws JoranException {
        return new LogbackConfigured(appenderBody);
    }

    private static String escape(String v) {
        return v.replace("&", "&amp;").replace("<", "&lt;");
    }

    SpoolAppender appender() {
        return (SpoolAppender) lc.getLogger(Logger.ROOT_LOGGER_NAME).getAppender(NAME);
    }

    @Override
    public boolean started() {
        SpoolAppender a = appender();
        return a != null && a.isStarted();
    }

    @Override
    public SpoolConfig config() {
        return appender().spoolForTest().config();
    }

    @Override
    public List<Configured.Status> statuses() {
        return lc.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getMessage().contains("spool appender '" + NAME + "'"))
                .map(s -> new Configured.Status(level(s), s.getMessage()))
                .collect(Collectors.toList());
    }

    private static StatusListener.Level level(ch.qos.logback.core.status.Status s) {
        switch (s.getLevel()) {
            case ch.qos.logback.core.status.Status.ERROR:
                return StatusListener.Level.ERROR;
            case ch.qos.logback.core.status.Status.WARN:
                return StatusListener.Level.WARN;
            default:
                return StatusListener.Level.INFO;
        }
    }

    /** @return every status of the context, for failure messages */
    List<ch.qos.logback.core.status.Status> allStatuses() {
        return lc.getStatusManager().getCopyOfStatusList();
    }

    /**
     * @param name a logger name
     * @return the logger, for a caller of its own (caller data)
     */
    Logger logger(String name) {
        return lc.getLogger(name);
    }

    @Override
    public void log(String message) {
        lc.getLogger("dropin.test").info(message);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            lc.stop();
        }
    }
}
