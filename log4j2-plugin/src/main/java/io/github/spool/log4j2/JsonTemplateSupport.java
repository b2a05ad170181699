package io.github.spool.log4j2;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.logging.log4j.layout.template.json.JsonTemplateLayout.EventTemplateAdditionalField;
import org.apache.logging.log4j.layout.template.json.util.JsonReader;

/**
 * Decides from an event template whether {@link SpoolJsonTemplateLayout} can render it on the
 * writer: whether each resolver reads only what a captured record carries (instant, level, logger
 * and thread name, the message, the context map) or what {@link SpoolJsonTemplateLayout#capturable}
 * keeps off the record (an exception, a marker, a context stack, a map message — the caller renders
 * such events, and for every other event these resolvers print what they print for none). Internal
 * API.
 */
final class JsonTemplateSupport {

    /** Lookup prefixes whose value does not depend on the event (a per-event string substitution). */
    private static final Set<String> EVENTLESS_LOOKUPS = Set.of("env", "sys", "java", "main");

    /** What the analysis found. */
    static final class Verdict {
        /** {@code null} when the writer renders the template, else the first reason it cannot. */
        final String unsupported;
        /** Whether the template prints the context map ({@code mdc}): the capture then copies it whole. */
        final boolean context;

        Verdict(String unsupported, boolean context) {
            this.unsupported = unsupported;
            this.context = context;
        }
    }

    private String unsupported;
    private boolean context;
    private final boolean locationInfoEnabled;

    private JsonTemplateSupport(boolean locationInfoEnabled) {
        this.locationInfoEnabled = locationInfoEnabled;
    }

    /**
     * @param eventTemplate       the event template's JSON
     * @param additionalFields    the {@code EventTemplateAdditionalField}s, or {@code null}
     * @param locationInfoEnabled the layout's setting (the {@code source} resolver prints nothing without it)
     * @return the verdict
     */
    static Verdict analyse(String eventTemplate, EventTemplateAdditionalField[] additionalFields,
            boolean locationInfoEnabled) {
        JsonTemplateSupport s = new JsonTemplateSupport(locationInfoEnabled);
        try {
            s.walk(JsonReader.read(eventTemplate));
            if (additionalFields != null) {
                for (EventTemplateAdditionalField f : additionalFields) {
                    if (f.getFormat() == EventTemplateAdditionalField.Format.JSON) {
                        s.walk(JsonReader.read(f.getValue()));
                    } else {
                        s.string(f.getValue());
                    }
                }
            }
        } catch (RuntimeException e) {
            s.refuse("a template this analysis cannot read (" + e.getMessage() + ")");
        }
        return new Verdict(s.unsupported, s.context);
    }

    private void refuse(String reason) {
        if (unsupported == null) {
            unsupported = reason;
        }
    }

    private void walk(Object node) {
        if (node instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) node;
            Object resolver = map.get("$resolver");
            if (resolver != null) {
                resolver(String.valueOf(resolver), map);
                return;
            }
            for (Object value : map.values()) {
                walk(value);
            }
        } else if (node instanceof List) {
            for (Object item : (List<?>) node) {
                walk(item);
            }
        } else if (node instanceof String) {
            string((String) node);
        }
    }

    private void resolver(String name, Map<?, ?> config) {
        Object field = config.get("field");
        switch (name) {
            case "timestamp":
            case "level":
            case "message":
            case "main":
            case "exception":
            case "exceptionRootCause":
            case "marker":
            case "ndc":
            case "map":
                return;
            case "mdc":
                context = true;
                return;
            case "logger":
            case "thread":
                if (field != null && !"name".equals(field)) {
                    refuse("resolver '" + name + "' with field '" + field + "'");
                }
                return;
            case "source":
                if (locationInfoEnabled) {
                    refuse("resolver 'source' with locationInfoEnabled=\"true\"");
                }
                return;
            case "caseConverter":
                walk(config.get("input"));
                return;
            default: // counter, endOfBatch, messageParameter, pattern, a plugin's own
                refuse("resolver '" + name + "'");
        }
    }

    /** A string with a {@code ${...}} lookup is substituted per event; only event-independent ones are kept. */
    private void string(String s) {
        for (int at = s.indexOf("${"); at >= 0; at = s.indexOf("${", at + 2)) {
            int end = s.indexOf('}', at);
            String lookup = end < 0 ? s.substring(at + 2) : s.substring(at + 2, end);
            int colon = lookup.indexOf(':');
            if (colon >= 0 && !EVENTLESS_LOOKUPS.contains(lookup.substring(0, colon))) {
                refuse("lookup '${" + lookup + "}'");
            }
        }
    }
}
