package io.github.spool.bench.e2e;

/**
 * The one event every benchmark logs, defined once so that every configuration prints the same
 * ~100-byte line (ANCHORS.md):
 * {@code 2026-11-22 01:32:26.721 [producer-2] INFO  anchors.Bench - Order processed id=500000 status=OK size=7}.
 *
 * <p>The message carries the producing thread's own sequence number so that {@link OutputVerifier}
 * can check per-thread order, not just the count.
 */
public final class EventLine {

    /** The layout pattern, identical in log4j2 and logback configurations. */
    public static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n";

    /** Logger name; short enough that {@code %logger{36}} prints it unabbreviated in both frameworks. */
    public static final String LOGGER = "anchors.Bench";

    /** Parameterised message: one parameter, the per-thread sequence number. */
    public static final String MESSAGE = "Order processed id={} status=OK size=7";

    /** What the message becomes after the sequence number ({@code MESSAGE} after the placeholder). */
    static final String MESSAGE_HEAD = "Order processed id=";

    /** The text that follows the sequence number. */
    static final String MESSAGE_TAIL = " status=OK size=7";

    /** Prefix of every producer thread's name; the index follows. */
    public static final String THREAD_PREFIX = "producer-";

    private EventLine() {
    }

    /**
     * Returns the name of producer thread {@code index}.
     *
     * @param index zero-based producer index
     * @return {@code producer-<index>}
     */
    public static String threadName(int index) {
        return THREAD_PREFIX + index;
    }
}
