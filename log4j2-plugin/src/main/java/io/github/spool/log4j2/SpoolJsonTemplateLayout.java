package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.StringLayout;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderFactory;
import org.apache.logging.log4j.core.config.plugins.PluginConfiguration;
import org.apache.logging.log4j.core.config.plugins.PluginElement;
import org.apache.logging.log4j.core.impl.LocationAware;
import org.apache.logging.log4j.core.layout.ByteBufferDestination;
import org.apache.logging.log4j.layout.template.json.JsonTemplateLayout;
import org.apache.logging.log4j.layout.template.json.JsonTemplateLayout.EventTemplateAdditionalField;
import org.apache.logging.log4j.layout.template.json.JsonTemplateLayoutDefaults;
import org.apache.logging.log4j.layout.template.json.util.RecyclerFactory;
import org.apache.logging.log4j.layout.template.json.util.Uris;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.message.ParameterizedMessageFactory;
import org.apache.logging.log4j.message.ReusableParameterizedMessage;
import org.apache.logging.log4j.message.ReusableSimpleMessage;
import org.apache.logging.log4j.message.SimpleMessage;
import org.apache.logging.log4j.status.StatusLogger;
import org.apache.logging.log4j.util.Strings;

/**
 * {@code <SpoolJsonTemplateLayout>}: accepts every attribute and element of log4j2 2.26.1's {@code
 * <JsonTemplateLayout>} ({@code eventTemplateUri}, {@code eventTemplate}, {@code
 * eventTemplateRootObjectKey}, {@code <EventTemplateAdditionalField>}, {@code stackTraceEnabled},
 * {@code locationInfoEnabled}, {@code charset}, {@code maxStringLength}, {@code
 * truncatedStringSuffix}, {@code recyclerFactory}, {@code eventDelimiter}, …, with its defaults
 * and {@code log4j.layout.jsonTemplate.*} properties) and writes exactly what JsonTemplateLayout
 * writes for the same event: the line is rendered by an internal JsonTemplateLayout built with the
 * same settings, so the resolvers, escaping, truncation and status messages are log4j2's own.
 *
 * <p>What Spool adds is where that runs. Inside a {@code <Spool>} appender rendering on the writer
 * ({@code render="auto"} on 2 or more processors, or {@code "writer"}), the calling thread only
 * copies the event's fields into a record ({@link EventCapture}, no allocation) and the writer
 * thread rebuilds the event from the record and runs the resolvers on it. That is exact when every
 * resolver of the template reads only what the record carries ({@link JsonTemplateSupport}): the
 * shipped {@code EcsLayout.json}, {@code LogstashJsonEventLayoutV1.json} and {@code GelfLayout.json}
 * with their defaults qualify. Per event, one that carries more than the record (an exception, a
 * marker, a context stack, a message other than a simple or parameterized one or one a logger's
 * reusable event took in) is rendered on the calling thread, as JsonTemplateLayout would. A
 * template with another resolver ({@code counter}, {@code endOfBatch}, {@code pattern},
 * {@code messageParameter}, a thread's id or priority, the
 * logger's FQCN, {@code source} with location info on, an event lookup) renders every event on the
 * calling thread; the layout says so once, in an INFO status naming the resolver.
 */
@Plugin(name = SpoolJsonTemplateLayout.PLUGIN_NAME, category = Node.CATEGORY, elementType = Layout.ELEMENT_TYPE,
        printObject = true)
public final class SpoolJsonTemplateLayout implements StringLayout, LocationAware, CapturingLayout {

    /** The element name in {@code log4j2.xml}. */
    public static final String PLUGIN_NAME = "SpoolJsonTemplateLayout";

    /**
     * {@code ParameterizedMessage}'s class without a compile-time reference (see {@link
     * EventCapture}: its deprecated constructors carry an annotation not on the class path).
     */
    private static final Class<?> PARAMETERIZED = ParameterizedMessageFactory.INSTANCE.newMessage("{}", "x").getClass();

    private final JsonTemplateLayout delegate;
    private final String templateName;
    /** {@code null} when the writer renders this template, else why it does not. */
    private final String unsupported;
    private final boolean context;

