package io.github.spool.time;

/**
 * A clock that moves only when told to; for tests. Thread-safe: the value is volatile, so a
 * {@link #set} or {@link #advance} on one thread is seen by readers on others.
 */
public final class ManualClock implements MillisClock {

    private volatile long millis;

    /**
     * Creates a clock standing at {@code start}.
     *
     * @param start milliseconds since the epoch
     */
    public ManualClock(long start) {
        this.millis = start;
    }

    @Override
    public long currentTimeMillis() {
        return millis;
    }

    /**
     * Moves the clock to {@code millis} (backwards too: wall clocks do jump).
     *
     * @param millis milliseconds since the epoch
     */
    public void set(long millis) {
        this.millis = millis;
    }

    /**
     * Moves the clock by {@code millis}. Callers that advance from several threads at once must
     * synchronise themselves: this is a read-modify-write of a volatile, not an atomic add.
     *
     * @param millis milliseconds to add (may be negative)
     */
    public void advance(long millis) {
        this.millis += millis;
    }
}
