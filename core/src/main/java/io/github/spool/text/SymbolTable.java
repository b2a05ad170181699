package io.github.spool.text;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Small integer ids for the strings a captured record names instead of carrying (thread and logger
 * names, message formats, level names): the producer writes the id into the ring, the writer reads
 * the string back by id. Ids are never reused or removed; the table is bounded like {@link
 * NameCache} ({@link #LIMIT} strings, {@link #CHAR_BUDGET} chars), and past the bound {@link #idOf}
 * answers {@code -1} and the producer renders the event itself.
 *
 * <p>Memory ordering: a thread obtains an id either by registering it (program order after the
 * entry's store and the volatile publication of {@link #names}) or from {@link #ids} (the map's
 * put happens-before its get, and the registering thread put the id after publishing). It then
 * commits its record with a release store, and the writer reads {@link #names} with a volatile
 * load after its acquire load of that commit: it sees the array published at registration or a
 * later one, which was copied from it under the lock and so holds the entry too. Callers must not
 * take ids from a racy cache shared between threads (a thread-confined cache is fine: its entries
 * came from this table on the same thread).
 */
public final class SymbolTable {

    /** Most strings a table holds. */
    public static final int LIMIT = NameCache.LIMIT;
    /** Sum of the strings' lengths (in chars) beyond which nothing more is registered. */
    public static final long CHAR_BUDGET = NameCache.CHAR_BUDGET;

    private final ConcurrentHashMap<String, Integer> ids = new ConcurrentHashMap<>();
    /** Entry {@code i} is the string of id {@code i}; replaced by a larger copy when full. */
    private volatile String[] names = new String[64];
    /** Guarded by {@code this}. */
    private int size;
    /** Guarded by {@code this}. */
    private long chars;

    /**
     * @param s a string, not {@code null}
     * @return its id, or {@code -1} when the table is full
     */
    public int idOf(String s) {
        Integer id = ids.get(s);
        return id != null ? id : register(s);
    }

    private synchronized int register(String s) {
        Integer id = ids.get(s);
        if (id != null) {
            return id;
        }
        if (size >= LIMIT || chars + s.length() > CHAR_BUDGET) {
            return -1;
        }
        String[] a = names;
        if (size == a.length) {
            a = Arrays.copyOf(a, size * 2);
        }
        a[size] = s;
        names = a; // volatile store: publishes the entry (and a grown array) before the id escapes
        ids.put(s, size);
        chars += s.length();
        return size++;
    }

    /**
     * @param id an id this table returned, read after the record carrying it was acquired
     * @return its string
     */
    public String name(int id) {
        return names[id];
    }

    /** @return how many strings the table holds */
    public synchronized int size() {
        return size;
    }
}
