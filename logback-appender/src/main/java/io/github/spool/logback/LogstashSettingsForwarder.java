package io.github.spool.logback;

import ch.qos.logback.classic.pattern.ThrowableHandlingConverter;
import ch.qos.logback.core.spi.ContextAware;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Gives a real {@code LogstashEncoder} (created reflectively: logstash-logback-encoder is optional)
 * the {@link SpoolJsonEncoder}'s settings of the same names, so that the events it renders — and
 * the custom fields Spool takes from it — are those of the configuration the user wrote. A setting
 * it refuses was refused by Spool too (same checks), so its error is not repeated. Internal.
 */
final class LogstashSettingsForwarder {

    static final String FIELD_NAMES_CLASS = "net.logstash.logback.fieldnames.LogstashFieldNames";

    private LogstashSettingsForwarder() {
    }

    static void forward(Object encoder, ContextAware status, String customFields, List<String> includeMdc,
            List<String> excludeMdc, Map<String, String> mdcFieldNames, JsonFieldNames fieldNames, String timestampPattern,
            String timeZone, ThrowableHandlingConverter converter) {
        if (customFields != null) {
            call(encoder, status, "setCustomFields", String.class, customFields);
        }
        for (String key : includeMdc) {
            call(encoder, status, "addIncludeMdcKeyName", String.class, key);
        }
        for (String key : excludeMdc) {
            call(encoder, status, "addExcludeMdcKeyName", String.class, key);
        }
        mdcFieldNames.forEach((key, name) -> call(encoder, status, "addMdcKeyFieldName", String.class, key + "=" + name));
        if (fieldNames.source() != null) {
            try {
                Class<?> type = Class.forName(FIELD_NAMES_CLASS, true, encoder.getClass().getClassLoader());
                call(encoder, status, "setFieldNames", type, fieldNames.source());
            } catch (ReflectiveOperationException | LinkageError e) {
                status.addWarn("SpoolJsonEncoder: could not give LogstashEncoder the fieldNames: " + e);
            }
        } else if (!fieldNames.setNames().isEmpty()) {
            try {
                Class<?> type = Class.forName(FIELD_NAMES_CLASS, true, encoder.getClass().getClassLoader());
                Object names = type.getConstructor().newInstance();
                for (Map.Entry<String, String> e : fieldNames.setNames().entrySet()) {
                    String p = e.getKey();
                    call(names, status, "set" + p.substring(0, 1).toUpperCase(Locale.ROOT) + p.substring(1), String.class,
                            e.getValue());
                }
                call(encoder, status, "setFieldNames", type, names);
            } catch (ReflectiveOperationException | LinkageError e) {
                status.addWarn("SpoolJsonEncoder: could not give LogstashEncoder the fieldNames: " + e);
            }
        }
        if (timestampPattern != null && !timestampPattern.equals(LogstashTimestamp.DEFAULT_PATTERN)) {
            call(encoder, status, "setTimestampPattern", String.class, timestampPattern);
        }
        if (timeZone != null) {
            call(encoder, status, "setTimeZone", String.class, timeZone);
        }
        if (converter != null) {
            call(encoder, status, "setThrowableConverter", ThrowableHandlingConverter.class, converter);
        }
    }

    static void call(Object target, ContextAware status, String method, Class<?> type, Object value) {
        try {
            Method m = target.getClass().getMethod(method, type);
            m.invoke(target, value);
        } catch (InvocationTargetException e) {
            // the encoder refused the value as Spool did (pattern, zone): Spool reported it already
        } catch (ReflectiveOperationException | LinkageError e) {
            status.addWarn("SpoolJsonEncoder: could not give LogstashEncoder its " + method + ": " + e);
        }
    }
}
