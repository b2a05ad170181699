package io.github.spool.bench.e2e;

/** What the child JVM's stdout is connected to. */
public enum Sink {
    /** A regular file, verified after the run. */
    FILE("file"),
    /** A pipe drained at full speed by a reader thread that verifies as it reads. */
    PIPE("pipe"),
    /** {@code /dev/null}: the cost without a sink; nothing can be verified. */
    DEV_NULL("devnull"),
    /** A pipe whose reader reads at full speed but stalls 20 ms every 100 ms (the slow cloud disk). */
    STALLING_PIPE("stalling-pipe"),
    /** A pipe whose reader reads 16 KiB then sleeps 10 ms: slower than the producer. */
    OVERLOADED_PIPE("overloaded-pipe");

    private final String label;

    Sink(String label) {
        this.label = label;
    }

    /** @return the name used in tables, CSV files and charts */
    public String label() {
        return label;
    }

    /** @return whether a reader thread of the runner drains the child's stdout */
    public boolean isPipe() {
        return this == PIPE || this == STALLING_PIPE || this == OVERLOADED_PIPE;
    }
}
