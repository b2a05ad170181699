package io.github.spool.bench.suite;

import io.github.spool.bench.e2e.ChildJvm;
import io.github.spool.bench.report.Sample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** What a scenario needs while it runs: the plan, the child launcher, progress output and the sample list. */
public final class Context {

    private final Plan plan;
    private final ChildJvm children;
    private final Progress progress;
    private final Path outDir;
    private final List<Sample> samples = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    /**
     * @param plan     the plan
     * @param children the child launcher
     * @param progress progress output
     * @param outDir   where results are written
     */
    public Context(Plan plan, ChildJvm children, Progress progress, Path outDir) {
        this.plan = plan;
        this.children = children;
        this.progress = progress;
        this.outDir = outDir;
    }

    /** @return the plan */
    public Plan plan() {
        return plan;
    }

    /** @return the child launcher */
    public ChildJvm children() {
        return children;
    }

    /** @return progress output */
    public Progress progress() {
        return progress;
    }

    /** @return where results are written */
    public Path outDir() {
        return outDir;
    }

    /** @param sample a measurement to keep */
    public void add(Sample sample) {
        samples.add(sample);
        if (!sample.verifiedOrNotApplicable()) {
            failures.add(sample.scenario() + " " + sample.group() + " " + sample.config() + ": " + sample.verification());
        }
    }

    /** @param failure a run that failed outright */
    public void fail(String failure) {
        failures.add(failure);
        progress.say("FAILED " + failure);
    }

    /** @return every measurement so far */
    public List<Sample> samples() {
        return Collections.unmodifiableList(samples);
    }

    /** @return every verification failure or failed run so far */
    public List<String> failures() {
        return Collections.unmodifiableList(failures);
    }
}
