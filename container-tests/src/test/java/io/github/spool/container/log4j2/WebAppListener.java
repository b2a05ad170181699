// SPDX-License-Identifier: Apache-2.0
package io.github.spool.container.log4j2;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.net.URISyntaxException;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * The test web application's lifecycle, as log4j-web's listener would run it: starts the
 * application's own {@code LoggerContext} from {@code WEB-INF/classes/webapp-log4j2.xml} and
 * stops it on undeploy.
 */
public final class WebAppListener implements ServletContextListener {

    private LoggerContext context;

    /** Tomcat instantiates it from {@code web.xml}. */
    public WebAppListener() {
    }

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ClassLoader loader = WebAppListener.class.getClassLoader();
        try {
            context = Configurator.initialize("webapp", loader, loader.getResource("webapp-log4j2.xml").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        Configurator.shutdown(context);
        context = null;
    }
}
