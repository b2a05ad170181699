package io.github.spool.log4j2;

import io.github.spool.text.ByteLineBuilder;

/**
 * A field that depends on one value of few (the level, the logger name, the thread name): its
 * bytes are rendered by {@link JsonFieldLayout} the first time a value is seen and cached by
 * that value's identity (the writer's names come from symbol tables, one instance per name).
 * Direct-mapped; a slot holds an immutable entry, so writer threads may race on a slot and each
 * sees a whole entry or none. Internal API.
 */
final class JsonKeyedNode extends JsonNode {

    /** Which value of the event the field depends on. */
    enum Key {
        LEVEL, LOGGER, THREAD
    }

    private static final int SLOTS = 256;

    private static final class Entry {
        final Object key;
        final byte[] bytes;

        Entry(Object key, byte[] bytes) {
            this.key = key;
            this.bytes = bytes;
        }
    }

    private final JsonFieldLayout layout;
    private final Key key;
    /** Plain reads and writes: an entry's fields are final, and a missed entry is only rendered again. */
    private final Entry[] cache = new Entry[SLOTS];

    JsonKeyedNode(JsonFieldLayout layout, Key key) {
        this.layout = layout;
        this.key = key;
    }

    @Override
    void render(CapturedEvent event, ByteLineBuilder out, JsonScratch scratch) {
        Object k = key == Key.LEVEL ? event.getLevel() : key == Key.LOGGER ? event.getLoggerName()
                : event.getThreadName();
        int slot = System.identityHashCode(k) & (SLOTS - 1);
        Entry e = cache[slot];
        if (e == null || e.key != k) {
            e = new Entry(k, layout.render(event));
            cache[slot] = e;
        }
        out.append(e.bytes, 0, e.bytes.length);
    }
}
