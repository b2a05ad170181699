package io.github.spool.logback;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The writer thread's MDC map: the entries a captured record carries, iterated in the order the
 * caller's map iterated them — the order {@code %X} prints them in, which for logback's
 * {@code HashMap} depends on its history, not only on its keys. Read-only for the converters;
 * refilled record after record by {@link WriterRenderer}. Internal to the logback adapter.
 */
final class CapturedMdc extends AbstractMap<String, String> {

    private String[] keys = new String[8];
    private String[] values = new String[8];
    private int size;

    private final Set<Entry<String, String>> entries = new AbstractSet<>() {
        @Override
        public Iterator<Entry<String, String>> iterator() {
            return new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < size;
                }

                @Override
                public Entry<String, String> next() {
                    if (next >= size) {
                        throw new NoSuchElementException();
                    }
                    int i = next++;
                    return new SimpleImmutableEntry<>(keys[i], values[i]);
                }
            };
        }

        @Override
        public int size() {
            return size;
        }
    };

    /** Empties the map (it keeps no value of an earlier record). */
    @Override
    public void clear() {
        Arrays.fill(values, 0, size, null);
        size = 0;
    }

    /** Appends an entry; the caller's map held each key once. */
    void add(String key, String value) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        keys[size] = key;
        values[size] = value;
        size++;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return entries;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String get(Object key) {
        for (int i = 0; i < size; i++) {
            if (keys[i].equals(key)) {
                return values[i];
            }
        }
        return null;
    }

    @Override
    public boolean containsKey(Object key) {
        for (int i = 0; i < size; i++) {
            if (keys[i].equals(key)) {
                return true;
            }
        }
        return false;
    }
}
