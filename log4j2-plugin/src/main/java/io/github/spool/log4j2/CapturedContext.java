package io.github.spool.log4j2;

import io.github.spool.text.CapturedEntries;
import java.util.HashMap;
import java.util.Map;
import org.apache.logging.log4j.util.BiConsumer;
import org.apache.logging.log4j.util.ReadOnlyStringMap;
import org.apache.logging.log4j.util.TriConsumer;

/**
 * The writer thread's context map: the entries a captured record carries, in the order the
 * caller's map visited them — so {@code %X} prints them in that order whatever map the event had
 * (log4j2's is sorted by key; a custom {@code ContextDataInjector} may use another). Values are
 * what {@link WriterRenderer} read: {@code null}, boxed primitives or {@link CapturedText}, which
 * {@code StringBuilders.appendValue} appends as the chars of the value that was captured. Reused
 * record after record. Internal API.
 */
final class CapturedContext implements ReadOnlyStringMap {

    private static final long serialVersionUID = 1L;

    private final transient CapturedEntries<Object> entries = new CapturedEntries<>();

    /** Empties the map (it keeps no value of an earlier record). */
    void clear() {
        entries.clear();
    }

    /** Appends an entry; the caller's map held each key once. */
    void add(String key, Object value) {
        entries.add(key, value);
    }

    @Override
    public Map<String, String> toMap() {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            Object value = entries.value(i);
            map.put(entries.key(i), value == null ? null : value.toString());
        }
        return map;
    }

    @Override
    public boolean containsKey(String key) {
        return entries.indexOf(key) >= 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> void forEach(BiConsumer<String, ? super V> action) {
        for (int i = 0; i < entries.size(); i++) {
            action.accept(entries.key(i), (V) entries.value(i));
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V, S> void forEach(TriConsumer<String, ? super V, S> action, S state) {
        for (int i = 0; i < entries.size(); i++) {
            action.accept(entries.key(i), (V) entries.value(i), state);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> V getValue(String key) {
        int i = entries.indexOf(key);
        return i < 0 ? null : (V) entries.value(i);
    }

    @Override
    public boolean isEmpty() {
        return entries.size() == 0;
    }

    @Override
    public int size() {
        return entries.size();
    }
}
