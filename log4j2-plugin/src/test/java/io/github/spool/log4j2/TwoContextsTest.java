// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2;

import io.github.spool.dropin.TwoContextsContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.core.LoggerContext;

/** {@link TwoContextsContract} through log4j2: two {@code LoggerContext}s, each with a {@code <Spool>}. */
class TwoContextsTest extends TwoContextsContract<LoggerContext> {

    @Override
    protected LoggerContext start(String name, Path file) throws Exception {
        Path config = dir.resolve(file.getFileName() + ".xml");
        Files.writeString(config, "<Configuration status=\"warn\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"" + APPENDER + "\" fileName=\"" + file + "\">\n"
                + "      <SpoolLayout pattern=\"%m%n\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"" + APPENDER + "\"/></Root></Loggers>\n"
                + "</Configuration>\n");
        LoggerContext ctx = new LoggerContext(name, null, config.toUri());
        ctx.start();
        return ctx;
    }

    @Override
    protected void reconfigure(LoggerContext ctx, Path file) {
        ctx.reconfigure();
    }

    @Override
    protected Object appender(LoggerContext ctx) {
        return ctx.getConfiguration().getAppender(APPENDER);
    }

    @Override
    protected boolean isStopped(Object appender) {
        return ((SpoolAppender) appender).isStopped();
    }

    @Override
    protected void log(LoggerContext ctx, String tag, int n) {
        for (int i = 0; i < n; i++) {
            ctx.getLogger("two").info("{} {}", tag, i);
        }
    }

    @Override
    protected void stop(LoggerContext ctx) {
        if (!ctx.stop(10, TimeUnit.SECONDS)) {
            throw new AssertionError("context " + ctx.getName() + " did not stop within 10 s");
        }
    }
}
