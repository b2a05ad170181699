package io.github.spool.bench.e2e;

import ch.qos.logback.classic.LoggerContext;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * logback through the SLF4J API, configured from an XML file on the classpath
 * ({@code bench/logback-*.xml}).
 */
final class LogbackSubject implements Subject {

    private final String resource;
    private Logger logger;

    /** @param resource classpath resource of the configuration, such as {@code bench/logback-console.xml} */
    LogbackSubject(String resource) {
        this.resource = resource;
    }

    @Override
    public void start() {
        // Read by logback's ContextInitializer on first use; a classpath resource name is accepted.
        System.setProperty("logback.configurationFile", resource);
        logger = LoggerFactory.getLogger(EventLine.LOGGER);
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext)) {
            throw new IllegalStateException("SLF4J is not bound to logback: " + LoggerFactory.getILoggerFactory());
        }
    }

    @Override
    public Caller caller(int threadIndex) {
        Logger l = logger;
        return seq -> l.info(EventLine.MESSAGE, seq);
    }

    @Override
    public void stop() {
        // Stops every appender: AsyncAppender drains its queue (maxFlushTime in the XML), encoders flush.
        ((LoggerContext) LoggerFactory.getILoggerFactory()).stop();
    }

    @Override
    public Map<String, String> facts() {
        return Map.of("logback", Versions.logback());
    }
}
