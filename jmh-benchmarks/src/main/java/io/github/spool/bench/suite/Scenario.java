package io.github.spool.bench.suite;

/** One scenario of the suite: runs its child JVMs and adds their samples to the context. */
public interface Scenario {

    /** @return the scenario's name, as in {@link Plan#ALL_SCENARIOS} */
    String name();

    /**
     * Runs every configuration of the scenario the plan asks for.
     *
     * @param context plan, launcher, progress and results
     * @throws InterruptedException if interrupted
     */
    void run(Context context) throws InterruptedException;
}
