package io.github.spool.bench.e2e;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.ThreadContext;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * What the production-shape server logs per request, as a servlet-style application does: two MDC
 * entries set for the request and cleared after it, one INFO line with 3 arguments, one INFO line
 * under the MDC, and every 100th request a WARN with an exception (with a cause) created for that
 * request. Each framework through its own API (SLF4J's {@code MDC}, log4j2's {@code ThreadContext}).
 */
public interface ServerLog {

    /** The WARN with an exception comes once every this many requests. */
    int WARN_EVERY = 100;

    /** The request-scoped MDC keys. */
    String REQUEST_ID = "requestId";

    /** The second MDC key. */
    String USER = "user";

    /**
     * Logs one request's lines on the worker thread handling it.
     *
     * @param seq  the request's number in this server, 0, 1, 2, ...
     * @param path the request path
     * @return how many log lines were written (0 without logging)
     */
    int request(long seq, String path);

    /**
     * @param seq a request's number
     * @return whether that request logs the WARN with an exception
     */
    static boolean warns(long seq) {
        return seq % WARN_EVERY == WARN_EVERY - 1;
    }

    /**
     * @param seq a request's number
     * @return the exception the request logs: created per request, as an application's failure is
     */
    static Exception failure(long seq) {
        return new IllegalStateException("upstream call " + seq + " failed",
                new java.net.SocketTimeoutException("Read timed out"));
    }

    /**
     * @param subject a started subject of the registry
     * @return the server's logging through that subject's framework
     * @throws IllegalArgumentException for a subject the server scenario does not run
     */
    static ServerLog of(Subject subject) {
        if (subject instanceof NoLoggingSubject) {
            return (seq, path) -> 0;
        }
        if (subject instanceof LogbackSubject) {
            org.slf4j.Logger log = LoggerFactory.getLogger(EventLine.LOGGER);
            return (seq, path) -> {
                MDC.put(REQUEST_ID, Long.toString(seq));
                MDC.put(USER, "user-" + (seq & 63));
                try {
                    log.info("Handled {} {} as request {}", "GET", path, seq);
                    log.info("Request accepted for the current user");
                    if (warns(seq)) {
                        log.warn("Upstream call failed for request {}", seq, failure(seq));
                        return 3;
                    }
                    return 2;
                } finally {
                    MDC.clear(); // the worker thread serves other requests next
                }
            };
        }
        if (subject instanceof Log4j2Subject) {
            org.apache.logging.log4j.Logger log = LogManager.getLogger(EventLine.LOGGER);
            return (seq, path) -> {
                ThreadContext.put(REQUEST_ID, Long.toString(seq));
                ThreadContext.put(USER, "user-" + (seq & 63));
                try {
                    log.info("Handled {} {} as request {}", "GET", path, seq);
                    log.info("Request accepted for the current user");
                    if (warns(seq)) {
                        log.warn("Upstream call failed for request {}", seq, failure(seq));
                        return 3;
                    }
                    return 2;
                } finally {
                    ThreadContext.clearMap(); // the worker thread serves other requests next
                }
            };
        }
        throw new IllegalArgumentException("the server scenario has no logging for " + subject.getClass().getName());
    }
}