    /** The template compiled for the writer, or {@code null}: log4j2's resolvers then render there too. */
    private final NativeJsonTemplate compiled;

    private SpoolJsonTemplateLayout(JsonTemplateLayout delegate, String templateName, String unsupported,
            boolean context, NativeJsonTemplate compiled) {
        this.delegate = delegate;
        this.compiled = compiled;
        this.templateName = templateName;
        this.unsupported = unsupported;
        this.context = context;
    }

    /**
     * The builder log4j2 uses for {@code <SpoolJsonTemplateLayout>}: JsonTemplateLayout's
     * attributes, elements and defaults.
     *
     * @return a new builder
     */
    @PluginBuilderFactory
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Renders the event as JsonTemplateLayout does (allocates).
     *
     * @param event the event
     * @return the JSON line, with the event delimiter
     */
    @Override
    public String toSerializable(LogEvent event) {
        return delegate.toSerializable(event);
    }

    /**
     * Returns the encoded line, as JsonTemplateLayout does (allocates).
     *
     * @param event the event
     * @return a new array
     */
    @Override
    public byte[] toByteArray(LogEvent event) {
        return delegate.toByteArray(event);
    }

    /**
     * Encodes the event into the destination, as JsonTemplateLayout does (its own recycled buffers).
     *
     * @param event       the event
     * @param destination where the bytes go
     */
    @Override
    public void encode(LogEvent event, ByteBufferDestination destination) {
        delegate.encode(event, destination);
    }

    /** @return {@code null}, as JsonTemplateLayout */
    @Override
    public byte[] getFooter() {
        return delegate.getFooter();
    }

    /** @return {@code null}, as JsonTemplateLayout */
    @Override
    public byte[] getHeader() {
        return delegate.getHeader();
    }

    /** @return the charset */
    @Override
    public Charset getCharset() {
        return delegate.getCharset();
    }

    /** @return JsonTemplateLayout's content type */
    @Override
    public String getContentType() {
        return delegate.getContentType();
    }

    /** @return JsonTemplateLayout's content format */
    @Override
    public Map<String, String> getContentFormat() {
        return delegate.getContentFormat();
    }

    /** @return whether the template prints the caller's location with {@code locationInfoEnabled} on */
    @Override
    public boolean requiresLocation() {
        return delegate.requiresLocation();
    }

    // ---- render on the writer (CapturingLayout) ----

    @Override
    public boolean rendersFromCapture() {
        return unsupported == null && StandardCharsets.UTF_8.equals(delegate.getCharset());
    }

    /**
     * @return {@code true}: JsonTemplateLayout truncates strings at {@code maxStringLength} chars and
     *         drops a high surrogate at the cut, so a captured text keeps its chars exactly
     */
    @Override
    public boolean formatsMessageChars() {
        return true;
    }

    @Override
    public String[] capturedContextKeys() {
        return context ? EventCapture.ALL_KEYS : null;
    }

    /**
     * An event is captured only when the resolvers see nothing on the original that the writer's
     * rebuilt event lacks: no marker, no context stack, and a message the {@code message} resolver
     * prints as a plain string (a {@code SimpleMessage} or parameterized one whose format is not
     * {@code "JSON"}, which it would print raw). The throwable {@link EventCapture} checks.
     *
     * <p>A logger's own events are the common case: log4j2's reusable events ({@code
     * MutableLogEvent} for synchronous loggers, {@code RingBufferLogEvent} behind the Disruptor)
     * copy a reusable message's text and parameters into themselves and return themselves as the
     * message. Neither is a {@code SimpleMessage}, a {@code MultiformatMessage} nor an {@code
     * ObjectMessage}, so log4j2 2.26.1's {@code MessageResolver} prints their text as a string
     * ({@code resolveString}), which is what the capture copies.
     */
    @Override
    @SuppressWarnings("deprecation") // Message.getFormat(): the very call JsonTemplateLayout's message resolver makes
    public boolean capturable(LogEvent event) {
        if (event.getMarker() != null) {
            return false;
        }
        ThreadContext.ContextStack stack = event.getContextStack();
        if (stack != null && stack.getDepth() > 0) {
            return false;
        }
        Message m = event.getMessage();
        if (m == null) {
            return false;
        }
        Class<?> type = m.getClass();
        if (m != event && type != SimpleMessage.class && type != PARAMETERIZED && type != ReusableParameterizedMessage.class
                && type != ReusableSimpleMessage.class) {
            return false;
        }
        return !"JSON".equalsIgnoreCase(m.getFormat());
    }

