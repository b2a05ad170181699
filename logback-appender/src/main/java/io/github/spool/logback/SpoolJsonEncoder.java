package io.github.spool.logback;

import ch.qos.logback.classic.pattern.ThrowableHandlingConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.EncoderBase;
import ch.qos.logback.core.spi.ContextAware;
import io.github.spool.text.ByteLineBuilder;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;

/**
 * logback encoder that writes JSON lines byte-identical to a known JSON encoder, named by
 * {@code <format>}; under a {@link SpoolAppender} the line is rendered on Spool's writer thread
 * from values copied on the logging thread ({@code render} {@code writer}/{@code auto}).
 *
 * <pre>{@code
 * <appender name="CONSOLE" class="io.github.spool.logback.SpoolAppender">
 *   <encoder class="io.github.spool.logback.SpoolJsonEncoder">
 *     <format>logstash-logback-encoder</format>
 *   </encoder>
 * </appender>
 * }</pre>
 *
 * <p>Formats: {@value #LOGSTASH_LOGBACK_ENCODER} (the default): what logstash-logback-encoder's
 * {@code LogstashEncoder} writes ({@link LogstashJsonLine}), in {@code TimeZone.getDefault()} as
 * read when this encoder is created, as {@code LogstashEncoder} reads it, with that encoder's
 * settings of the same names: {@code customFields}, {@code includeMdcKeyName},
 * {@code excludeMdcKeyName}, {@code mdcKeyFieldName}, {@code fieldNames} ({@link JsonFieldNames};
 * a {@code LogstashFieldNames} class as {@code fieldNamesClass}),
 * {@code timestampPattern}, {@code timeZone}, {@code throwableConverter}. A timestamp pattern whose
 * fraction of a second Spool does not reproduce makes the real {@code LogstashEncoder} render every
 * line, on the logging thread (one WARN status). {@value #SPRING_ECS}, {@value #SPRING_LOGSTASH}, {@value #SPRING_GELF}: what Spring
 * Boot's {@code StructuredLogEncoder} writes with format {@code ecs}, {@code logstash},
 * {@code gelf}, configured from the Spring {@code Environment} in the logger context as Spring's
 * encoder is, plus this encoder's {@code <include>}, {@code <exclude>}, {@code <rename>}
 * ({@code from=to}) and {@code <add>} ({@code name=value}) elements, which stand for
 * {@code logging.structured.json.include}/{@code exclude}/{@code rename}/{@code add} and
 * take precedence over them ({@link SpringStructured}: what is rendered by Spring's own encoder
 * on the logging thread, with a WARN status). They need Spring Boot on the class path.
 * {@value #LOGBACK_JSON}: what logback's own {@code JsonEncoder} writes, with its {@code with*}
 * settings ({@link LogbackJsonLine}). Any other
 * value, or a Spring format without Spring Boot, is an ERROR status naming it and the supported
 * formats, and the default format is used: the appender starts and no line is lost, as for
 * Spool's other settings.
 *
 * <p>Events this encoder does not render itself — with a logstash {@code LogstashMarker}, a
 * {@code StructuredArgument} argument, or a key-value pair whose value is not a string, boolean or
 * integral boxed number — are encoded by a real {@code LogstashEncoder} (same context) on the
 * logging thread when logstash-logback-encoder is on the class path; without it such values can
 * only be key-value pairs, and are written as JSON strings of their {@code toString()}.
 */
public class SpoolJsonEncoder extends EncoderBase<ILoggingEvent> {

    /** The {@code <format>} of logstash-logback-encoder's {@code LogstashEncoder}. */
    public static final String LOGSTASH_LOGBACK_ENCODER = "logstash-logback-encoder";
    /** The {@code <format>} of Spring Boot's structured logging format {@code ecs}. */
    public static final String SPRING_ECS = "spring-ecs";
    /** The {@code <format>} of Spring Boot's structured logging format {@code logstash}. */
    public static final String SPRING_LOGSTASH = "spring-logstash";
    /** The {@code <format>} of Spring Boot's structured logging format {@code gelf}. */
    public static final String SPRING_GELF = "spring-gelf";
    /** The {@code <format>} of logback's own {@code ch.qos.logback.classic.encoder.JsonEncoder}. */
    public static final String LOGBACK_JSON = "logback-json";

    private static final String SPRING_ENCODER_CLASS = "org.springframework.boot.logging.logback.StructuredLogEncoder";

