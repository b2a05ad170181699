// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2.it;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A minimal Spring Boot application run in a forked JVM by {@link SpringBootDropInTest}: Spring
 * Boot configures log4j2 (its own default, or the file {@code logging.config} names), the
 * application logs {@code args[0]} events and one exception, names the root logger's appenders on
 * standard error, closes its context and returns from {@code main} (Spring Boot's logging shutdown hook stops log4j2).
 */
@SpringBootConfiguration
public class SpringMain {

    /** Creates the configuration bean. */
    public SpringMain() {
    }

    /**
     * Entry point.
     *
     * @param args number of events, then Spring arguments such as {@code --logging.config=...}
     */
    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(SpringMain.class);
        app.setBannerMode(Banner.Mode.OFF); // the banner goes through System.out, not log4j2
        String[] springArgs = java.util.Arrays.copyOfRange(args, 1, args.length);
        ConfigurableApplicationContext ctx = app.run(springArgs);
        try {
            Logger log = LogManager.getLogger("io.github.spool.log4j2.it.OrderService");
            int n = Integer.parseInt(args[0]);
            for (int i = 0; i < n; i++) {
                log.info("seq={} {}", i, "payload-" + "x".repeat(i % 7));
            }
            log.warn("payment failed", new IllegalStateException("card declined", new java.io.IOException("timeout")));
            // Which appenders wrote (standard error, which the test reads apart from the output).
            org.apache.logging.log4j.core.LoggerContext lc = (org.apache.logging.log4j.core.LoggerContext) LogManager.getContext(false);
            lc.getConfiguration().getRootLogger().getAppenders().forEach((name, a) ->
                    System.err.println("appender " + name + " " + a.getClass().getSimpleName()));
        } finally {
            ctx.close();
        }
    }
}
