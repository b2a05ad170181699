package io.github.spool.bench.e2e;

import java.util.Set;
import java.util.function.Supplier;

/**
 * One named configuration of the end-to-end suite: how to build its {@link Subject} in the child
 * JVM, its role in the comparison, where its output goes and which scenarios it takes part in.
 *
 * @param name        short name used on the command line, in tables, CSV files and charts
 * @param role        its role in the comparison
 * @param output      where its lines go
 * @param scenarios   the scenarios it runs in ({@link Scenarios#CONSOLE} and the others)
 * @param description one line for the documentation
 * @param factory     builds the subject inside the child JVM
 */
public record Configuration(String name, Role role, Output output, Set<String> scenarios, String description,
                            Supplier<Subject> factory) {

    /**
     * @param scenario a scenario name
     * @return whether this configuration runs in it
     */
    public boolean in(String scenario) {
        return scenarios.contains(scenario);
    }

    /**
     * @return whether its lines are JSON (the json scenario's configurations that write): the
     *         pattern-line {@link OutputVerifier} does not apply to them
     */
    public boolean writesJson() {
        return output != Output.NONE && scenarios.contains(Scenarios.JSON);
    }
}