    @Override
    public ByteLineBuilder encodeTextRecord(LogEvent event, SpoolLayout.Scratch scratch) {
        LineBuffer line = scratch.line;
        line.reset();
        ByteLineBuilder b = line.bytes();
        RecordCodec.beginText(b);
        encodeTo(event, scratch, b);
        RecordCodec.endText(b);
        return b;
    }

    @Override
    public void renderCaptured(LogEvent event, SpoolLayout.Scratch scratch, LineBuffer line) {
        if (compiled != null && event instanceof CapturedEvent
                && compiled.render((CapturedEvent) event, line.bytes(), scratch.json())) {
            return;
        }
        encodeTo(event, scratch, line.bytes());
    }

    private void encodeTo(LogEvent event, SpoolLayout.Scratch scratch, ByteLineBuilder out) {
        LineDestination d = scratch.destination();
        d.begin(out);
        try {
            delegate.encode(event, d);
        } finally {
            d.end();
        }
    }

    @Override
    public String describe() {
        return templateName + (unsupported != null ? ", " + unsupported
                : compiled != null ? ", rendered on the writer by Spool's compiled template"
                : ", rendered on the writer by log4j2's resolvers");
    }

    @Override
    public String toString() {
        return "SpoolJsonTemplateLayout[" + describe() + "]";
    }

    /** JsonTemplateLayout's builder, attribute for attribute; see {@link SpoolJsonTemplateLayout#newBuilder()}. */
    public static final class Builder implements org.apache.logging.log4j.core.util.Builder<SpoolJsonTemplateLayout> {

        @PluginConfiguration
        private Configuration configuration;

        @PluginBuilderAttribute
        private Charset charset = JsonTemplateLayoutDefaults.getCharset();

        @PluginBuilderAttribute
        private boolean locationInfoEnabled = JsonTemplateLayoutDefaults.isLocationInfoEnabled();

        @PluginBuilderAttribute
        private boolean stackTraceEnabled = JsonTemplateLayoutDefaults.isStackTraceEnabled();

        @PluginBuilderAttribute
        private String eventTemplate = JsonTemplateLayoutDefaults.getEventTemplate();

        @PluginBuilderAttribute
        private String eventTemplateUri = JsonTemplateLayoutDefaults.getEventTemplateUri();

        @PluginBuilderAttribute
        private String eventTemplateRootObjectKey = JsonTemplateLayoutDefaults.getEventTemplateRootObjectKey();

        @PluginElement("EventTemplateAdditionalField")
        private EventTemplateAdditionalField[] eventTemplateAdditionalFields;

        @PluginBuilderAttribute
        private String stackTraceElementTemplate = JsonTemplateLayoutDefaults.getStackTraceElementTemplate();

        @PluginBuilderAttribute
        private String stackTraceElementTemplateUri = JsonTemplateLayoutDefaults.getStackTraceElementTemplateUri();

        @PluginBuilderAttribute
        private String eventDelimiter = JsonTemplateLayoutDefaults.getEventDelimiter();

        @PluginBuilderAttribute
        private boolean nullEventDelimiterEnabled = JsonTemplateLayoutDefaults.isNullEventDelimiterEnabled();

        @PluginBuilderAttribute
        private int maxStringLength = JsonTemplateLayoutDefaults.getMaxStringLength();

        @PluginBuilderAttribute
        private String truncatedStringSuffix = JsonTemplateLayoutDefaults.getTruncatedStringSuffix();

        @PluginBuilderAttribute
        private RecyclerFactory recyclerFactory = JsonTemplateLayoutDefaults.getRecyclerFactory();

