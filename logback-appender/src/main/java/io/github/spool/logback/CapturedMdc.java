package io.github.spool.logback;

import io.github.spool.text.CapturedEntries;
import java.util.AbstractMap;
import java.util.AbstractSet;
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

    private final CapturedEntries<String> stored = new CapturedEntries<>();

    private final Set<Entry<String, String>> entries = new AbstractSet<>() {
        @Override
        public Iterator<Entry<String, String>> iterator() {
            return new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < stored.size();
                }

                @Override
                public Entry<String, String> next() {
                    if (next >= stored.size()) {
                        throw new NoSuchElementException();
                    }
                    int i = next++;
                    return new SimpleImmutableEntry<>(stored.key(i), stored.value(i));
                }
            };
        }

        @Override
        public int size() {
            return stored.size();
        }
    };

    /** Empties the map (it keeps no value of an earlier record). */
    @Override
    public void clear() {
        stored.clear();
    }

    /** Appends an entry; the caller's map held each key once. */
    void add(String key, String value) {
        stored.add(key, value);
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return entries;
    }

    @Override
    public int size() {
        return stored.size();
    }

    @Override
    public String get(Object key) {
        int i = stored.indexOf(key);
        return i < 0 ? null : stored.value(i);
    }

    @Override
    public boolean containsKey(Object key) {
        return stored.indexOf(key) >= 0;
    }

    /** @return the key of entry {@code i}, in capture order; lets a renderer walk the map without an iterator */
    String keyAt(int i) {
        return stored.key(i);
    }

    /** @return the value of entry {@code i} */
    String valueAt(int i) {
        return stored.value(i);
    }
}
