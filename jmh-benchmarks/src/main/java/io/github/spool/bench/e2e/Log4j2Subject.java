package io.github.spool.bench.e2e;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * log4j2 configured from an XML file on the classpath ({@code bench/log4j2-*.xml}), with
 * synchronous loggers or, with {@code async}, all loggers asynchronous
 * ({@code AsyncLoggerContextSelector} over LMAX Disruptor 3.4.4, the log4j2 manual's fastest
 * configuration). Loggers are plain log4j2 API loggers ({@code Logger.info(String, Object)}).
 */
final class Log4j2Subject implements Subject {

    private final String resource;
    private final boolean async;
    private Logger logger;

    /**
     * @param resource classpath resource of the configuration, such as {@code bench/log4j2-console.xml}
     * @param async    whether to make every logger asynchronous
     */
    Log4j2Subject(String resource, boolean async) {
        this.resource = resource;
        this.async = async;
    }

    @Override
    public void start() {
        // Must happen before log4j2 initialises: the context selector is read once.
        System.setProperty("log4j2.configurationFile", resource);
        System.setProperty("log4j2.shutdownHookEnabled", "false");
        if (async) {
            Versions.requireDisruptor3();
            System.setProperty("log4j2.contextSelector",
                    "org.apache.logging.log4j.core.async.AsyncLoggerContextSelector");
        }
        logger = LogManager.getLogger(EventLine.LOGGER);
        if (async && !logger.getClass().getName().endsWith("AsyncLogger")) {
            throw new IllegalStateException("expected an async logger, got " + logger.getClass().getName());
        }
    }

    @Override
    public Caller caller(int threadIndex) {
        Logger l = logger;
        return seq -> l.info(EventLine.MESSAGE, seq);
    }

    @Override
    public void stop() {
        // Stops the context: async loggers drain the Disruptor, file managers flush and close;
        // everyone gets the 60 s logback-async's maxFlushTime gives it (an overloaded reader can
        // leave seconds of backlog, and a 10 s default would count the tail as lost).
        org.apache.logging.log4j.core.config.Configurator.shutdown(
                (org.apache.logging.log4j.core.LoggerContext) LogManager.getContext(false), 60, java.util.concurrent.TimeUnit.SECONDS);
    }

    @Override
    public Map<String, String> facts() {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("log4j", Versions.log4j());
        if (async) {
            facts.put("disruptor", Versions.disruptor());
        }
        return facts;
    }
}
