package io.github.spool.logback;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code logging.structured.json.include}, {@code exclude} and {@code rename} as Spring Boot 3.5's
 * {@code StructuredLoggingJsonPropertiesJsonMembersCustomizer} applies them: to every member the
 * {@code JsonWriter} writes (fixed members, nested ones, context pairs, added ones), by its path —
 * the names as the format defines them, before any rename, joined with {@code .} — matched exactly
 * (no wildcards). A member is left out unless {@code include} is empty or names its path, and left
 * out if {@code exclude} names it; a nested member is only reached when its parent is written.
 * {@code rename} replaces the name written for a path. Read once at start; per event only map
 * look-ups of names the event already holds. Internal to the logback adapter.
 */
final class SpringMemberNames {

    /** No customisation: every member written under its own name. */
    static final SpringMemberNames NONE = new SpringMemberNames(Set.of(), Set.of(), Map.of());

    private final Set<String> include;
    private final Set<String> exclude;
    private final Map<String, String> rename;
    /*
     * The same keyed by the path without its leading "_": GELF writes a pair "k" as "_k", and the
     * writer's path looks it up by "k" without building "_k".
     */
    private final Set<String> includeUnderscored = new HashSet<>();
    private final Set<String> excludeUnderscored = new HashSet<>();
    private final Map<String, String> renameUnderscored = new HashMap<>();

    SpringMemberNames(Set<String> include, Set<String> exclude, Map<String, String> rename) {
        this.include = Set.copyOf(include);
        this.exclude = Set.copyOf(exclude);
        this.rename = Map.copyOf(rename);
        for (String p : include) {
            if (p.startsWith("_")) {
                includeUnderscored.add(p.substring(1));
            }
        }
        for (String p : exclude) {
            if (p.startsWith("_")) {
                excludeUnderscored.add(p.substring(1));
            }
        }
        rename.forEach((from, to) -> {
            if (from.startsWith("_")) {
                renameUnderscored.put(from.substring(1), to);
            }
        });
    }

    /** @return whether Spring's path filter leaves out the member at {@code path} */
    boolean filtered(String path) {
        return !include.isEmpty() && !include.contains(path) || exclude.contains(path);
    }

    /** {@link #filtered} of the path {@code "_" + key}. */
    boolean filteredUnderscored(String key) {
        return !include.isEmpty() && !includeUnderscored.contains(key) || excludeUnderscored.contains(key);
    }

    /** @return the name written for {@code path}, or {@code null} if it is not renamed */
    String renamed(String path) {
        return rename.isEmpty() ? null : rename.get(path);
    }

    /** @return whether any name is renamed */
    boolean renames() {
        return !rename.isEmpty();
    }

    /** {@link #renamed} of the path {@code "_" + key}. */
    String renamedUnderscored(String key) {
        return renameUnderscored.isEmpty() ? null : renameUnderscored.get(key);
    }

    /** @return the name written for {@code path}: renamed, or its last segment {@code name} */
    String nameOf(String path, String name) {
        String r = renamed(path);
        return r == null ? name : r;
    }

    /**
     * @return {@code "name":} as written for the member at {@code path} (last segment {@code name}),
     *         or {@code null} if it is left out
     */
    byte[] nameColon(String path, String name) {
        if (filtered(path)) {
            return null;
        }
        return SpringJsonLine.nameColon(nameOf(path, name));
    }

    /** @return whether a rename gives an empty name, which Spring's writer refuses on every line */
    boolean renamesToEmpty() {
        return rename.values().stream().anyMatch(String::isEmpty);
    }
}
