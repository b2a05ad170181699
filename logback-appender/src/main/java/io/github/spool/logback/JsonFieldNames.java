package io.github.spool.logback;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link SpoolJsonEncoder}'s {@code <fieldNames>}: the names of the fields of the
 * {@value SpoolJsonEncoder#LOGSTASH_LOGBACK_ENCODER} format, with the element names and defaults
 * of logstash-logback-encoder's {@code LogstashFieldNames}, so that a {@code LogstashEncoder}'s
 * {@code <fieldNames>} block configures this one unchanged:
 *
 * <pre>{@code
 * <fieldNames>
 *   <timestamp>time</timestamp>
 *   <version>[ignore]</version>
 *   <mdc>mdc</mdc>
 * </fieldNames>
 * }</pre>
 *
 * A name {@value #IGNORE} leaves a plain field out; {@code mdc}, {@code context},
 * {@code keyValuePair} name an object to nest those fields in (unset: top-level), as in
 * logstash-logback-encoder, where {@value #IGNORE} is then an ordinary name.
 *
 * <p>{@code net.logstash.logback.fieldnames.ShortenedFieldNames}, or any other
 * {@code LogstashFieldNames} subclass, given as {@link SpoolJsonEncoder}'s
 * {@code <fieldNamesClass>}, is read into one of these when the encoder starts ({@link #of(Object)}).
 */
public class JsonFieldNames {

    /** The name that leaves a field out, logstash-logback-encoder's {@code IGNORE_FIELD_INDICATOR}. */
    public static final String IGNORE = "[ignore]";

    /** The names set, by property name, in the order set. */
    private final Map<String, String> set = new LinkedHashMap<>();

    /** Creates the default names. */
    public JsonFieldNames() {
        // defaults: see get()
    }

    /** @param name the field name of the event's time; default {@code @timestamp} */
    public void setTimestamp(String name) {
        set.put("timestamp", name);
    }

    /** @param name the field name of the version, {@code "1"}; default {@code @version} */
    public void setVersion(String name) {
        set.put("version", name);
    }

    /** @param name the field name of the formatted message; default {@code message} */
    public void setMessage(String name) {
        set.put("message", name);
    }

    /** @param name the field name of the logger's name; default {@code logger_name} */
    public void setLogger(String name) {
        set.put("logger", name);
    }

    /** @param name the field name of the thread's name; default {@code thread_name} */
    public void setThread(String name) {
        set.put("thread", name);
    }

    /** @param name the field name of the level's name; default {@code level} */
    public void setLevel(String name) {
        set.put("level", name);
    }

    /** @param name the field name of the level's number; default {@code level_value} */
    public void setLevelValue(String name) {
        set.put("levelValue", name);
    }

    /** @param name the field name of the throwable's stack trace; default {@code stack_trace} */
    public void setStackTrace(String name) {
        set.put("stackTrace", name);
    }

    /** @param name the field name of the marker names; default {@code tags} */
    public void setTags(String name) {
        set.put("tags", name);
    }

    /** @param name the field name of an object holding the MDC entries ({@code null}: they are top-level fields); default unset */
    public void setMdc(String name) {
        set.put("mdc", name);
    }

    /** @param name the field name of an object holding the logger context's properties ({@code null}: top-level fields); default unset */
    public void setContext(String name) {
        set.put("context", name);
    }

    /** @param name the field name of an object holding the key-value pairs ({@code null}: top-level fields); default unset */
    public void setKeyValuePair(String name) {
        set.put("keyValuePair", name);
    }

    /** @param name the field name of an object holding structured arguments (rendered by {@code LogstashEncoder} itself); default unset */
    public void setArguments(String name) {
        set.put("arguments", name);
    }

    /** @param name the field name of caller data (not written: {@code LogstashEncoder} includes none by default); default unset */
    public void setCaller(String name) {
        set.put("caller", name);
    }

    /** @param name the field name of caller data's class (not written, as above); default {@code caller_class_name} */
    public void setCallerClass(String name) {
        set.put("callerClass", name);
    }

    /** @param name the field name of caller data's method (not written, as above); default {@code caller_method_name} */
    public void setCallerMethod(String name) {
        set.put("callerMethod", name);
    }

    /** @param name the field name of caller data's file (not written, as above); default {@code caller_file_name} */
    public void setCallerFile(String name) {
        set.put("callerFile", name);
    }

    /** @param name the field name of caller data's line (not written, as above); default {@code caller_line_number} */
    public void setCallerLine(String name) {
        set.put("callerLine", name);
    }

    /** The properties a {@code LogstashFieldNames} has that this class renders, by getter. */
    private static final String[] PROPERTIES = {"timestamp", "version", "message", "logger", "thread", "level",
        "levelValue", "stackTrace", "tags", "mdc", "context", "keyValuePair", "arguments", "caller", "callerClass",
        "callerMethod", "callerFile", "callerLine"};

    /** The {@code LogstashFieldNames} these names were read from, given as it is to the real encoder. */
    private Object source;

    /**
     * Reads a logstash-logback-encoder {@code LogstashFieldNames} (such as
     * {@code ShortenedFieldNames}, or a user's subclass) once: each name its getter gives that
     * differs from {@code LogstashFieldNames}' own default is set here, as if given as an element.
     *
     * @param fieldNames a {@code LogstashFieldNames}
     * @return the names
     * @throws ReflectiveOperationException if it is not one, or cannot be read
     */
    static JsonFieldNames of(Object fieldNames) throws ReflectiveOperationException {
        Class<?> base = Class.forName(LogstashSettingsForwarder.FIELD_NAMES_CLASS, true,
                fieldNames.getClass().getClassLoader());
        if (!base.isInstance(fieldNames)) {
            throw new ClassCastException(fieldNames.getClass().getName() + " is not a " + base.getName());
        }
        Object defaults = base.getConstructor().newInstance();
        JsonFieldNames names = new JsonFieldNames();
        for (String p : PROPERTIES) {
            java.lang.reflect.Method getter = base.getMethod("get" + Character.toUpperCase(p.charAt(0)) + p.substring(1));
            Object value = getter.invoke(fieldNames);
            if (!java.util.Objects.equals(value, getter.invoke(defaults))) {
                names.set.put(p, (String) value);
            }
        }
        names.source = fieldNames;
        return names;
    }

    /** @return the {@code LogstashFieldNames} read by {@link #of}, or {@code null} */
    Object source() {
        return source;
    }

    /**
     * @param property a property name such as {@code levelValue}
     * @param byDefault its default name
     * @return the name set, or {@code byDefault}
     */
    String get(String property, String byDefault) {
        return set.containsKey(property) ? set.get(property) : byDefault;
    }

    /** @return the names set, by property name */
    Map<String, String> setNames() {
        return Collections.unmodifiableMap(set);
    }
}
