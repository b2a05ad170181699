package io.github.spool.text;

import java.util.Arrays;

/**
 * The context entries of one captured record, on the writer thread, in the order the caller's map
 * visited them: the storage behind each adapter's read-only view (log4j2's {@code ReadOnlyStringMap},
 * logback's MDC {@code Map}), refilled record after record. A linear scan finds a key: a pattern
 * prints a few. Not thread-safe; internal API.
 *
 * @param <V> the values' type
 */
public final class CapturedEntries<V> {

    private String[] keys = new String[8];
    private Object[] values = new Object[8];
    private int size;

    /** Empties the entries; no value of an earlier record stays reachable. */
    public void clear() {
        Arrays.fill(values, 0, size, null);
        size = 0;
    }

    /**
     * Appends an entry; the caller's map held each key once.
     *
     * @param key   the key
     * @param value the value, may be {@code null}
     */
    public void add(String key, V value) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        keys[size] = key;
        values[size] = value;
        size++;
    }

    /** @return the number of entries */
    public int size() {
        return size;
    }

    /**
     * @param i an index below {@link #size()}
     * @return the key of the i-th entry
     */
    public String key(int i) {
        return keys[i];
    }

    /**
     * @param i an index below {@link #size()}
     * @return the value of the i-th entry
     */
    @SuppressWarnings("unchecked")
    public V value(int i) {
        return (V) values[i];
    }

    /**
     * @param key a key, may be any object (a {@code Map}'s lookups take one)
     * @return the index of the entry with that key, or -1
     */
    public int indexOf(Object key) {
        for (int i = 0; i < size; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }
}
