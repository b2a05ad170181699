// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback.leak;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import java.net.URL;

/**
 * The web application of the logback redeploy leak test ({@code io.github.spool.soak.Redeploy}):
 * its own {@code LoggerContext} configured from {@code leak/logback-<leak.appender>.xml}
 * ({@code spool} or {@code console}, the control), logs, stops it. Loaded in a fresh class loader
 * per cycle.
 */
public final class LogbackApp {

    private static LoggerContext context;

    private LogbackApp() {
    }

    /**
     * @param name the context's name
     * @throws Exception if the configuration fails
     */
    public static void deploy(String name) throws Exception {
        URL config = LogbackApp.class.getClassLoader().getResource("leak/logback-" + System.getProperty("leak.appender") + ".xml");
        LoggerContext ctx = new LoggerContext();
        ctx.setName(name);
        ctx.setMDCAdapter(new LogbackMDCAdapter()); // what SLF4J's LogbackServiceProvider does
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(ctx);
        configurator.doConfigure(config);
        Object appender = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("leak");
        if (appender == null || !((ch.qos.logback.core.Appender<?>) appender).isStarted()) {
            throw new IllegalStateException("logback did not start from " + config + ": " + ctx.getStatusManager().getCopyOfStatusList());
        }
        System.err.println("leak-app appenders=" + appender.getClass().getName());
        context = ctx;
    }

    /**
     * @param cycle  the deploy cycle, written into every line
     * @param events how many events
     * @return logs them on the calling thread
     */
    public static Runnable logTask(int cycle, int events) {
        Logger logger = context.getLogger("leak.app");
        return () -> {
            for (int i = 0; i < events; i++) {
                logger.info("leak-cycle={} seq={}", cycle, i);
            }
        };
    }

    /** Stops the context, as logback's servlet-container listener does on undeploy. */
    public static void undeploy() {
        LoggerContext ctx = context;
        context = null;
        ctx.stop();
        if (new StatusUtil(ctx).getHighestLevel(0) >= Status.ERROR) {
            throw new IllegalStateException("logback reported errors: " + ctx.getStatusManager().getCopyOfStatusList());
        }
    }
}
