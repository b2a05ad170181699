package io.github.spool.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The writer's context entries: kept in the order added, found by key, emptied between records. */
class CapturedEntriesTest {

    @Test
    void keepsTheOrderTheEntriesCameInBeyondTheInitialCapacity() {
        CapturedEntries<String> entries = new CapturedEntries<>();
        List<String> keys = new ArrayList<>();
        for (int i = 20; i > 0; i--) { // descending: an order no sorted map would give
            entries.add("k" + i, i % 5 == 0 ? null : "v" + i);
            keys.add("k" + i);
        }
        assertEquals(20, entries.size());
        for (int i = 0; i < entries.size(); i++) {
            assertEquals(keys.get(i), entries.key(i));
            assertEquals(i, entries.indexOf(keys.get(i)));
        }
        assertEquals("v19", entries.value(entries.indexOf("k19")));
        assertNull(entries.value(entries.indexOf("k15")));
        assertEquals(-1, entries.indexOf("k21"));
        assertEquals(-1, entries.indexOf(21)); // a Map lookup may pass any object
    }

    @Test
    void clearedEntriesHoldNothingOfTheRecordBefore() {
        CapturedEntries<Object> entries = new CapturedEntries<>();
        entries.add("a", 1);
        entries.add("b", 2);
        entries.clear();
        assertEquals(0, entries.size());
        assertEquals(-1, entries.indexOf("a"));
        entries.add("c", 3);
        assertEquals(1, entries.size());
        assertEquals("c", entries.key(0));
        assertEquals(3, entries.value(0));
    }
}
