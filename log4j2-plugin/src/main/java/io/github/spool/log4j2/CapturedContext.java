package io.github.spool.log4j2;

import java.util.Arrays;
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
 * record after record; a linear scan finds a key (the few keys a pattern prints). Internal API.
 */
final class CapturedContext implements ReadOnlyStringMap {

    private static final long serialVersionUID = 1L;

    private String[] keys = new String[8];
    private transient Object[] values = new Object[8];
    private int size;

    /** Empties the map (it keeps no value of an earlier record). */
    void clear() {
        Arrays.fill(values, 0, size, null);
        size = 0;
    }

    /** Appends an entry; the caller's map held each key once. */
    void add(String key, Object value) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        keys[size] = key;
        values[size] = value;
        size++;
    }

    @Override
    public Map<String, String> toMap() {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < size; i++) {
            map.put(keys[i], values[i] == null ? null : values[i].toString());
        }
        return map;
    }

    @Override
    public boolean containsKey(String key) {
        return indexOf(key) >= 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> void forEach(BiConsumer<String, ? super V> action) {
        for (int i = 0; i < size; i++) {
            action.accept(keys[i], (V) values[i]);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V, S> void forEach(TriConsumer<String, ? super V, S> action, S state) {
        for (int i = 0; i < size; i++) {
            action.accept(keys[i], (V) values[i], state);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> V getValue(String key) {
        int i = indexOf(key);
        return i < 0 ? null : (V) values[i];
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public int size() {
        return size;
    }

    private int indexOf(String key) {
        for (int i = 0; i < size; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }
}
