package io.github.spool.text;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Rendered, encoded names (thread and logger names) by raw name, for layouts that write the same
 * few names event after event: a hit costs an identity hash, one load and one compare, and no
 * allocation. Both adapters' name conversions use it.
 *
 * <p>Bounded in entries and in size: past {@link #LIMIT} names, or once the cached names add up to
 * {@link #CHAR_BUDGET} chars, {@link #get} returns {@code null} for new names and the caller
 * renders them each time, as logback's {@code NamedConverter} gives up its cache when the miss rate
 * is high. The size bound matters for hostile names: 4,096 distinct 4 KiB thread or logger names
 * would otherwise pin about 30 MiB per conversion (measured: 86 MB retained for one pattern with
 * {@code %thread}, {@code %logger} and {@code %logger{5}} in logback's {@code HostileInputTest}).
 *
 * <p>Thread safety: {@link #recent} is a front of the map for the names in use right now. Its
 * entries are immutable and stored with plain writes: a racing reader sees {@code null}, an older
 * entry or a complete one (final fields), and checks the name before using it. A name's value is
 * computed at most a few times when threads race on its first sighting; the map keeps one.
 *
 * @param <V> the cached form of a name (encoded bytes, or an adapter's richer type)
 */
public final class NameCache<V> {

    /** Most names cached. */
    public static final int LIMIT = 4096;
    /** Sum of the cached names' lengths (keys, in chars) beyond which nothing more is cached. */
    public static final long CHAR_BUDGET = 256 * 1024;
    /** Names seen last, by identity hash. */
    static final int RECENT = 64;

    private final ConcurrentHashMap<String, Entry<V>> cache = new ConcurrentHashMap<>();
    @SuppressWarnings("unchecked")
    private final Entry<V>[] recent = (Entry<V>[]) new Entry<?>[RECENT];
    /** Chars of the cached keys; updated on misses only, so racing misses may overshoot a little. */
    private final AtomicLong cachedChars = new AtomicLong();
    private final Function<String, V> render;

    /**
     * @param render the cached form of a name, or {@code null} for a name that must be rendered
     *               each time (its form depends on its neighbours in the line); called on misses only
     */
    public NameCache(Function<String, V> render) {
        this.render = render;
    }

    /**
     * @param name a raw name, not {@code null}
     * @return its cached form, or {@code null} when the caller must render it itself (the cache is
     *         full, or {@code render} declined the name)
     */
    public V get(String name) {
        int slot = System.identityHashCode(name) & (RECENT - 1);
        Entry<V> e = recent[slot];
        if (e == null || e.name != name) {
            e = cache.get(name);
            if (e == null) {
                if (cache.size() >= LIMIT || cachedChars.get() + name.length() > CHAR_BUDGET) {
                    return null;
                }
                V value = render.apply(name);
                if (value == null) {
                    return null;
                }
                Entry<V> fresh = new Entry<>(name, value);
                e = cache.putIfAbsent(name, fresh);
                if (e == null) {
                    e = fresh;
                    cachedChars.addAndGet(name.length());
                }
            }
            recent[slot] = e;
        }
        return e.value;
    }

    /** A raw name and its cached form. Immutable. */
    private static final class Entry<V> {
        final String name;
        final V value;

        Entry(String name, V value) {
            this.name = name;
            this.value = value;
        }
    }
}
