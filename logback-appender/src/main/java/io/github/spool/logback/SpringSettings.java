package io.github.spool.logback;

/**
 * What Spring Boot's structured logging formats read from the {@code Environment}, read once when
 * the encoder starts (Spring's formatters read them once too, when created): the values the native
 * renderers ({@link SpringJsonLine}) print. A value that is {@code null} or empty is left out as
 * Spring leaves it out. Internal to the logback adapter.
 */
final class SpringSettings {

    /** {@code spring.application.pid}, or {@code null}. */
    final Long pid;
    /** ECS {@code service.*}: {@code logging.structured.ecs.service.*} with its fallbacks. */
    final String ecsServiceName;
    final String ecsServiceVersion;
    final String ecsServiceEnvironment;
    final String ecsServiceNodeName;
    /** GELF {@code host} and {@code _service_version}: {@code logging.structured.gelf.*} with its fallbacks. */
    final String gelfHost;
    final String gelfServiceVersion;
    /** {@code logging.structured.json.context.include}: whether MDC and key-value pairs are printed. */
    final boolean contextInclude;
    /** {@code logging.structured.json.context.prefix}, never {@code null}. */
    final String contextPrefix;
    /** {@code logging.structured.json.include}, {@code exclude} and {@code rename}. */
    final SpringMemberNames names;
    /** {@code logging.structured.json.add}, in the order Spring's binder gives them. */
    final java.util.Map<String, String> add;

    SpringSettings(Long pid, String ecsServiceName, String ecsServiceVersion, String ecsServiceEnvironment,
            String ecsServiceNodeName, String gelfHost, String gelfServiceVersion, boolean contextInclude,
            String contextPrefix, SpringMemberNames names, java.util.Map<String, String> add) {
        this.pid = pid;
        this.ecsServiceName = ecsServiceName;
        this.ecsServiceVersion = ecsServiceVersion;
        this.ecsServiceEnvironment = ecsServiceEnvironment;
        this.ecsServiceNodeName = ecsServiceNodeName;
        this.gelfHost = gelfHost;
        this.gelfServiceVersion = gelfServiceVersion;
        this.contextInclude = contextInclude;
        this.contextPrefix = contextPrefix == null ? "" : contextPrefix;
        this.names = names;
        this.add = add;
    }

    static boolean hasLength(String s) {
        return s != null && !s.isEmpty();
    }
}
