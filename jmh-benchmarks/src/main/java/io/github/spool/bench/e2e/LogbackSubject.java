package io.github.spool.bench.e2e;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import java.net.URL;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * logback through the SLF4J API, configured from an XML file on the classpath
 * ({@code bench/logback-*.xml}); with {@link #spring}, configured as Spring Boot configures it for
 * structured logging.
 */
final class LogbackSubject implements Subject {

    private final String resource;
    private final boolean spring;
    private Logger logger;

    /** @param resource classpath resource of the configuration, such as {@code bench/logback-console.xml} */
    LogbackSubject(String resource) {
        this(resource, false);
    }

    private LogbackSubject(String resource, boolean spring) {
        this.resource = resource;
        this.spring = spring;
    }

    /**
     * A Spring {@code Environment} in the logger context under its class name (what Spring Boot's
     * {@code LogbackLoggingSystem} puts there, and what its {@code StructuredLogEncoder} and Spool's
     * {@code spring-*} formats read), then the XML. Spring Boot itself is not started: the encoder,
     * not the application, is measured.
     *
     * @param resource classpath resource of the configuration
     * @return the subject
     */
    static LogbackSubject spring(String resource) {
        return new LogbackSubject(resource, true);
    }

    @Override
    public void start() {
        if (!spring) {
            // Read by logback's ContextInitializer on first use; a classpath resource name is accepted.
            System.setProperty("logback.configurationFile", resource);
        }
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext lc)) { // logback initialises here
            throw new IllegalStateException("SLF4J is not bound to logback: " + LoggerFactory.getILoggerFactory());
        }
        if (spring) {
            configureWithSpringEnvironment(lc);
        }
        logger = LoggerFactory.getLogger(EventLine.LOGGER);
    }

    private void configureWithSpringEnvironment(LoggerContext lc) {
        lc.reset(); // drops whatever logback's own initialisation configured
        SpringEnvironment.putInto(lc);
        URL xml = LogbackSubject.class.getClassLoader().getResource(resource);
        if (xml == null) {
            throw new IllegalStateException("no " + resource + " on the class path");
        }
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(lc);
        try {
            configurator.doConfigure(xml);
        } catch (JoranException e) {
            throw new IllegalStateException("could not configure logback from " + resource, e);
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
        return spring ? Map.of("logback", Versions.logback(), "spring-boot", SpringEnvironment.bootVersion())
                : Map.of("logback", Versions.logback());
    }
}
