package io.github.spool.logback;

import ch.qos.logback.core.spi.ContextAware;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code LogstashEncoder}'s provider switches ({@code includeMdc}, {@code includeContext},
 * {@code includeTags}, {@code includeKeyValuePairs}, {@code version}, {@code writeVersionAsInteger}),
 * which Spool renders, and the settings of that encoder Spool does not reproduce
 * ({@code includeCallerData}, {@code shortenedLoggerNameLength}, the arguments' settings,
 * {@code messageSplitRegex}): those are kept as written and given to the real encoder, which then
 * renders every line on the logging thread (said once, in a WARN). Set while logback configures
 * the encoder; read once it starts. Internal.
 */
final class LogstashProviders {
    boolean mdc = true;
    boolean context = true;
    boolean tags = true;
    boolean keyValuePairs = true;
    String version = "1";
    boolean versionAsInteger;
    /** Setter name to {@code {type, value}}, in the order written. */
    private final Map<String, Object[]> delegated = new LinkedHashMap<>();

    /** Keeps a setting Spool does not render, for the real encoder. */
    void delegate(String setter, Class<?> type, Object value) {
        delegated.put(setter, new Object[] {type, value});
    }

    /**
     * @return the settings the real encoder must render, as written in {@code logback.xml}
     *         ({@code includeCallerData}, ...); empty when Spool renders them all
     */
    List<String> delegatedNames() {
        List<String> names = new ArrayList<>();
        delegated.keySet().forEach(setter -> names.add(Character.toLowerCase(setter.charAt(3)) + setter.substring(4)));
        if (versionAsInteger && !integral(version)) {
            names.add("writeVersionAsInteger");
        }
        return names;
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
        delegated.forEach((setter, typeAndValue) ->
                LogstashSettingsForwarder.call(encoder, status, setter, (Class<?>) typeAndValue[0], typeAndValue[1]));
    }
}
