package io.github.spool.text;

/**
 * One thread's ids from a {@link SymbolTable}: direct-mapped by the strings' (cached) hash codes,
 * compared by identity, so a name logged again costs a load and a compare. Thread-confined:
 * entries come from the table on the owning thread, which keeps the table's ordering argument for
 * the ids it hands out. A miss, or a string that is equal but not the same object, goes to the
 * table.
 */
public final class SymbolCache {

    private final SymbolTable table;
    private final String[] names;
    private final int[] ids;
    private final int mask;

    /**
     * @param table the table the ids come from
     * @param slots a power of two
     */
    public SymbolCache(SymbolTable table, int slots) {
        if (Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two: " + slots);
        }
        this.table = table;
        this.names = new String[slots];
        this.ids = new int[slots];
        this.mask = slots - 1;
    }

    /**
     * @param s a string, not {@code null}
     * @return its id, or {@code -1} when the table is full
     */
    public int idOf(String s) {
        int slot = s.hashCode() & mask;
        if (names[slot] == s) {
            return ids[slot];
        }
        int id = table.idOf(s);
        if (id >= 0) {
            names[slot] = s;
            ids[slot] = id;
        }
        return id;
    }
}