        private Builder() {
        }

        /**
         * @param configuration the configuration (lookups, plugin packages); required, as for JsonTemplateLayout
         * @return this builder
         */
        public Builder setConfiguration(Configuration configuration) {
            this.configuration = configuration;
            return this;
        }

        /**
         * @param charset the output charset (default UTF-8); the writer renders UTF-8 only
         * @return this builder
         */
        public Builder setCharset(Charset charset) {
            this.charset = charset;
            return this;
        }

        /**
         * @param locationInfoEnabled as in JsonTemplateLayout (default {@code false})
         * @return this builder
         */
        public Builder setLocationInfoEnabled(boolean locationInfoEnabled) {
            this.locationInfoEnabled = locationInfoEnabled;
            return this;
        }

        /**
         * @param stackTraceEnabled as in JsonTemplateLayout (default {@code true})
         * @return this builder
         */
        public Builder setStackTraceEnabled(boolean stackTraceEnabled) {
            this.stackTraceEnabled = stackTraceEnabled;
            return this;
        }

        /**
         * @param eventTemplate the template's JSON; wins over {@code eventTemplateUri}
         * @return this builder
         */
        public Builder setEventTemplate(String eventTemplate) {
            this.eventTemplate = eventTemplate;
            return this;
        }

        /**
         * @param eventTemplateUri e.g. {@code classpath:EcsLayout.json} (default {@code classpath:EcsLayout.json})
         * @return this builder
         */
        public Builder setEventTemplateUri(String eventTemplateUri) {
            this.eventTemplateUri = eventTemplateUri;
            return this;
        }

        /**
         * @param eventTemplateRootObjectKey wraps the event in an object under this key
         * @return this builder
         */
        public Builder setEventTemplateRootObjectKey(String eventTemplateRootObjectKey) {
            this.eventTemplateRootObjectKey = eventTemplateRootObjectKey;
            return this;
        }

        /**
         * @param eventTemplateAdditionalFields fields added to the template
         * @return this builder
         */
        public Builder setEventTemplateAdditionalFields(EventTemplateAdditionalField[] eventTemplateAdditionalFields) {
            this.eventTemplateAdditionalFields = eventTemplateAdditionalFields;
            return this;
        }

        /**
         * @param stackTraceElementTemplate a stack trace element's template JSON
         * @return this builder
         */
        public Builder setStackTraceElementTemplate(String stackTraceElementTemplate) {
            this.stackTraceElementTemplate = stackTraceElementTemplate;
            return this;
        }

        /**
         * @param stackTraceElementTemplateUri a stack trace element template's URI
         * @return this builder
         */
        public Builder setStackTraceElementTemplateUri(String stackTraceElementTemplateUri) {
            this.stackTraceElementTemplateUri = stackTraceElementTemplateUri;
            return this;
        }

        /**
         * @param eventDelimiter what follows each event (default the system line separator)
         * @return this builder
         */
        public Builder setEventDelimiter(String eventDelimiter) {
            this.eventDelimiter = eventDelimiter;
            return this;
        }

        /**
         * @param nullEventDelimiterEnabled a NUL after the delimiter (GELF over TCP)
         * @return this builder
         */
        public Builder setNullEventDelimiterEnabled(boolean nullEventDelimiterEnabled) {
            this.nullEventDelimiterEnabled = nullEventDelimiterEnabled;
            return this;
        }

        /**
         * @param maxStringLength strings longer than this are truncated (default 16384)
         * @return this builder
         */
        public Builder setMaxStringLength(int maxStringLength) {
            this.maxStringLength = maxStringLength;
            return this;
        }

        /**
         * @param truncatedStringSuffix appended to a truncated string (default {@code …})
         * @return this builder
         */
        public Builder setTruncatedStringSuffix(String truncatedStringSuffix) {
            this.truncatedStringSuffix = truncatedStringSuffix;
            return this;
        }

