// SPDX-License-Identifier: Apache-2.0
package io.github.spool.container.logback;

import ch.qos.logback.classic.LoggerContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import org.slf4j.LoggerFactory;

/**
 * The test web application's lifecycle, as logback's own servlet listener runs it: SLF4J starts
 * logback, which configures itself from {@code WEB-INF/classes/logback.xml}; undeploy stops the
 * context.
 */
public final class WebAppListener implements ServletContextListener {

    /** Tomcat instantiates it from {@code web.xml}. */
    public WebAppListener() {
    }

    @Override
    public void contextInitialized(ServletContextEvent event) {
        LoggerFactory.getILoggerFactory();
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        ((LoggerContext) LoggerFactory.getILoggerFactory()).stop();
    }
}
