// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2.leak;

import java.net.URI;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.util.ClockFactory;

/**
 * The web application of the log4j2 redeploy leak test ({@code io.github.spool.soak.Redeploy}):
 * starts its own {@code LoggerContext} from {@code leak/log4j2-<leak.appender>.xml} ({@code spool}
 * or {@code console}, the control), logs, stops it. Loaded in a fresh class loader per cycle.
 */
public final class Log4j2App {

    private static LoggerContext context;

    private Log4j2App() {
    }

    /**
     * @param name the context's name
     * @throws Exception if the configuration cannot be found
     */
    public static void deploy(String name) throws Exception {
        ClassLoader loader = Log4j2App.class.getClassLoader();
        URI config = loader.getResource("leak/log4j2-" + System.getProperty("leak.appender") + ".xml").toURI();
        context = Configurator.initialize(name, loader, config);
        if (context == null || context.getConfiguration().getAppenders().isEmpty()) {
            throw new IllegalStateException("log4j2 did not start from " + config);
        }
        System.err.println("leak-app clock=" + ClockFactory.getClock().getClass().getName() + " appenders="
                + context.getConfiguration().getAppenders().values().iterator().next().getClass().getName());
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

    /** Stops the context, as a container's undeploy does through log4j-web. */
    public static void undeploy() {
        Configurator.shutdown(context);
        context = null;
    }
}
