package io.github.spool.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Context;
import ch.qos.logback.core.ContextBase;
import ch.qos.logback.core.spi.ContextAware;
import io.github.spool.text.ByteLineBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.boot.logging.structured.ElasticCommonSchemaProperties;
import org.springframework.boot.logging.structured.GraylogExtendedLogFormatProperties;
import org.springframework.boot.logging.structured.StructuredLoggingJsonMembersCustomizer;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The one class of {@link SpoolJsonEncoder} that uses Spring Boot (loaded only for a
 * {@code spring-*} format): reads what Spring Boot's {@code StructuredLogEncoder} reads from the
 * {@code Environment} the logger context holds, decides what Spool renders itself, and keeps a
 * started {@code StructuredLogEncoder} for the rest — the anchor's own code, so that those lines
 * are its bytes too. Internal to the logback adapter.
 *
 * <p>Rendered by Spool ({@link SpringEcsLine}, {@link SpringLogstashLine}, {@link SpringGelfLine}):
 * the format with {@code logging.structured.json.context.*}, {@code include}, {@code exclude},
 * {@code rename} and {@code add} ({@link SpringMemberNames}; from the {@code Environment} or the
 * encoder's own settings), the ECS/GELF service properties and {@code spring.application.*}.
 * Rendered by Spring's encoder on the logging thread, with one WARN status: a configuration with
 * {@code logging.structured.json.customizer}, or with a {@code StructuredLoggingJsonMembersCustomizer}
 * in {@code META-INF/spring.factories}, or whose {@code add}/{@code rename} writes a name twice or
 * none (Spring's writer throws on every line); with {@code logging.structured.json.stacktrace.*} the events
 * with a throwable. Per event, what the native renderer declines ({@link SpringJsonLine}).
 */
final class SpringStructured implements JsonLine {

    private static final String JSON = "logging.structured.json";

    private final SpringJsonLine line;
    private final StructuredLogEncoder spring;
    /** Whether Spool renders events (else all go to Spring's encoder, on the logging thread). */
    private final boolean renders;
    /** Whether Spool renders events with a throwable (no stack trace printer configured). */
    private final boolean rendersThrowables;
    /** Events given to Spring's encoder: for tests, which show that Spool renders the rest. */
    private final java.util.concurrent.atomic.LongAdder springRendered = new java.util.concurrent.atomic.LongAdder();

    private SpringStructured(SpringJsonLine line, StructuredLogEncoder spring, boolean renders,
            boolean rendersThrowables) {
        this.line = line;
        this.spring = spring;
        this.renders = renders;
        this.rendersThrowables = rendersThrowables;
    }

    /**
     * @param format   {@code ecs}, {@code logstash} or {@code gelf}
     * @param context  the logger context (its {@code Environment} object is read)
     * @param status   where to report
     * @param settings the encoder's {@code include}/{@code exclude}/{@code rename}/{@code add}, as
     *                 {@code logging.structured.json.*} properties
     * @param charset  the lines' charset, {@code null} for UTF-8
     * @return the started renderer, or {@code null} if Spring's encoder did not start (reported)
     */
    static JsonLine create(String format, Context context, ContextAware status, Map<String, String> settings,
            Charset charset) {
        Object found = context == null ? null : context.getObject(Environment.class.getName());
        Environment environment;
        if (found instanceof Environment) {
            environment = (Environment) found;
        } else {
            status.addWarn("SpoolJsonEncoder: no Spring Environment in the logger context (Spring Boot puts it there); "
                    + "format spring-" + format + " reads system properties and environment variables only");
            environment = new StandardEnvironment();
        }
        if (!settings.isEmpty()) {
            environment = withSettings(environment, settings);
        }
        Context springContext = context;
        if (springContext == null || springContext.getObject(Environment.class.getName()) != environment) {
            ContextBase own = new ContextBase();
            own.putObject(Environment.class.getName(), environment);
            springContext = own;
        }
        StructuredLogEncoder spring = new StructuredLogEncoder();
        spring.setContext(springContext);
        spring.setFormat(format);
        if (charset != null) {
            spring.setCharset(charset);
        }
        try {
            spring.start();
        } catch (RuntimeException e) {
            status.addError("SpoolJsonEncoder: Spring Boot's StructuredLogEncoder did not start for format " + format, e);
            return null;
        }
        Binder binder = Binder.get(environment);
        List<String> reasons = new ArrayList<>();
        if (bound(binder, JSON + ".customizer", Bindable.setOf(String.class))) {
            reasons.add(JSON + ".customizer");
        }
        if (charset != null && !StandardCharsets.UTF_8.equals(charset)) {
            reasons.add("charset " + charset.name());
        }
        if (hasFactoryCustomizer()) {
            reasons.add("a StructuredLoggingJsonMembersCustomizer in META-INF/spring.factories");
        }
        boolean stackTracePrinter;
        try {
            Map<String, Object> stackTrace = binder.bind(JSON + ".stacktrace", Bindable.mapOf(String.class, Object.class))
                    .orElse(Map.of());
            String name = String.valueOf(stackTrace.getOrDefault("printer", "")).toLowerCase(Locale.ROOT).replace("-", "");
            boolean others = stackTrace.keySet().stream().anyMatch(k -> !k.equals("printer"));
            // Spring's StackTrace.createPrinter(): "logging-system", or nothing set, is no printer
            stackTracePrinter = !("loggingsystem".equals(name) || name.isEmpty() && !others);
        } catch (RuntimeException e) {
            stackTracePrinter = true; // Spring's encoder knows what it makes of them
        }
        SpringSettings values;
        try {
            values = settings(environment, binder);
        } catch (RuntimeException e) {
            values = null; // Spring's encoder started with them: what it makes of them, it does
            reasons.add(JSON + ".include/exclude/rename/add as bound here");
        }
        SpringJsonLine line = null;
        if (values != null) {
            line = switch (format) {
                case "ecs" -> new SpringEcsLine(values);
                case "gelf" -> new SpringGelfLine(values);
                default -> new SpringLogstashLine(values, TimeZone.getDefault().toZoneId());
            };
            if (!line.customisable()) {
                reasons.add(JSON + ".add/rename writing a name twice or no name");
            }
        }
        if (!reasons.isEmpty()) {
            status.addWarn("SpoolJsonEncoder: format spring-" + format + " with " + String.join(", ", reasons)
                    + ": lines are rendered by Spring Boot's own StructuredLogEncoder on the logging thread");
        } else if (stackTracePrinter) {
            status.addWarn("SpoolJsonEncoder: format spring-" + format + " with " + JSON + ".stacktrace.*: lines with "
                    + "an exception are rendered by Spring Boot's own StructuredLogEncoder on the logging thread");
        }
        return new SpringStructured(line, spring, reasons.isEmpty(), !stackTracePrinter);
    }

    private static boolean bound(Binder binder, String name, Bindable<?> target) {
        try {
            return binder.bind(name, target).isBound();
        } catch (RuntimeException e) {
            return true; // whatever Spring makes of it, its own encoder does it
        }
    }

    private static SpringSettings settings(Environment environment, Binder binder) {
        ElasticCommonSchemaProperties.Service ecs = ElasticCommonSchemaProperties.get(environment).service();
        GraylogExtendedLogFormatProperties gelf = GraylogExtendedLogFormatProperties.get(environment);
        boolean include = binder.bind(JSON + ".context.include", Boolean.class).orElse(true);
        String prefix = binder.bind(JSON + ".context.prefix", String.class).orElse(null);
        // bound as Spring's StructuredLoggingJsonProperties binds them: the same sets, the maps in the same order
        SpringMemberNames names = new SpringMemberNames(
                binder.bind(JSON + ".include", Bindable.setOf(String.class)).orElse(Set.of()),
                binder.bind(JSON + ".exclude", Bindable.setOf(String.class)).orElse(Set.of()),
                binder.bind(JSON + ".rename", Bindable.mapOf(String.class, String.class)).orElse(Map.of()));
        Map<String, String> add = binder.bind(JSON + ".add", Bindable.mapOf(String.class, String.class)).orElse(Map.of());
        return new SpringSettings(environment.getProperty("spring.application.pid", Long.class), ecs.name(),
                ecs.version(), ecs.environment(), ecs.nodeName(), gelf.host(), gelf.service().version(), include,
                prefix, names, new LinkedHashMap<>(add));
    }

    /** The environment with the encoder's settings first, as properties of higher precedence. */
    private static Environment withSettings(Environment environment, Map<String, String> settings) {
        StandardEnvironment derived = new StandardEnvironment();
        MutablePropertySources sources = derived.getPropertySources();
        for (PropertySource<?> s : List.copyOf(sources.stream().toList())) {
            sources.remove(s.getName());
        }
        sources.addFirst(new MapPropertySource("spoolJsonEncoder", new LinkedHashMap<String, Object>(settings)));
        if (environment instanceof ConfigurableEnvironment) {
            for (PropertySource<?> s : ((ConfigurableEnvironment) environment).getPropertySources()) {
                if (!sources.contains(s.getName())) {
                    sources.addLast(s);
                }
            }
        } else {
            sources.addLast(new PropertySource<Environment>("environment", environment) {
                @Override
                public Object getProperty(String name) {
                    return getSource().getProperty(name);
                }
            });
        }
        return derived;
    }

    private static boolean hasFactoryCustomizer() {
        String key = StructuredLoggingJsonMembersCustomizer.class.getName();
        ClassLoader loader = SpringStructured.class.getClassLoader();
        try {
            Enumeration<URL> urls = loader.getResources("META-INF/spring.factories");
            while (urls.hasMoreElements()) {
                Properties p = new Properties();
                try (InputStream in = urls.nextElement().openStream()) {
                    p.load(in);
                }
                String value = p.getProperty(key);
                if (value != null && !value.isBlank()) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return true; // unknown: Spring's own encoder is exact whatever they say
        }
    }

    @Override
    public boolean render(ILoggingEvent event, ByteLineBuilder out) {
        if (renders && (rendersThrowables || event.getThrowableProxy() == null)) {
            int at = out.length();
            if (line.render(event, out)) {
                return true;
            }
            out.setLength(at);
        }
        springRendered.increment();
        byte[] bytes = spring.encode(event);
        out.append(bytes, 0, bytes.length);
        return true;
    }

    /** @return how many events Spring's encoder rendered */
    long springRendered() {
        return springRendered.sum();
    }

    /**
     * @return whether events may be captured: Spool renders them, or Spring's default members,
     *         which read nothing a captured event lacks; a customizer might
     */
    @Override
    public boolean capturable() {
        return renders;
    }

    @Override
    public void stop() {
        if (line != null) {
            line.stop();
        }
        spring.stop();
    }
}
