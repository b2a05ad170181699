package io.github.spool.bench.suite;

import java.io.PrintStream;

/** Progress lines on the runner's stdout, with the elapsed time, so a long run shows where it is. */
public final class Progress {

    private final PrintStream out;
    private final long start = System.nanoTime();

    /** @param out where to print */
    public Progress(PrintStream out) {
        this.out = out;
    }

    /**
     * Prints one progress line.
     *
     * @param text what happened
     */
    public void say(String text) {
        long s = (System.nanoTime() - start) / 1_000_000_000L;
        out.printf("[%02d:%02d] %s%n", s / 60, s % 60, text);
        out.flush();
    }
}
