package io.github.spool.bench.e2e;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import java.net.URL;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootVersion;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * logback configured as Spring Boot configures it for structured logging: a Spring
 * {@link Environment} in the logger context under its class name (what Spring Boot's
 * {@code LogbackLoggingSystem} puts there, and what its {@code StructuredLogEncoder} and Spool's
 * {@code spring-*} formats read), then the XML on the classpath ({@code bench/logback-*.xml}).
 * Spring Boot itself is not started: the encoder, not the application, is measured.
 */
final class SpringLogbackSubject implements Subject {

    private final String resource;
    private Logger logger;

    /** @param resource classpath resource of the configuration */
    SpringLogbackSubject(String resource) {
        this.resource = resource;
    }

    @Override
    public void start() {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext lc)) {
            throw new IllegalStateException("SLF4J is not bound to logback: " + LoggerFactory.getILoggerFactory());
        }
        lc.reset(); // drops whatever logback's own initialisation configured
        StandardEnvironment environment = new StandardEnvironment();
        // What a Spring Boot application has: its name (ECS's service.name) and its pid.
        environment.getPropertySources().addFirst(new MapPropertySource("bench", Map.of(
                "spring.application.name", "bench", "spring.application.pid", String.valueOf(ProcessHandle.current().pid()))));
        lc.putObject(Environment.class.getName(), environment);
        URL xml = SpringLogbackSubject.class.getClassLoader().getResource(resource);
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
        logger = LoggerFactory.getLogger(EventLine.LOGGER);
    }

    @Override
    public Caller caller(int threadIndex) {
        Logger l = logger;
        return seq -> l.info(EventLine.MESSAGE, seq);
    }

    @Override
    public void stop() {
        ((LoggerContext) LoggerFactory.getILoggerFactory()).stop();
    }

    @Override
    public Map<String, String> facts() {
        return Map.of("logback", Versions.logback(), "spring-boot", SpringBootVersion.getVersion());
    }
}
