package io.github.spool;

/**
 * Receives core's status messages: sink faults and recoveries, configuration warnings, shutdown
 * results. Adapters route them to their framework's status logger. Called from the writer thread
 * or from the thread that starts or stops the appender, never from a producer's hot path; an
 * implementation must not log through the same appender.
 */
@FunctionalInterface
public interface StatusListener {

    /** Severity of a status message. */
    enum Level { INFO, WARN, ERROR }

    /**
     * Reports one status message.
     *
     * @param level   how serious it is
     * @param message what happened, already naming the appender
     * @param cause   the exception behind it, or {@code null}
     */
    void status(Level level, String message, Throwable cause);

    /**
     * Whether messages of {@code level} reach someone (printed, or kept where users look). Core
     * prints its exit-time loss warnings to standard error itself when they would not.
     *
     * @param level a level
     * @return {@code true} unless the listener is known to keep such messages unseen
     */
    default boolean shows(Level level) {
        return true;
    }

    /** A listener that prints to the process's standard error through {@link System#err}. */
    StatusListener STDERR = (level, message, cause) -> {
        System.err.println("spool " + level + ": " + message);
        if (cause != null) {
            cause.printStackTrace(System.err);
        }
    };
}
