// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import io.github.spool.dropin.TwoContextsContract;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@link TwoContextsContract} through logback: two {@code LoggerContext}s, each with a
 * {@code SpoolAppender}; reconfiguring is {@code reset()} and a new {@link JoranConfigurator}, as
 * logback's scan does.
 */
class TwoContextsTest extends TwoContextsContract<LoggerContext> {

    @Override
    protected LoggerContext start(String name, Path file) throws Exception {
        LoggerContext ctx = new LoggerContext();
        ctx.setName(name);
        reconfigure(ctx, file);
        return ctx;
    }

    @Override
    protected void reconfigure(LoggerContext ctx, Path file) throws Exception {
        ctx.reset();
        Path config = dir.resolve(file.getFileName() + ".xml");
        Files.writeString(config, "<configuration>\n"
                + "  <appender name=\"" + APPENDER + "\" class=\"" + SpoolAppender.class.getName() + "\">\n"
                + "    <file>" + file + "</file>\n"
                + "    <encoder class=\"" + SpoolEncoder.class.getName() + "\"><pattern>%m%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"info\"><appender-ref ref=\"" + APPENDER + "\"/></root>\n"
                + "</configuration>\n");
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(ctx);
        configurator.doConfigure(config.toFile());
        assertTrue(appender(ctx).isStarted(), () -> "started in " + ctx.getName() + ": " + ctx.getStatusManager().getCopyOfStatusList());
    }

    @Override
    protected Appender<ILoggingEvent> appender(LoggerContext ctx) {
        return ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender(APPENDER);
    }

    @Override
    protected boolean isStopped(Object appender) {
        return !((Appender<?>) appender).isStarted();
    }

    @Override
    protected void log(LoggerContext ctx, String tag, int n) {
        for (int i = 0; i < n; i++) {
            ctx.getLogger("two").info("{} {}", tag, i);
        }
    }

    @Override
    protected void stop(LoggerContext ctx) {
        ctx.stop();
    }
}