    private static final String LOGSTASH_ENCODER_CLASS = "net.logstash.logback.encoder.LogstashEncoder";

    private String format = LOGSTASH_LOGBACK_ENCODER;
    /** Read at creation, as {@code LogstashEncoder}'s timestamp provider does in its constructor. */
    private final TimeZone zone = TimeZone.getDefault();
    private volatile JsonLine line;
    /** Whether {@link #line} is logstash-logback-encoder's format, which the real encoder backs up. */
    private boolean logstashFormat;
    /** {@code logging.structured.json.*} properties from the Spring formats' settings, in order. */
    private final java.util.Map<String, String> springSettings = new java.util.LinkedHashMap<>();
    private java.nio.charset.Charset charset;
    /** {@value #LOGBACK_JSON}: which members are written, as {@code JsonEncoder}'s {@code with*} settings. */
    private final LogbackJsonLine.Settings with = new LogbackJsonLine.Settings();
    private final List<String> includes = new java.util.ArrayList<>();
    /** {@value #LOGSTASH_LOGBACK_ENCODER}: {@code LogstashEncoder}'s settings of the same names. */
    private String customFields;
    private final List<String> includeMdcKeyNames = new java.util.ArrayList<>();
    private final List<String> excludeMdcKeyNames = new java.util.ArrayList<>();
    private final java.util.Map<String, String> mdcKeyFieldNames = new java.util.LinkedHashMap<>();
    private JsonFieldNames fieldNames = new JsonFieldNames();
    private String fieldNamesClass;
    private final LogstashProviders providers = new LogstashProviders();
    private String timestampPattern = LogstashTimestamp.DEFAULT_PATTERN;
    /** {@code <timeZone>} as given (forwarded to the real encoder), and as resolved when set, as it resolves it. */
    private String timeZoneSetting;
    private TimeZone timeZone;
    private ThrowableHandlingConverter throwableConverter;
    /**
     * Whether the real encoder renders every event: a setting Spool does not reproduce (reported at
     * start). Plain: written before {@link #line}'s volatile store in {@code start()}, read after its load.
     */
    private boolean realEncoderOnly;
    private final List<String> excludes = new java.util.ArrayList<>();
    /** The real encoder for events {@link #rendersNatively} declines, or {@code null} if not on the class path. */
    private Encoder<ILoggingEvent> fallback;
    private Class<?> logstashMarker;
    private Class<?> structuredArgument;
    /** Keeps a reference to this for {@code encode()}, called only once constructed (JDK 21+ lint). */
    @SuppressWarnings("this-escape")
    private final LineArrays lines = new LineArrays(this::encodeTo);

    /**
     * Creates an encoder; set its format, then {@link #start()} it. The real encoder for the events
     * this one does not render is created here too, so that it reads the same default zone.
     */
    public SpoolJsonEncoder() {
        ClassLoader loader = SpoolJsonEncoder.class.getClassLoader();
        try {
            logstashMarker = Class.forName("net.logstash.logback.marker.LogstashMarker", false, loader);
            structuredArgument = Class.forName("net.logstash.logback.argument.StructuredArgument", false, loader);
            @SuppressWarnings("unchecked")
            Encoder<ILoggingEvent> real = (Encoder<ILoggingEvent>) Class.forName(LOGSTASH_ENCODER_CLASS, true, loader)
                    .getConstructor().newInstance();
            fallback = real;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            logstashMarker = null; // not on the class path: none of its markers or arguments can occur
            structuredArgument = null;
            fallback = null;
        }
    }

    /** @param format the JSON format to write; default {@value #LOGSTASH_LOGBACK_ENCODER} */
    public void setFormat(String format) {
        this.format = format;
    }

