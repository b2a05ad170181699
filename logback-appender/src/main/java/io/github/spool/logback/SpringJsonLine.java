package io.github.spool.logback;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.event.KeyValuePair;

/**
 * What Spring Boot 3.5's structured logging formats for logback share, as its
 * {@code JsonWriter} writes them with default {@code logging.structured.json.*} settings: strings
 * escaped by {@link SpringJsonEscape}, {@code null} values written as {@code null}, the context
 * pairs (MDC entries, then key-value pairs) after the fixed members, the stack trace as logback's
 * {@code %ex} ({@code ThrowableProxyConverter}, what Spring's {@code Extractor} uses without a
 * stack trace printer), and {@code \n} at the end whatever the platform.
 *
 * <p>Where Spring's {@code JsonWriter} would throw (a pair named like a member, two pairs with one
 * name), or where the value is one this class does not write as Spring does (a key-value pair
 * whose value is not a string, number or boolean; for ECS a name that nests), {@link #render}
 * returns {@code false} and the caller uses Spring's own formatter, which then does exactly what
 * it does (writes, or throws).
 *
 * <p>Allocation-free for an event with MDC entries and no key-value pairs, with an empty
 * {@code context.prefix}. Used by logging threads and the writer at once. Internal.
 */
abstract class SpringJsonLine implements JsonLine {

    static final byte[] NULL = ascii("null");
    /** The name before a value whose name {@link #member} wrote. */
    static final byte[] NOTHING = new byte[0];

    final SpringSettings settings;
    /** Spring's {@code StructuredLogEncoder} makes its converter without a context; so does this. */
    private final ThrowableProxyConverter throwableConverter = new ThrowableProxyConverter();
    /**
     * The top-level names as written (renamed, left-out ones not there, added ones there): what a
     * pair must not be named (Spring's writer throws on a repeated name).
     */
    private final Set<String> members = new HashSet<>();
    /** {@code logging.structured.json.add}, rendered once: {@code "name":"value",...}, possibly empty. */
    private final byte[] adds;
    /** Whether the customisation can be rendered: no added name collides, no name renamed to nothing. */
    private final boolean customisable;

    /**
     * @param members the format's top-level member names (paths)
     * @param nestedAdd whether {@code add} names nest at dots (ECS), as Spring's customizer builder says
     */
    SpringJsonLine(SpringSettings settings, Set<String> members, boolean nestedAdd) {
        this.settings = settings;
        SpringMemberNames names = settings.names;
        for (String m : members) {
            if (!names.filtered(m)) {
                this.members.add(names.nameOf(m, m));
            }
        }
        ByteLineBuilder a = new ByteLineBuilder(64);
        boolean ok = !names.renamesToEmpty()
                && (nestedAdd ? nestedAdds(a, settings, this.members) : flatAdds(a, settings, this.members));
        this.adds = java.util.Arrays.copyOf(a.array(), a.length());
        this.customisable = ok;
        throwableConverter.start();
    }

    /**
     * Spring's {@code members.add(name, value)} per entry: a top-level string member each.
     *
     * @param written the top-level names written so far; the added ones join them
     */
    private static boolean flatAdds(ByteLineBuilder out, SpringSettings settings, Set<String> written) {
        for (Map.Entry<String, String> e : settings.add.entrySet()) {
            if (settings.names.filtered(e.getKey())) {
                continue;
            }
            String name = settings.names.nameOf(e.getKey(), e.getKey());
            if (!written.add(name)) {
                return false; // Spring's writer throws on every line
            }
            addMember(out, name, e.getValue());
        }
        return true;
    }

    /**
     * Spring's nested {@code ContextPairs} of the entries (names split at dots into objects, each
     * object's names in first-seen order), then written with the path filter and renames.
     */
    private static boolean nestedAdds(ByteLineBuilder out, SpringSettings settings, Set<String> written) {
        Map<String, Object> tree = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, String> e : settings.add.entrySet()) {
            String name = e.getKey();
            if (name.isEmpty()) {
                continue; // Spring's joiner drops an empty name
            }
            String[] parts = name.split("\\.");
            if (parts.length == 0 || name.startsWith(".") || name.endsWith(".") || name.contains("..")) {
                return false; // empty segments: left to Spring
            }
            Map<String, Object> into = tree;
            for (int i = 0; i < parts.length - 1; i++) {
                Object existing = into.computeIfAbsent(parts[i], k -> new java.util.LinkedHashMap<String, Object>());
                if (!(existing instanceof Map)) {
                    return false; // Spring throws: duplicate nested pairs
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> next = (Map<String, Object>) existing;
                into = next;
            }
            if (into.put(parts[parts.length - 1], e.getValue()) != null) {
                return false;
            }
        }
        return nestedMembers(out, settings.names, "", tree, written);
    }

