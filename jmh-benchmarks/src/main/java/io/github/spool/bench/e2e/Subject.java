package io.github.spool.bench.e2e;

import java.util.Map;

/**
 * One logging configuration under test, living inside a benchmark's child JVM: started once,
 * called from every producer thread, stopped once with everything flushed.
 */
public interface Subject {

    /**
     * Configures and starts the logging system. Called once, on the main thread, before any
     * producer thread exists and before any logging class of the framework has been touched (so
     * the subject may still set system properties such as log4j2's context selector).
     *
     * @throws Exception if the configuration fails
     */
    void start() throws Exception;

    /**
     * Returns the logging call for one producer thread; called on that thread.
     *
     * @param threadIndex zero-based producer index (the thread is named {@code producer-<index>})
     * @return the call to make once per event
     */
    Caller caller(int threadIndex);

    /**
     * Stops the logging system and returns only when everything logged so far has reached the
     * sink (the end of the timed interval).
     *
     * @throws Exception if stopping fails
     */
    void stop() throws Exception;

    /**
     * Facts to print beside the result, such as the Disruptor version of an async-logger run.
     *
     * @return name to value, possibly empty
     */
    default Map<String, String> facts() {
        return Map.of();
    }

    /** One producer thread's logging call. */
    @FunctionalInterface
    interface Caller {

        /**
         * Logs {@link EventLine}'s event with sequence number {@code seq}.
         *
         * @param seq the producer thread's own sequence number, 0, 1, 2, …
         */
        void log(long seq);
    }
}