    /** @return the configured format */
    public String getFormat() {
        return format;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the event's sequence number, as {@code JsonEncoder.setWithSequenceNumber}.
     *
     * @param with default true
     */
    public void setWithSequenceNumber(boolean with) {
        this.with.sequenceNumber = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the time in milliseconds, as {@code JsonEncoder.setWithTimestamp}.
     *
     * @param with default true
     */
    public void setWithTimestamp(boolean with) {
        this.with.timestamp = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the nanoseconds of the second, as {@code JsonEncoder.setWithNanoseconds}.
     *
     * @param with default true
     */
    public void setWithNanoseconds(boolean with) {
        this.with.nanoseconds = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the level, as {@code JsonEncoder.setWithLevel}.
     *
     * @param with default true
     */
    public void setWithLevel(boolean with) {
        this.with.level = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the thread's name, as {@code JsonEncoder.setWithThreadName}.
     *
     * @param with default true
     */
    public void setWithThreadName(boolean with) {
        this.with.threadName = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the logger's name, as {@code JsonEncoder.setWithLoggerName}.
     *
     * @param with default true
     */
    public void setWithLoggerName(boolean with) {
        this.with.loggerName = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the logger context: name, birth time, properties, as {@code JsonEncoder.setWithContext}.
     *
     * @param with default true
     */
    public void setWithContext(boolean with) {
        this.with.context = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the markers, as {@code JsonEncoder.setWithMarkers}.
     *
     * @param with default true
     */
    public void setWithMarkers(boolean with) {
        this.with.markers = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the MDC, as {@code JsonEncoder.setWithMDC}.
     *
     * @param with default true
     */
    public void setWithMDC(boolean with) {
        this.with.mdc = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the key-value pairs, as {@code JsonEncoder.setWithKVPList}.
     *
     * @param with default true
     */
    public void setWithKVPList(boolean with) {
        this.with.kvpList = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the message pattern, as {@code JsonEncoder.setWithMessage}.
     *
     * @param with default true
     */
    public void setWithMessage(boolean with) {
        this.with.message = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the arguments, as {@code JsonEncoder.setWithArguments}.
     *
     * @param with default true
     */
    public void setWithArguments(boolean with) {
        this.with.arguments = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the throwable, as {@code JsonEncoder.setWithThrowable}.
     *
     * @param with default true
     */
    public void setWithThrowable(boolean with) {
        this.with.throwable = with;
    }

    /**
     * {@value #LOGBACK_JSON}: whether to write the formatted message, as {@code JsonEncoder.setWithFormattedMessage}.
     *
     * @param with default false
     */
    public void setWithFormattedMessage(boolean with) {
        this.with.formattedMessage = with;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: fields added to every line, a JSON object, as
     * {@code LogstashEncoder.setCustomFields}; written after the other fields as that encoder
     * writes them (needs logstash-logback-encoder on the class path, which parses them).
     *
     * @param customFields a JSON object such as <code>{"app":"shop"}</code>
     */
    public void setCustomFields(String customFields) {
        this.customFields = customFields;
    }

    /** @return the custom fields set, or {@code null} */
    public String getCustomFields() {
        return customFields;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: an MDC key to write (then only those), as
     * {@code LogstashEncoder.addIncludeMdcKeyName}; repeatable.
     *
     * @param key the MDC key
     */
    public void addIncludeMdcKeyName(String key) {
        includeMdcKeyNames.add(key);
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: an MDC key to leave out, as
     * {@code LogstashEncoder.addExcludeMdcKeyName}; repeatable.
     *
     * @param key the MDC key
     */
    public void addExcludeMdcKeyName(String key) {
        excludeMdcKeyNames.add(key);
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: the field name of an MDC key, as
     * {@code LogstashEncoder.addMdcKeyFieldName}; repeatable.
     *
     * @param keyAndName {@code mdcKey=fieldName}
     */
    public void addMdcKeyFieldName(String keyAndName) {
        String[] split = keyAndName == null ? new String[0] : keyAndName.split("=");
        if (split.length != 2) {
            addError("SpoolJsonEncoder: mdcKeyFieldName (" + keyAndName + ") must be in the form mdcKeyName=fieldName; ignored");
            return;
        }
        mdcKeyFieldNames.put(split[0], split[1]);
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: the field names, as {@code LogstashEncoder}'s
     * {@code <fieldNames>} element (same child elements).
     *
     * @param fieldNames the names
     */
    public void setFieldNames(JsonFieldNames fieldNames) {
        this.fieldNames = fieldNames == null ? new JsonFieldNames() : fieldNames;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: the field names of a logstash-logback-encoder
     * {@code LogstashFieldNames} class, such as
     * {@code net.logstash.logback.fieldnames.ShortenedFieldNames} or a user's subclass: what
     * {@code LogstashEncoder}'s {@code <fieldNames class="..."/>} gives (logback's configurator
     * only hands this encoder's {@code <fieldNames>} a {@link JsonFieldNames}). Instantiated when
     * the encoder starts and read into its {@link JsonFieldNames} ({@link JsonFieldNames#of}),
     * replacing {@code <fieldNames>}; a class that is not one is an ERROR status and ignored.
     *
     * @param className the class's name
     */
    public void setFieldNamesClass(String className) {
        this.fieldNamesClass = className == null || className.isBlank() ? null : className.trim();
    }

    /** @return the field names class set, or {@code null} */
    public String getFieldNamesClass() {
        return fieldNamesClass;
    }

    /** Reads {@link #fieldNamesClass} into {@link #fieldNames}; a class that is not usable is an ERROR. */
    private void readFieldNamesClass() {
        if (fieldNamesClass == null) {
            return;
        }
        try {
            Class<?> type = Class.forName(fieldNamesClass, true, SpoolJsonEncoder.class.getClassLoader());
            fieldNames = JsonFieldNames.of(type.getConstructor().newInstance());
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            addError("SpoolJsonEncoder: fieldNamesClass " + fieldNamesClass + " is not a logstash-logback-encoder "
                    + "LogstashFieldNames with a public no-argument constructor (" + e + "); ignored");
        }
    }

    /** @return the field names */
    public JsonFieldNames getFieldNames() {
        return fieldNames;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: the timestamp's format, as
     * {@code LogstashEncoder.setTimestampPattern}: {@code [UNIX_TIMESTAMP_AS_NUMBER]},
     * {@code [UNIX_TIMESTAMP_AS_STRING]}, {@code [NAME]} of a {@code DateTimeFormatter} constant, or
     * a {@code DateTimeFormatter} pattern.
     *
     * @param pattern default {@value LogstashTimestamp#DEFAULT_PATTERN}
     */
    public void setTimestampPattern(String pattern) {
        this.timestampPattern = pattern;
    }

    /** @return the timestamp pattern */
    public String getTimestampPattern() {
        return timestampPattern;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: the timestamp's zone, as {@code LogstashEncoder.setTimeZone};
     * empty or {@code [DEFAULT]}: the JVM's default zone, read now.
     *
     * @param zone a zone ID such as {@code Europe/Paris}
     */
    public void setTimeZone(String zone) {
        TimeZone tz;
        if (zone == null || zone.trim().isEmpty() || "[DEFAULT]".equalsIgnoreCase(zone)) {
            tz = TimeZone.getDefault();
        } else {
            tz = TimeZone.getTimeZone(zone);
            if ("GMT".equals(tz.getID()) && !"GMT".equals(zone)) { // what TimeZoneUtils rejects
                addError("SpoolJsonEncoder: invalid timeZone \"" + zone + "\"; ignored");
                return;
            }
        }
        this.timeZoneSetting = zone;
        this.timeZone = tz;
    }

    /** @return the time zone's ID */
    public String getTimeZone() {
        return (timeZone == null ? zone : timeZone).getID();
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: the converter of the stack trace field, as
     * {@code LogstashEncoder.setThrowableConverter} (such as its {@code ShortenedThrowableConverter}
     * with its settings); called on the logging thread, where events with a throwable are rendered.
     *
     * @param converter default logback's {@code ExtendedThrowableProxyConverter}
     */
    public void setThrowableConverter(ThrowableHandlingConverter converter) {
        this.throwableConverter = converter;
    }

    /** @return the throwable converter set, or {@code null} */
    public ThrowableHandlingConverter getThrowableConverter() {
        return throwableConverter;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: whether the MDC is written, as {@code LogstashEncoder.setIncludeMdc}.
     *
     * @param include default {@code true}
     */
    public void setIncludeMdc(boolean include) {
        providers.mdc = include;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: whether the logger context's properties are written, as
     * {@code LogstashEncoder.setIncludeContext}.
     *
     * @param include default {@code true}
     */
    public void setIncludeContext(boolean include) {
        providers.context = include;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: whether markers are written as tags, as
     * {@code LogstashEncoder.setIncludeTags}.
     *
     * @param include default {@code true}
     */
    public void setIncludeTags(boolean include) {
        providers.tags = include;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: whether SLF4J 2 key-value pairs are written, as
     * {@code LogstashEncoder.setIncludeKeyValuePairs}.
     *
     * @param include default {@code true}
     */
    public void setIncludeKeyValuePairs(boolean include) {
        providers.keyValuePairs = include;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: the {@code @version} field's value, as
     * {@code LogstashEncoder.setVersion}.
     *
     * @param version default {@code 1}
     */
    public void setVersion(String version) {
        providers.version = version;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: the {@code @version} field as a number, as
     * {@code LogstashEncoder.setWriteVersionAsInteger}.
     *
     * @param asInteger default {@code false}
     */
    public void setWriteVersionAsInteger(boolean asInteger) {
        providers.versionAsInteger = asInteger;
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: caller data fields, as {@code LogstashEncoder.setIncludeCallerData}.
     * Not rendered by Spool: with {@code true}, logstash-logback-encoder's encoder renders every
     * line, on the logging thread (WARN status at start).
     *
     * @param include default {@code false}
     */
    public void setIncludeCallerData(boolean include) {
        if (include) {
            providers.delegate("setIncludeCallerData", boolean.class, true);
        }
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: as {@code LogstashEncoder.setShortenedLoggerNameLength}.
     * Not rendered by Spool: logstash-logback-encoder's encoder renders every line, on the logging
     * thread (WARN status at start).
     *
     * @param length the logger name's target length
     */
    public void setShortenedLoggerNameLength(int length) {
        providers.delegate("setShortenedLoggerNameLength", int.class, length);
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: as {@code LogstashEncoder.setIncludeStructuredArguments}.
     * With {@code false}, logstash-logback-encoder's encoder renders every line, on the logging
     * thread (WARN status at start).
     *
     * @param include default {@code true}
     */
    public void setIncludeStructuredArguments(boolean include) {
        if (!include) {
            providers.delegate("setIncludeStructuredArguments", boolean.class, false);
        }
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: as {@code LogstashEncoder.setIncludeNonStructuredArguments}.
     * With {@code true}, logstash-logback-encoder's encoder renders every line, on the logging
     * thread (WARN status at start).
     *
     * @param include default {@code false}
     */
    public void setIncludeNonStructuredArguments(boolean include) {
        if (include) {
            providers.delegate("setIncludeNonStructuredArguments", boolean.class, true);
        }
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: as {@code LogstashEncoder.setNonStructuredArgumentsFieldPrefix};
     * logstash-logback-encoder's encoder renders every line, on the logging thread (WARN status at start).
     *
     * @param prefix the prefix
     */
    public void setNonStructuredArgumentsFieldPrefix(String prefix) {
        providers.delegate("setNonStructuredArgumentsFieldPrefix", String.class, prefix);
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: as {@code LogstashEncoder.setMessageSplitRegex};
     * logstash-logback-encoder's encoder renders every line, on the logging thread (WARN status at start).
     *
     * @param regex the regular expression
     */
    public void setMessageSplitRegex(String regex) {
        providers.delegate("setMessageSplitRegex", String.class, regex);
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: a {@code JsonProvider} added to the line, as
     * {@code LogstashEncoder.addProvider} ({@code <provider class="...">} with its own settings);
     * repeatable. Not rendered by Spool: logstash-logback-encoder's encoder renders every line, on
     * the logging thread (WARN status at start).
     *
     * @param provider a {@code net.logstash.logback.composite.JsonProvider}, typed as the logback
     *                 interface every one of them extends: logstash-logback-encoder is optional, and
     *                 logback's configurator would give a parameter typed {@code Object} (a
     *                 {@code java.lang} class) the element's text instead of an instance
     */
    public void addProvider(ContextAware provider) {
        providers.delegate("addProvider", "net.logstash.logback.composite.JsonProvider", provider);
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: as {@code LogstashEncoder.addIncludeKeyValueKeyName}; repeatable.
     * logstash-logback-encoder's encoder renders every line, on the logging thread (WARN status at start).
     *
     * @param key a key-value pair's key to write (then only those)
     */
    public void addIncludeKeyValueKeyName(String key) {
        providers.delegate("addIncludeKeyValueKeyName", String.class, key);
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: as {@code LogstashEncoder.addExcludeKeyValueKeyName}; repeatable.
     * logstash-logback-encoder's encoder renders every line, on the logging thread (WARN status at start).
     *
     * @param key a key-value pair's key to leave out
     */
    public void addExcludeKeyValueKeyName(String key) {
        providers.delegate("addExcludeKeyValueKeyName", String.class, key);
    }

    /**
     * {@value #LOGSTASH_LOGBACK_ENCODER}: as {@code LogstashEncoder.addKeyValueKeyFieldName}
     * ({@code key=fieldName}); repeatable. logstash-logback-encoder's encoder renders every line, on
     * the logging thread (WARN status at start).
     *
     * @param keyAndName {@code key=fieldName}
     */
    public void addKeyValueKeyFieldName(String keyAndName) {
        providers.delegate("addKeyValueKeyFieldName", String.class, keyAndName);
    }

    /**
     * Spring formats: the charset of the lines, as Spring Boot's {@code StructuredLogEncoder}'s
     * {@code <charset>}; default UTF-8. Spool renders UTF-8; with another charset Spring's encoder
     * renders the lines (WARN status). The other formats write UTF-8, as their encoders do.
     *
     * @param charset the charset, {@code null} for UTF-8
     */
    public void setCharset(java.nio.charset.Charset charset) {
        this.charset = charset;
    }

    /** @return the charset set, or {@code null} */
    public java.nio.charset.Charset getCharset() {
        return charset;
    }

    /**
     * Spring formats: a member path to print ({@code logging.structured.json.include}); repeatable,
     * or comma-separated.
     *
     * @param path a member path such as {@code log.level}
     */
    public void addInclude(String path) {
        split(path, includes);
    }

    /**
     * Spring formats: a member path to leave out ({@code logging.structured.json.exclude});
     * repeatable, or comma-separated.
     *
     * @param path a member path such as {@code process.thread}
     */
    public void addExclude(String path) {
        split(path, excludes);
    }

    /**
     * Spring formats: a member renamed ({@code logging.structured.json.rename}); repeatable.
     *
     * @param fromTo {@code path=newName}, such as {@code process.thread.name=thread}
     */
    public void addRename(String fromTo) {
        pair("rename", fromTo);
    }

    /**
     * Spring formats: a member added to every line ({@code logging.structured.json.add}); repeatable.
     *
     * @param nameValue {@code name=value}, such as {@code team=checkout}
     */
    public void addAdd(String nameValue) {
        pair("add", nameValue);
    }

    private static void split(String value, List<String> into) {
        if (value != null) {
            for (String p : value.split(",")) {
                if (!p.isBlank()) {
                    into.add(p.trim());
                }
            }
        }
    }

    private void pair(String property, String nameValue) {
        int eq = nameValue == null ? -1 : nameValue.indexOf('=');
        if (eq <= 0) {
            addError("SpoolJsonEncoder: <" + property + "> \"" + nameValue + "\" is not name=value; ignored");
            return;
        }
        springSettings.put("logging.structured.json." + property + "[" + nameValue.substring(0, eq).trim() + "]",
                nameValue.substring(eq + 1).trim());
    }

    /**
     * Checks the format (an unsupported one is an ERROR and the default is used) and prepares the
     * rendering; creates and starts a {@code LogstashEncoder} for the events it does not render
     * when logstash-logback-encoder is on the class path.
     */
    @Override
    public void start() {
        String f = format == null ? "" : format.trim().toLowerCase(Locale.ROOT);
        JsonLine chosen = null;
        if (f.equals(SPRING_ECS) || f.equals(SPRING_LOGSTASH) || f.equals(SPRING_GELF)) {
            chosen = springLine(f.substring("spring-".length()));
        } else if (f.equals(LOGBACK_JSON)) {
            chosen = new LogbackJsonLine(with, context);
        } else if (!f.isEmpty() && !LOGSTASH_LOGBACK_ENCODER.equals(f)) {
            addError("SpoolJsonEncoder: format \"" + format + "\" is not supported; supported formats: "
                    + String.join(", ", LOGSTASH_LOGBACK_ENCODER, SPRING_ECS, SPRING_LOGSTASH, SPRING_GELF, LOGBACK_JSON)
                    + ". Writing the " + LOGSTASH_LOGBACK_ENCODER + " format instead");
        }
        if (chosen != null) {
            fallback = null; // the Spring formats have their own
            line = chosen;
            super.start();
            return;
        }
        logstashFormat = true;
        readFieldNamesClass();
        LogstashTimestamp timestamp = timestamp();
        if (fallback != null) {
            fallback.setContext(context);
            LogstashSettingsForwarder.forward(fallback, this, customFields, includeMdcKeyNames, excludeMdcKeyNames,
                    mdcKeyFieldNames, fieldNames, timestampPattern, timeZoneSetting, throwableConverter);
            providers.forwardTo(fallback, this);
            fallback.start();
            if (!fallback.isStarted()) {
                addError("SpoolJsonEncoder: logstash-logback-encoder's LogstashEncoder did not start; its markers and "
                        + "structured arguments are written as plain markers and arguments");
                fallback = null;
            }
        }
        ThrowableHandlingConverter converter = throwableConverter != null ? throwableConverter : LogstashJsonLine.defaultConverter();
        // A configured converter given to the real encoder is started and stopped by it, as its provider does.
        boolean ownsConverter = throwableConverter == null || fallback == null;
        byte[] custom = new byte[0];
        if (customFields != null && !customFields.isEmpty() && fallback == null) {
            addError("SpoolJsonEncoder: customFields need logstash-logback-encoder on the class path (it parses them); ignored");
        }
        java.util.List<String> delegated = providers.delegatedNames();
        if (!delegated.isEmpty() && fallback == null) {
            addError("SpoolJsonEncoder: " + String.join(", ", delegated) + " need logstash-logback-encoder on the class path "
                    + "(its LogstashEncoder renders them); ignored");
        } else if (!delegated.isEmpty()) {
            realEncoderOnly = true;
            addWarn("SpoolJsonEncoder: Spool does not reproduce LogstashEncoder's " + String.join(", ", delegated)
                    + "; logstash-logback-encoder's LogstashEncoder renders every line, on the logging thread");
        }
        if (fallback != null && !realEncoderOnly) {
            LogstashSettings probeSettings = settings(new byte[0], timestamp, converter);
            custom = CustomFieldsProbe.customFields(fallback, new LogstashJsonLine(context, probeSettings, false));
            if (custom == null) {
                realEncoderOnly = true;
                custom = new byte[0];
                addWarn("SpoolJsonEncoder: with these LogstashEncoder settings Spool does not reproduce its lines; "
                        + "logstash-logback-encoder's LogstashEncoder renders every line, on the logging thread");
            } else if (!timestamp.nativeStyle()) {
                realEncoderOnly = true;
                addWarn("SpoolJsonEncoder: timestampPattern \"" + timestampPattern + "\" is rendered by "
                        + "logstash-logback-encoder's LogstashEncoder, on the logging thread");
            }
        }
        line = new LogstashJsonLine(context, settings(custom, timestamp, converter), ownsConverter);
        super.start();
    }

    /** The timestamp of {@link #timestampPattern} in the zone; an invalid pattern is an ERROR and the default is used. */
    private LogstashTimestamp timestamp() {
        java.time.ZoneId z = (timeZone == null ? zone : timeZone).toZoneId();
        try {
            return new LogstashTimestamp(timestampPattern == null ? LogstashTimestamp.DEFAULT_PATTERN : timestampPattern, z);
        } catch (IllegalArgumentException e) {
            addError("SpoolJsonEncoder: timestampPattern \"" + timestampPattern + "\" is not valid (" + e.getMessage()
                    + "); using " + LogstashTimestamp.DEFAULT_PATTERN);
            timestampPattern = LogstashTimestamp.DEFAULT_PATTERN;
            return new LogstashTimestamp(LogstashTimestamp.DEFAULT_PATTERN, z);
        }
    }

    private LogstashSettings settings(byte[] custom, LogstashTimestamp timestamp, ThrowableHandlingConverter converter) {
        return new LogstashSettings(fieldNames, includeMdcKeyNames, excludeMdcKeyNames, mdcKeyFieldNames, custom,
                timestamp, converter, providers);
    }

    /** The Spring format's renderer, or {@code null} (reported) if Spring Boot is not there or did not start. */
    private JsonLine springLine(String springFormat) {
        ClassLoader loader = SpoolJsonEncoder.class.getClassLoader();
        try {
            Class.forName(SPRING_ENCODER_CLASS, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            addError("SpoolJsonEncoder: format \"" + format + "\" needs Spring Boot (" + SPRING_ENCODER_CLASS
                    + ") on the class path; writing the " + LOGSTASH_LOGBACK_ENCODER + " format instead");
            return null;
        }
        java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();
        if (!includes.isEmpty()) {
            settings.put("logging.structured.json.include", String.join(",", includes));
        }
        if (!excludes.isEmpty()) {
            settings.put("logging.structured.json.exclude", String.join(",", excludes));
        }
        settings.putAll(springSettings);
        JsonLine l = SpringStructured.create(springFormat, context, this, settings, charset);
        if (l == null) {
            addError("SpoolJsonEncoder: writing the " + LOGSTASH_LOGBACK_ENCODER + " format instead of \"" + format + "\"");
        }
        return l;
    }

    @Override
    public void stop() {
        super.stop();
        JsonLine l = line;
        if (l != null) {
            l.stop();
        }
        if (fallback != null) {
            fallback.stop();
        }
    }

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }

    /**
     * Encodes one event into a new array.
     *
     * @param event the event
     * @return its line
     */
    @Override
    public byte[] encode(ILoggingEvent event) {
        return lines.encode(event);
    }

    /**
     * Appends the event's line to {@code out} (after what it already holds). Allocation-free for an
     * event without throwable or markers, once the second of its time stamp has been rendered.
     *
     * @param event the event
     * @param out   the builder to append to
     */
    public void encodeTo(ILoggingEvent event, ByteLineBuilder out) {
        JsonLine l = line;
        if (l == null) {
            return; // not started: nothing, as logback's encoders print nothing before start
        }
        // A captured event passed capturable(): no markers, no structured arguments (and asking for
        // its argument array would box its primitives again).
        if (logstashFormat && fallback != null && event.getClass() != CapturedEvent.class
                && (realEncoderOnly || !rendersNatively(event))) {
            byte[] bytes = fallback.encode(event);
            out.append(bytes, 0, bytes.length);
            return;
        }
        l.render(event, out);
    }

    /**
     * @return whether {@link LogstashJsonLine} writes this event as {@code LogstashEncoder} does:
     *         no {@code LogstashMarker}, no {@code StructuredArgument}, key-value values it writes
     */
    boolean rendersNatively(ILoggingEvent event) {
        if (logstashMarker != null) {
            List<Marker> markers = event.getMarkerList();
            if (markers != null) {
                for (Marker m : markers) {
                    if (hasLogstashMarker(m)) {
                        return false;
                    }
                }
            }
            Object[] args = event.getArgumentArray();
            if (args != null) {
                for (Object a : args) {
                    if (structuredArgument.isInstance(a)) {
                        return false;
                    }
                }
            }
        }
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        if (pairs != null) {
            for (KeyValuePair p : pairs) {
                if (!LogstashJsonLine.nativeValue(p.value)) {
                    return false;
                }
            }
        }
        return true;
    }

    @SuppressWarnings("deprecation") // hasReferences/iterator: how LogstashEncoder walks markers
    private boolean hasLogstashMarker(Marker m) {
        if (m == null) {
            return false;
        }
        if (logstashMarker.isInstance(m)) {
            return true;
        }
        if (m.hasReferences()) {
            for (Iterator<Marker> it = m.iterator(); it.hasNext(); ) {
                if (hasLogstashMarker(it.next())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @return whether the writer can render this event from {@link EventCapture}'s record: a plain
     *         {@link LoggingEvent} (its instant is what the record keeps) without markers or
     *         key-value pairs, which the record does not carry, and without arguments the real
     *         encoder prints as fields
     */
    boolean capturable(ILoggingEvent event) {
        JsonLine l = line;
        if (event.getClass() != LoggingEvent.class || l == null || !l.capturable() || realEncoderOnly) {
            return false;
        }
        if (l instanceof LogbackJsonLine) {
            // what a captured event does not carry: its own sequence number, context view, markers
            return (!with.sequenceNumber || event.getSequenceNumber() == 0) && event.getMarkerList() == null
                    && (!with.context || event.getLoggerContextVO() == ((LogbackJsonLine) l).contextView());
        }
        List<Marker> markers = event.getMarkerList();
        if (markers != null && !markers.isEmpty()) {
            return false;
        }
        if (structuredArgument != null && logstashFormat) {
            Object[] args = event.getArgumentArray();
            if (args != null) {
                for (Object a : args) {
                    if (structuredArgument.isInstance(a)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** @return whether every line is rendered by the real {@code LogstashEncoder} (tests) */
    boolean realEncoderOnly() {
        return realEncoderOnly;
    }

    /** @return the MDC keys a capture copies: all; for {@value #LOGBACK_JSON} with the message's pattern */
    String[] capturedMdcKeys() {
        return line instanceof LogbackJsonLine ? EventCapture.ALL_KEYS_AND_PATTERN : EventCapture.ALL_KEYS;
    }

    /** @return how many events a Spring format left to Spring's own encoder (tests), -1 for other formats */
    long springRendered() {
        JsonLine l = line;
        return l instanceof SpringStructured ? ((SpringStructured) l).springRendered() : -1;
    }

    /** @return whether lines can be rendered on the writer: once started */
    boolean rendersFromCapture() {
        return line != null;
    }

    /** A thread's reusable builder for {@link #encode} and whether it is in use. */
}