    private static boolean nestedMembers(ByteLineBuilder out, SpringMemberNames names, String parent,
            Map<String, Object> tree, Set<String> written) {
        for (Map.Entry<String, Object> e : tree.entrySet()) {
            String path = parent.isEmpty() ? e.getKey() : parent + "." + e.getKey();
            if (names.filtered(path)) {
                continue;
            }
            String name = names.nameOf(path, e.getKey());
            if (!written.add(name)) {
                return false;
            }
            if (e.getValue() instanceof String) {
                addMember(out, name, (String) e.getValue());
            } else {
                comma(out);
                SpringJsonEscape.appendQuoted(out, name);
                out.append((byte) ':').append((byte) '{');
                @SuppressWarnings("unchecked")
                Map<String, Object> child = (Map<String, Object>) e.getValue();
                if (!nestedMembers(out, names, path, child, new HashSet<>())) {
                    return false;
                }
                out.append((byte) '}');
            }
        }
        return true;
    }

    private static void addMember(ByteLineBuilder out, String name, String value) {
        comma(out);
        SpringJsonEscape.appendQuoted(out, name);
        out.append((byte) ':');
        SpringJsonEscape.appendQuoted(out, value);
    }

    /**
     * @return whether this renderer writes the customisation: otherwise Spring's writer throws on
     *         every line (a name written twice, a name renamed to nothing), and Spring's encoder does
     */
    final boolean customisable() {
        return customisable;
    }

    /** Appends the {@code add} members, after the format's own. */
    final void adds(ByteLineBuilder out) {
        if (adds.length > 0) {
            comma(out);
            out.append(adds, 0, adds.length);
        }
    }

    /** The member's {@code "name":} for {@link #member}: renamed, or {@code null} if left out. */
    final byte[] name(String path, String name) {
        return settings.names.nameColon(path, name);
    }

    /** {@code "name":}, escaped. */
    static byte[] nameColon(String name) {
        ByteLineBuilder b = new ByteLineBuilder(32);
        SpringJsonEscape.appendQuoted(b, name);
        b.append((byte) ':');
        return java.util.Arrays.copyOf(b.array(), b.length());
    }

    /**
     * Starts a member: the comma unless it is the first of its object, then its name.
     *
     * @param nameColon from {@link #name}
     * @return {@code false}, writing nothing, if the member is left out
     */
    static boolean member(ByteLineBuilder out, byte[] nameColon) {
        if (nameColon == null) {
            return false;
        }
        comma(out);
        out.append(nameColon, 0, nameColon.length);
        return true;
    }

    /**
     * A comma unless the last byte opens an object or array: members left out leave no state to
     * keep, so the line itself says whether one was written (a value never ends with an opening).
     */
    static void comma(ByteLineBuilder out) {
        int n = out.length();
        if (n > 0) {
            byte last = out.array()[n - 1];
            if (last != '{' && last != '[') {
                out.append((byte) ',');
            }
        }
    }

    @Override
    public void stop() {
        throwableConverter.stop();
    }

    /** @return the event's instant: a {@link CapturedEvent}'s from its two fields, without an object */
    static long epochSecond(ILoggingEvent event) {
        if (event.getClass() == CapturedEvent.class) {
            return Math.floorDiv(event.getTimeStamp(), 1000L);
        }
        return event.getInstant().getEpochSecond();
    }

    static int nanos(ILoggingEvent event) {
        if (event.getClass() == CapturedEvent.class) {
            return event.getNanoseconds();
        }
        Instant instant = event.getInstant();
        return instant.getNano();
    }

