package io.github.spool.logback;

import ch.qos.logback.core.spi.ContextAware;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code LogstashEncoder}'s provider switches ({@code includeMdc}, {@code includeContext},
 * {@code includeTags}, {@code includeKeyValuePairs}, {@code version}, {@code writeVersionAsInteger}),
 * which Spool renders, and the settings of that encoder Spool does not reproduce
 * ({@code includeCallerData}, {@code shortenedLoggerNameLength}, the arguments' settings,
 * {@code messageSplitRegex}, the key-value pairs' key settings, added {@code provider}s): those
 * are kept as written and given to the real encoder, which then renders every line on the logging
 * thread (said once, in a WARN). Set while logback configures
 * the encoder; read once it starts. Internal.
 */
final class LogstashProviders {
    boolean mdc = true;
    boolean context = true;
    boolean tags = true;
    boolean keyValuePairs = true;
    String version = "1";
    boolean versionAsInteger;
    /**
     * {@code {setter, type, value}} in the order written (repeatable adders such as
     * {@code addProvider} once per element); the type is a {@code Class}, or the name of one of
     * logstash-logback-encoder's, which is optional and loaded only by the real encoder's loader.
     */
    private final List<Object[]> delegated = new ArrayList<>();

    /** Keeps a setting Spool does not render, for the real encoder. */
    void delegate(String setter, Class<?> type, Object value) {
        delegated.add(new Object[] {setter, type, value});
    }

    /** Keeps a setting Spool does not render whose parameter type is logstash-logback-encoder's {@code typeName}. */
    void delegate(String setter, String typeName, Object value) {
        delegated.add(new Object[] {setter, typeName, value});
    }

    /**
     * @return the settings the real encoder must render, as written in {@code logback.xml}
     *         ({@code includeCallerData}, ...); empty when Spool renders them all
     */
    List<String> delegatedNames() {
        Set<String> names = new LinkedHashSet<>();
        for (Object[] d : delegated) {
            String setter = (String) d[0]; // setX or addX: the element is x
            names.add(Character.toLowerCase(setter.charAt(3)) + setter.substring(4));
        }
        if (versionAsInteger && !integral(version)) {
            names.add("writeVersionAsInteger");
        }
        return new ArrayList<>(names);
    }

    /** Whether {@code s} is written as a number: a Java {@code int}. */
    static boolean integral(String s) {
        try {
            Integer.parseInt(s); // as the version provider writes it
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Gives the real encoder these settings (the defaults too: it starts with the same ones). */
    void forwardTo(Object encoder, ContextAware status) {
        LogstashSettingsForwarder.call(encoder, status, "setIncludeMdc", boolean.class, mdc);
        LogstashSettingsForwarder.call(encoder, status, "setIncludeContext", boolean.class, context);
        LogstashSettingsForwarder.call(encoder, status, "setIncludeTags", boolean.class, tags);
        LogstashSettingsForwarder.call(encoder, status, "setIncludeKeyValuePairs", boolean.class, keyValuePairs);
        LogstashSettingsForwarder.call(encoder, status, "setVersion", String.class, version);
        LogstashSettingsForwarder.call(encoder, status, "setWriteVersionAsInteger", boolean.class, versionAsInteger);
        for (Object[] d : delegated) {
            Class<?> type;
            if (d[1] instanceof Class<?> c) {
                type = c;
            } else {
                try {
                    type = Class.forName((String) d[1], false, encoder.getClass().getClassLoader());
                } catch (ClassNotFoundException | LinkageError e) {
                    status.addWarn("SpoolJsonEncoder: could not give LogstashEncoder its " + d[0] + ": " + e);
                    continue;
                }
            }
            if (!type.isPrimitive() && d[2] != null && !type.isInstance(d[2])) { // a <provider> that is not a JsonProvider
                status.addError("SpoolJsonEncoder: " + d[2].getClass().getName() + " is not a " + type.getName()
                        + "; not given to LogstashEncoder");
                continue;
            }
            LogstashSettingsForwarder.call(encoder, status, (String) d[0], type, d[2]);
        }
    }
}
