package io.github.spool;

import io.github.spool.metrics.SpoolAppenderStats;

/**
 * Prints one run's figures on standard output (surefire also keeps them in
 * {@code target/surefire-reports/*-output.txt} and the XML report): the counts
 * {@code docs/reliability.md} quotes. Printing only; the tests assert what matters.
 */
final class Figures {
    private Figures() {
    }

    /**
     * @param run   test and case, e.g. {@code "OverflowTest block"}
     * @param extra the run's own figures ({@code produced=..} and the like), may be empty
     * @param s     the appender's counters, read after its stop
     */
    static void print(String run, String extra, SpoolAppenderStats s) {
        System.out.println("figures " + run + ": " + (extra.isEmpty() ? "" : extra + " ")
                + "written=" + s.getEventsWritten() + " lost=" + s.getEventsLost() + " discarded=" + s.getEventsDiscarded()
                + " writeErrors=" + s.getWriteErrors() + " bytesWritten=" + s.getBytesWritten()
                + " highWater=" + s.getBufferBytesHighWater() + "/" + s.getBufferBytesMax());
    }
}
