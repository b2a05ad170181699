package io.github.spool.io;

// Padding through a class chain (JCTools' habit, as in the ring's Cell): every producer of a
// render-on-writer appender reads the flag per event, and the writer's other fields change on every
// pass; 64 bytes on each side keep the flag's cache line shared and quiet between its rare writes.

abstract class BacklogPadHead {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class BacklogField extends BacklogPadHead {
    /** Written by the writer on a change only; read by producers (a heuristic: a stale read only moves work). */
    volatile boolean behind;
}

/**
 * Whether the writer is behind: its last pass collected a backlog. In render-on-writer mode the
 * producers then render lines themselves, so that the writer — one thread, on a core it may share
 * with them — never becomes the bottleneck of the work it took on (docs/design.md, "Capture on the
 * caller, render on the writer"). Hysteresis: behind from {@link #BEHIND_BYTES} collected in one
 * pass, caught up below {@link #CAUGHT_UP_BYTES}. Internal to Spool.
 */
public final class WriterBacklog extends BacklogField {
    byte q000, q001, q002, q003, q004, q005, q006, q007, q008, q009, q010, q011, q012, q013, q014, q015;
    byte q016, q017, q018, q019, q020, q021, q022, q023, q024, q025, q026, q027, q028, q029, q030, q031;
    byte q032, q033, q034, q035, q036, q037, q038, q039, q040, q041, q042, q043, q044, q045, q046, q047;
    byte q048, q049, q050, q051, q052, q053, q054, q055, q056, q057, q058, q059, q060, q061, q062, q063;

    /** A pass that collects this much found a backlog: one default cell's worth. */
    static final long BEHIND_BYTES = 256 << 10;
    /** A pass that collects less than this has caught up. */
    static final long CAUGHT_UP_BYTES = 64 << 10;

    /**
     * Records what one pass collected (writer only).
     *
     * @param bytes bytes collected, 0 for an idle pass
     */
    void collected(long bytes) {
        if (!behind) {
            if (bytes >= BEHIND_BYTES) {
                behind = true;
            }
        } else if (bytes < CAUGHT_UP_BYTES) {
            behind = false;
        }
    }

    /** @return whether the writer's last passes found a backlog */
    public boolean isBehind() {
        return behind;
    }
}
