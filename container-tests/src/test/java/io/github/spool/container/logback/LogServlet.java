// SPDX-License-Identifier: Apache-2.0
package io.github.spool.container.logback;

import ch.qos.logback.classic.LoggerContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code GET /log?cycle=N&events=M}: logs M lines through the application's logback on Tomcat's request thread. */
public final class LogServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** Tomcat instantiates it from {@code web.xml}. */
    public LogServlet() {
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        int cycle = Integer.parseInt(request.getParameter("cycle"));
        int events = Integer.parseInt(request.getParameter("events"));
        Logger logger = LoggerFactory.getLogger("webapp");
        for (int i = 0; i < events; i++) {
            logger.info("leak-cycle={} seq={}", cycle, i);
        }
        Object appender = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME).getAppender("web");
        response.setContentType("text/plain");
        response.getWriter().println("logged " + events + " appender=" + (appender == null ? null : appender.getClass().getName()));
    }
}