    /** {@code %ex} of the event's throwable, as Spring's {@code Extractor.stackTrace}. */
    final String stackTrace(ILoggingEvent event) {
        return throwableConverter.convert(event);
    }

    /** Writes {@code "name":} (name given with its quotes and colon) then the string or {@code null}. */
    static void string(ByteLineBuilder out, byte[] nameColon, String value) {
        out.append(nameColon, 0, nameColon.length);
        if (value == null) {
            out.append(NULL, 0, NULL.length);
        } else {
            SpringJsonEscape.appendQuoted(out, value);
        }
    }

    /** The markers' names as a JSON array. */
    static void tags(ByteLineBuilder out, Iterable<String> names) {
        out.append((byte) '[');
        for (String name : names) {
            comma(out);
            SpringJsonEscape.appendQuoted(out, name);
        }
        out.append((byte) ']');
    }

    /** The message as Spring writes {@code getFormattedMessage()}: escaped, or {@code null}. */
    static void message(ByteLineBuilder out, byte[] nameColon, ILoggingEvent event) {
        out.append(nameColon, 0, nameColon.length);
        out.append((byte) '"');
        if (!JsonMessage.append(event, out, true)) {
            out.setLength(out.length() - 1);
            out.append(NULL, 0, NULL.length);
        } else {
            out.append((byte) '"');
        }
    }

