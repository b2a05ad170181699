package io.github.spool.time;

/** What tests outside this package may see of a {@link TimestampFormat}'s shared slots. Test support. */
public final class SharedSlots {

    private SharedSlots() {
    }

    /**
     * @param format      a format
     * @param epochSecond a second
     * @return whether the shared slot of that second's parity holds it, rendered
     */
    public static boolean holds(TimestampFormat format, long epochSecond) {
        return format.sharedSlot(epochSecond).epochSecond == epochSecond;
    }
}
