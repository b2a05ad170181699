package io.github.spool.bench.e2e;

import ch.qos.logback.classic.LoggerContext;
import java.util.Map;
import org.springframework.boot.SpringBootVersion;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The Spring {@link Environment} a Spring Boot application's logback context holds: kept apart
 * from {@link LogbackSubject} so that its Spring classes load only for the Spring configurations.
 */
final class SpringEnvironment {

    private SpringEnvironment() {
    }

    /** Puts an environment with the application's name (ECS's service.name) and pid into {@code lc}. */
    static void putInto(LoggerContext lc) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("bench", Map.of(
                "spring.application.name", "bench", "spring.application.pid", String.valueOf(ProcessHandle.current().pid()))));
        lc.putObject(Environment.class.getName(), environment);
    }

    /** @return Spring Boot's version */
    static String bootVersion() {
        return SpringBootVersion.getVersion();
    }
}