    /**
     * Writes the context pairs: MDC entries then key-value pairs, each {@code ,"name":value}.
     *
     * @return {@code false} if Spring's writer would not write them so (see the class comment)
     */
    final boolean pairs(ILoggingEvent event, ByteLineBuilder out) {
        if (!settings.contextInclude) {
            return true;
        }
        Map<String, String> mdc = event.getMDCPropertyMap();
        List<KeyValuePair> kvps = event.getKeyValuePairs();
        boolean noKvps = kvps == null || kvps.isEmpty();
        if (noKvps && settings.contextPrefix.isEmpty() && mdc instanceof CapturedMdc) {
            return capturedPairs((CapturedMdc) mdc, out); // the writer's path: no map, no set
        }
        Set<String> names = new HashSet<>();
        if (mdc != null) {
            for (Map.Entry<String, String> e : mdc.entrySet()) {
                if (!pair(out, e.getKey(), e.getValue(), names)) {
                    return false;
                }
            }
        }
        if (!noKvps) {
            for (KeyValuePair p : kvps) {
                Object v = p.value;
                if (v != null && !(v instanceof String) && !(v instanceof Number) && !(v instanceof Boolean)) {
                    return false; // maps, iterables, arrays, WritableJson: Spring's writer structures them
                }
                if (!pair(out, p.key, v, names)) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean capturedPairs(CapturedMdc mdc, ByteLineBuilder out) {
        SpringMemberNames names = settings.names;
        for (int i = 0, n = mdc.size(); i < n; i++) {
            String key = mdc.keyAt(i);
            String name = key == null ? "" : key;
            int kind = fastName(name);
            if (kind == FAIL) {
                return false;
            }
            if (kind == SKIP) {
                continue;
            }
            boolean underscore = kind == DIFFERENT;
            if (underscore ? names.filteredUnderscored(name) : names.filtered(name)) {
                continue;
            }
            String renamed = underscore ? names.renamedUnderscored(name) : names.renamed(name);
            if (renamed != null) {
                if (isMember(renamed)) {
                    return false;
                }
                underscore = false;
                name = renamed;
            }
            // without renames only "k" written as "_k" can meet another key, "_k"
            if ((underscore || names.renames()) && collidesInCaptured(mdc, i, underscore, name)) {
                return false;
            }
            comma(out);
            out.append((byte) '"');
            if (underscore) {
                out.append((byte) '_');
            }
            SpringJsonEscape.append(out, name, 0, name.length());
            out.append((byte) '"').append((byte) ':');
            value(out, mdc.valueAt(i));
        }
        return true;
    }

    /**
     * Whether another captured key is written under the same name ({@code "_"} + {@code name} if
     * {@code underscore}), so that Spring's writer would throw.
     */
    private boolean collidesInCaptured(CapturedMdc mdc, int self, boolean underscore, String name) {
        SpringMemberNames names = settings.names;
        for (int j = 0, n = mdc.size(); j < n; j++) {
            String other = mdc.keyAt(j);
            if (j == self || other == null) {
                continue;
            }
            int kind = fastName(other);
            if (kind == SKIP || kind == FAIL) {
                continue; // FAIL: that key sends the event to Spring anyway
            }
            boolean u = kind == DIFFERENT;
            if (u ? names.filteredUnderscored(other) : names.filtered(other)) {
                continue;
            }
            String renamed = u ? names.renamedUnderscored(other) : names.renamed(other);
            if (renamed != null) {
                u = false;
                other = renamed;
            }
            if (sameName(underscore, name, u, other)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code a} and {@code b}, each with {@code "_"} before it if flagged, are one name. */
    private static boolean sameName(boolean underscoreA, String a, boolean underscoreB, String b) {
        if (underscoreA == underscoreB) {
            return a.equals(b);
        }
        String shorter = underscoreA ? a : b;
        String longer = underscoreA ? b : a;
        return longer.length() == shorter.length() + 1 && longer.charAt(0) == '_'
                && longer.regionMatches(1, shorter, 0, shorter.length());
    }

    private boolean pair(ByteLineBuilder out, String key, Object value, Set<String> names) {
        String name = joinedName(key == null ? "" : key);
        if (name == null || name.isEmpty()) {
            return true; // Spring skips a pair whose joined name is empty (or invalid for GELF)
        }
        // a name met twice goes to Spring even when left out: ECS merges pairs before it filters
        if (!names.add(name) || !validName(name)) {
            return false;
        }
        SpringMemberNames customised = settings.names;
        if (customised.filtered(name)) {
            return true;
        }
        String written = customised.nameOf(name, name);
        if (members.contains(written) || !written.equals(name) && !names.add(written)) {
            return false;
        }
        comma(out);
        SpringJsonEscape.appendQuoted(out, written);
        out.append((byte) ':');
        value(out, value);
        return true;
    }

    private static void value(ByteLineBuilder out, Object value) {
        if (value == null) {
            out.append(NULL, 0, NULL.length);
        } else if (value instanceof String) {
            SpringJsonEscape.appendQuoted(out, (String) value);
        } else {
            out.append(value.toString()); // a Number or Boolean, unquoted, as Spring writes them
        }
    }

    /** {@link #fastName}: written as the key, not written, {@code _} + the key, or not this way. */
    static final int SAME = 0;
    static final int SKIP = 1;
    static final int DIFFERENT = 2;
    static final int FAIL = 3;

    /**
     * For an empty prefix: how the pair named {@code key} prints, without building its name. A
     * subclass for which the name is the key returns {@link #SAME}, {@link #SKIP} (empty) or
     * {@link #FAIL} (a member's name, or a name this class does not write).
     */
    int fastName(String key) {
        if (key.isEmpty()) {
            return SKIP;
        }
        return members.contains(key) || !validName(key) ? FAIL : SAME;
    }

    final boolean isMember(String name) {
        return members.contains(name);
    }

    /** @return the top-level names as written (see {@link #members}) */
    final Set<String> memberNames() {
        return members;
    }

    /**
     * @return the pair's name as Spring's {@code ContextPairs} joins it with the prefix, or
     *         {@code null} if it is left out
     */
    abstract String joinedName(String key);

    /** @return whether this class writes a pair of this (joined) name as Spring does */
    boolean validName(String name) {
        return true;
    }

    /** Spring's {@code ContextPairs.joinWith(delimiter)}. */
    static String joinWith(String prefix, String name, String delimiter) {
        StringBuilder joined = new StringBuilder(prefix.length() + delimiter.length() + name.length());
        joined.append(prefix);
        if (!prefix.isEmpty() && !prefix.endsWith(delimiter) && !name.startsWith(delimiter)) {
            joined.append(delimiter);
        }
        joined.append(name);
        return joined.toString();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** A fixed piece of the line (member names, settings' values) rendered once. */
    static byte[] json(String s) {
        ByteLineBuilder b = new ByteLineBuilder(64);
        SpringJsonEscape.append(b, s, 0, s.length());
        return java.util.Arrays.copyOf(b.array(), b.length());
    }
}
