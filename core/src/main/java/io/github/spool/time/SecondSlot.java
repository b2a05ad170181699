package io.github.spool.time;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One reusable rendered second of a {@link TimestampFormat}, guarded by a sequence lock so it can
 * be rewritten in place (no allocation per second) while other threads read it. Internal.
 *
 * <p>Protocol (as {@code java.util.concurrent.locks.StampedLock}'s optimistic read):
 * <ul>
 * <li>Writer ({@link #tryPublish}): {@code casVersion(v, v + 1)} from an even {@code v} (volatile
 *     CAS: later plain writes cannot move above it), plain writes of the data, {@code
 *     soVersion(v + 2)} (release: the data writes cannot move below it). A writer that loses the
 *     CAS does not wait: the caller already has its own rendering.</li>
 * <li>Reader: {@code lvVersion()} (acquire: the data reads cannot move above it), must be even;
 *     plain reads of the data (possibly racing a writer, so possibly torn); {@code
 *     VarHandle.acquireFence()} (the data reads cannot move below the re-read); re-read the
 *     version (acquire again, as StampedLock.validate reads its volatile state): unchanged means no writer started in between, so the data read is consistent.</li>
 * </ul>
 * Every value a racing reader can see in {@code length} and {@code fractionPositions} came from
 * some complete render, so even a torn read stays within {@code maxLength} bytes of the caller's
 * buffer; the version check then discards it.
 *
 * <p>The same class serves as a thread's own slot (see {@code TimestampFormat}); that one is read
 * and written by its thread only, and its version is unused.
 */
final class SecondSlot {

    private static final VarHandle VERSION;

    static {
        try {
            VERSION = MethodHandles.lookup().findVarHandle(SecondSlot.class, "version", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Even: stable; odd: a writer is rendering. Starts stable but holding no second. */
    private long version;
    /** The second rendered in {@link #bytes}; {@code Long.MIN_VALUE} before the first render. */
    long epochSecond = Long.MIN_VALUE;
    int length;
    final byte[] bytes;
    final int[] fractionPositions;

    SecondSlot(int maxLength, int fractions) {
        this.bytes = new byte[maxLength];
        this.fractionPositions = new int[fractions];
    }

    /** Acquire load of the version. */
    long lvVersion() {
        return (long) VERSION.getAcquire(this);
    }

    /** Volatile CAS of the version; the writer's entry. */
    boolean casVersion(long expected, long value) {
        return VERSION.compareAndSet(this, expected, value);
    }

    /**
     * Copies {@code src} (a thread's own slot, complete) into this slot if its version is still
     * {@code expectedVersion} and even: the whole writer protocol in one call. Gives up without
     * waiting when another writer got there first; the caller already has its rendering.
     *
     * @param expectedVersion the version the caller read before it missed
     * @param src a slot nobody else writes
     */
    void tryPublish(long expectedVersion, SecondSlot src) {
        if ((expectedVersion & 1) != 0 || !casVersion(expectedVersion, expectedVersion + 1)) {
            return;
        }
        final int n = src.length;
        System.arraycopy(src.bytes, 0, bytes, 0, n);
        System.arraycopy(src.fractionPositions, 0, fractionPositions, 0, fractionPositions.length);
        length = n;
        epochSecond = src.epochSecond;
        soVersion(expectedVersion + 2);
    }

    /** Release store of the version; the writer's exit. */
    void soVersion(long value) {
        VERSION.setRelease(this, value);
    }
}
