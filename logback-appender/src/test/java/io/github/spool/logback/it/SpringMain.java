package io.github.spool.logback.it;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A minimal Spring Boot application run in a forked JVM by {@link SpringBootIntegrationTest}: Spring Boot
 * configures logback from {@code logback-spring.xml}, the application logs {@code args[0]} events
 * and one exception, closes its context and returns from {@code main} (Spring Boot's logging
 * shutdown hook stops logback).
 */
@SpringBootConfiguration
public class SpringMain {

    /** Creates the configuration bean. */
    public SpringMain() {
    }

    /**
     * Entry point.
     *
     * @param args number of events, then Spring arguments such as {@code --spring.profiles.active=spool}
     */
    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(SpringMain.class);
        app.setBannerMode(Banner.Mode.OFF); // the banner goes through System.out, not logback
        String[] springArgs = java.util.Arrays.copyOfRange(args, 1, args.length);
        ConfigurableApplicationContext ctx = app.run(springArgs);
        if (Boolean.getBoolean("spool.it.printEncoder")) { // which encoder the configuration chose, for the test
            printConsoleEncoder();
        }
        try {
            Logger log = LoggerFactory.getLogger("io.github.spool.logback.it.OrderService");
            int n = Integer.parseInt(args[0]);
            for (int i = 0; i < n; i++) {
                log.info("seq={} {}", i, LoadMain.PAYLOAD);
            }
            log.warn("payment failed", new IllegalStateException("card declined", new java.io.IOException("timeout")));
        } finally {
            ctx.close();
        }
    }

    private static void printConsoleEncoder() {
        ch.qos.logback.classic.Logger root = ((ch.qos.logback.classic.LoggerContext) LoggerFactory.getILoggerFactory())
                .getLogger(Logger.ROOT_LOGGER_NAME);
        Object appender = root.getAppender("CONSOLE");
        Object encoder = appender instanceof io.github.spool.logback.SpoolAppender
                ? ((io.github.spool.logback.SpoolAppender) appender).getEncoder()
                : appender instanceof ch.qos.logback.core.OutputStreamAppender
                        ? ((ch.qos.logback.core.OutputStreamAppender<?>) appender).getEncoder() : null;
        String format = encoder instanceof io.github.spool.logback.SpoolJsonEncoder
                ? " " + ((io.github.spool.logback.SpoolJsonEncoder) encoder).getFormat() : "";
        System.err.println("CONSOLE encoder: " + (encoder == null ? "none" : encoder.getClass().getName()) + format);
    }
}
