package io.github.spool.undertow.spring;

import io.github.spool.SpoolConfig;
import io.github.spool.io.rolling.RollingPolicy;
import io.github.spool.undertow.SpoolAccessLogReceiver;
import io.undertow.server.handlers.accesslog.AccessLogHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.web.embedded.undertow.UndertowServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Puts {@link SpoolAccessLogReceiver} in place of Undertow's {@code DefaultAccessLogReceiver} in a
 * Spring Boot 3.5 servlet application on Undertow, keeping {@code server.undertow.accesslog.*}
 * meaningful. Declare it as a bean:
 *
 * <pre>{@code
 * @Bean
 * SpoolAccessLogCustomizer spoolAccessLog(ServerProperties server) {
 *     return new SpoolAccessLogCustomizer(server);
 * }
 * }</pre>
 *
 * <p>With {@code server.undertow.accesslog.enabled=true} it turns Spring Boot's own access log off
 * (Spring Boot 3.5.7's {@code UndertowWebServerFactoryDelegate} would otherwise add an
 * {@code AccessLogHandler} over a {@code DefaultAccessLogReceiver}) and adds an
 * {@link AccessLogHandler} over a {@link SpoolAccessLogReceiver} to the deployment's outer handler
 * chain, with the same settings: {@code pattern} (default {@code common}; the named formats
 * {@code common}, {@code combined}, {@code commonobf} and {@code combinedobf} get
 * {@code %{spoolTime}} in place of {@code %t}, the same bytes; {@code %{spoolTime}} and
 * {@code %{spoolTime,...}} may be used in any pattern), and the file {@code dir/prefix + suffix}, the name
 * {@code DefaultAccessLogReceiver} writes to ({@code logs/access_log.log} by default). With
 * {@code rotate} (Spring Boot's default) the file rolls at midnight in the default zone on Spool's
 * writer thread, to {@code dir/prefix + yyyy-MM-dd + "." + suffix}, the name Undertow 2.3's
 * {@code DefaultAccessLogReceiver} gives it ({@code access_log.2026-11-24.log}). With
 * {@code enabled=false} it does nothing. The receiver is drained when the application context
 * closes (and by Spool's shutdown hook if it never does).
 *
 * <p>Runs after Spring Boot's {@code UndertowWebServerFactoryCustomizer} (order 0), which maps
 * the properties onto the factory.
 */
public class SpoolAccessLogCustomizer
        implements WebServerFactoryCustomizer<UndertowServletWebServerFactory>, Ordered, DisposableBean {

    /** The receiver's logging context in its JMX object name. */
    public static final String CONTEXT = "spring-undertow";

    private final ServerProperties serverProperties;
    private final Consumer<SpoolConfig.Builder> settings;
    private volatile SpoolAccessLogReceiver receiver;

    /**
     * Writes to the file the properties name, with Spool's default buffer settings.
     *
     * @param serverProperties Spring Boot's {@code server.*} properties
     */
    public SpoolAccessLogCustomizer(ServerProperties serverProperties) {
        this(serverProperties, b -> { });
    }

    /**
     * As above, then lets {@code settings} change the appender's settings: {@code bufferSize},
     * {@code maxBufferSize}, {@code overflowPolicy}, or {@code target(STDOUT)} instead of the file.
     *
     * @param serverProperties Spring Boot's {@code server.*} properties
     * @param settings         applied to a builder already holding the name, context and file
     */
    public SpoolAccessLogCustomizer(ServerProperties serverProperties, Consumer<SpoolConfig.Builder> settings) {
        this.serverProperties = Objects.requireNonNull(serverProperties, "serverProperties");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public int getOrder() {
        return 1;
    }

    @Override
    public void customize(UndertowServletWebServerFactory factory) {
        final ServerProperties.Undertow.Accesslog log = serverProperties.getUndertow().getAccesslog();
        if (!log.isEnabled()) {
            return;
        }
        factory.setAccessLogEnabled(false);
        // AccessLogHttpHandlerFactory (Spring Boot 3.5.7): "common" when no pattern, and
        // DefaultAccessLogReceiver writes dir/(prefix + suffix).
        final String pattern = withSpoolTime(log.getPattern() != null ? log.getPattern() : "common");
        final String prefix = log.getPrefix() != null ? log.getPrefix() : "access_log.";
        final String suffix = log.getSuffix() != null ? log.getSuffix() : "log";
        final Path file = log.getDir().toPath().resolve(prefix + suffix);
        final RollingPolicy rolling = log.isRotate() ? daily(log.getDir().toPath(), prefix, suffix) : null;
        final ClassLoader loader = SpoolAccessLogCustomizer.class.getClassLoader();
        factory.addDeploymentInfoCustomizers(deployment -> deployment.addOuterHandlerChainWrapper(
                next -> new AccessLogHandler(next, receiver(file, rolling), pattern, loader)));
    }

    /**
     * Undertow's named formats with {@code %{spoolTime}} in place of {@code %t}: the same bytes
     * (the attribute is differential-tested against {@code %t}), from the cached clock and the
     * per-second timestamp cache instead of a date formatted per request. The expansions are
     * {@code AccessLogHandler.handleCommonNames} of Undertow 2.3.20. Any other pattern is the
     * user's and is kept as written.
     *
     * @param pattern {@code server.undertow.accesslog.pattern}
     * @return the pattern the handler gets
     */
    static String withSpoolTime(String pattern) {
        switch (pattern) {
            case "common":
                return "%h %l %u %{spoolTime} \"%r\" %s %b";
            case "combined":
                return "%h %l %u %{spoolTime} \"%r\" %s %b \"%{i,Referer}\" \"%{i,User-Agent}\"";
            case "commonobf":
                return "%o %l %u %{spoolTime} \"%r\" %s %b";
            case "combinedobf":
                return "%o %l %u %{spoolTime} \"%r\" %s %b \"%{i,Referer}\" \"%{i,User-Agent}\"";
            default:
                return pattern;
        }
    }

    /**
     * Undertow's daily rotation: {@code DefaultAccessLogReceiver} (2.3.20) moves
     * {@code base + suffix} to {@code base + yyyy-MM-dd + "." + suffix} at the first request after
     * midnight, dated in the default zone.
     */
    static RollingPolicy daily(Path dir, String prefix, String suffix) {
        String pattern = literal(dir.resolve(prefix).toString()) + "%d{yyyy-MM-dd}." + literal(suffix);
        return RollingPolicy.builder(pattern).activeFile(dir.resolve(prefix + suffix))
                .timeBased(1, false).locale(Locale.US).build();
    }

    /** A file pattern's escape for a literal {@code %}. */
    private static String literal(String text) {
        return text.replace("%", "\\%");
    }

    private synchronized SpoolAccessLogReceiver receiver(Path file, RollingPolicy rolling) {
        if (receiver == null) {
            final SpoolConfig.Builder b = SpoolConfig.builder(SpoolAccessLogReceiver.DEFAULT_NAME).context(CONTEXT)
                    .writerNapMicros(SpoolAccessLogReceiver.defaultWriterNapMicros());
            if (rolling != null) {
                b.rolling(rolling);
            } else {
                b.file(file);
            }
            settings.accept(b);
            try {
                receiver = SpoolAccessLogReceiver.start(b.build());
            } catch (IOException e) {
                throw new UncheckedIOException("Spool access log: cannot open " + file, e);
            }
        }
        return receiver;
    }

    /**
     * The receiver, once the web server has been created.
     *
     * @return the receiver, or {@code null} before the server exists or when the log is disabled
     */
    public SpoolAccessLogReceiver receiver() {
        return receiver;
    }

    /** Drains and stops the receiver when the application context closes (after the web server stops). */
    @Override
    public void destroy() {
        final SpoolAccessLogReceiver r = receiver;
        if (r != null) {
            r.close();
        }
    }
}