        /**
         * @param recyclerFactory as in JsonTemplateLayout
         * @return this builder
         */
        public Builder setRecyclerFactory(RecyclerFactory recyclerFactory) {
            this.recyclerFactory = recyclerFactory;
            return this;
        }

        /**
         * Builds the internal JsonTemplateLayout with these settings (so an invalid one fails as it
         * fails there) and decides whether the writer can render its template.
         *
         * @return the layout
         * @throws IllegalArgumentException where JsonTemplateLayout's builder throws
         */
        @Override
        public SpoolJsonTemplateLayout build() {
            JsonTemplateLayout delegate = JsonTemplateLayout.newBuilder().setConfiguration(configuration)
                    .setCharset(charset).setLocationInfoEnabled(locationInfoEnabled)
                    .setStackTraceEnabled(stackTraceEnabled).setEventTemplate(eventTemplate)
                    .setEventTemplateUri(eventTemplateUri).setEventTemplateRootObjectKey(eventTemplateRootObjectKey)
                    .setEventTemplateAdditionalFields(eventTemplateAdditionalFields)
                    .setStackTraceElementTemplate(stackTraceElementTemplate)
                    .setStackTraceElementTemplateUri(stackTraceElementTemplateUri).setEventDelimiter(eventDelimiter)
                    .setNullEventDelimiterEnabled(nullEventDelimiterEnabled).setMaxStringLength(maxStringLength)
                    .setTruncatedStringSuffix(truncatedStringSuffix).setRecyclerFactory(recyclerFactory).build();
            boolean inline = !Strings.isBlank(eventTemplate);
            String name = inline ? "eventTemplate" : eventTemplateUri;
            // The template as JsonTemplateLayout read it (it has just read the same URI).
            String json = inline ? eventTemplate : Uris.readUri(eventTemplateUri, charset);
            JsonTemplateSupport.Verdict verdict = JsonTemplateSupport.analyse(json, eventTemplateAdditionalFields,
                    locationInfoEnabled);
            String unsupported = verdict.unsupported;
            if (unsupported == null && !StandardCharsets.UTF_8.equals(charset)) {
                unsupported = "charset " + charset;
            }
            if (unsupported != null) {
                StatusLogger.getLogger().info("<{}> with {}: {} is not rendered on Spool's writer thread; "
                        + "every event renders on the calling thread, as JsonTemplateLayout does", PLUGIN_NAME, name,
                        unsupported);
            }
            NativeJsonTemplate compiled = unsupported == null ? compile(json) : null;
            return new SpoolJsonTemplateLayout(delegate, name, unsupported, verdict.context, compiled);
        }

        /** @return the template compiled for the writer, or {@code null} where it has a part not compiled */
        private NativeJsonTemplate compile(String json) {
            NativeJsonTemplate.Settings s = new NativeJsonTemplate.Settings();
            s.fieldLayouts = JsonTemplateLayout.newBuilder().setConfiguration(configuration).setCharset(charset)
                    .setLocationInfoEnabled(locationInfoEnabled).setStackTraceEnabled(stackTraceEnabled)
                    .setStackTraceElementTemplate(stackTraceElementTemplate)
                    .setStackTraceElementTemplateUri(stackTraceElementTemplateUri).setMaxStringLength(maxStringLength)
                    .setTruncatedStringSuffix(truncatedStringSuffix).setRecyclerFactory(recyclerFactory);
            s.eventTemplate = json;
            s.additionalFields = eventTemplateAdditionalFields;
            s.rootObjectKey = Strings.isBlank(eventTemplateRootObjectKey) ? null : eventTemplateRootObjectKey;
            s.maxStringLength = maxStringLength;
            s.truncatedStringSuffix = truncatedStringSuffix;
            s.eventDelimiter = eventDelimiter;
            s.nullEventDelimiterEnabled = nullEventDelimiterEnabled;
            try {
                return NativeJsonTemplate.compile(s);
            } catch (RuntimeException e) {
                // log4j2's own path renders it; the compiler only declines what it does not know
                StatusLogger.getLogger().debug("<{}>: template not compiled for the writer: {}", PLUGIN_NAME, e.toString());
                return null;
            }
        }
    }
}
