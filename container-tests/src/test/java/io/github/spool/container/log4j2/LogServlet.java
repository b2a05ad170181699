// SPDX-License-Identifier: Apache-2.0
package io.github.spool.container.log4j2;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.util.ClockFactory;

/** {@code GET /log?cycle=N&events=M}: logs M lines through the application's log4j2 on Tomcat's request thread. */
public final class LogServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** Tomcat instantiates it from {@code web.xml}. */
    public LogServlet() {
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        int cycle = Integer.parseInt(request.getParameter("cycle"));
        int events = Integer.parseInt(request.getParameter("events"));
        // The context Configurator.initialize created for this application's class loader.
        Logger logger = LogManager.getContext(LogServlet.class.getClassLoader(), false).getLogger("webapp");
        for (int i = 0; i < events; i++) {
            logger.info("leak-cycle={} seq={}", cycle, i);
        }
        response.setContentType("text/plain");
        response.getWriter().println("logged " + events + " clock=" + ClockFactory.getClock().getClass().getName());
    }
}
