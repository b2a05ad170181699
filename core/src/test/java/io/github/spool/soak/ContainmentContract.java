package io.github.spool.soak;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Failure containment end to end (issue 11), the same for each adapter: a
 * {@code StackOverflowError} in a deeply recursive {@code logger.info}, the writer thread
 * interrupted, and 16 MiB of direct memory with 1 MiB and 40 MiB messages, with and without
 * {@code -XX:+DisableExplicitGC}. An adapter's test extends this and names its program and its
 * configuration; {@link ContainmentCheck} forks and checks. Test support.
 */
public abstract class ContainmentContract {
    @TempDir
    protected Path dir;

    /** @return the adapter's program ({@code ContainmentMain}), which calls {@link ContainmentChild#run} */
    protected abstract Class<?> main();

    /**
     * Writes the framework's configuration: a Spool appender named {@code out} on standard output,
     * layout {@code %m%n}, {@code maxBufferSize} 8 MiB.
     *
     * @param dir where to write it
     * @return the JVM option that makes the framework read it
     * @throws Exception if it cannot be written
     */
    protected abstract String configure(Path dir) throws Exception;

    private List<String> jvm(List<String> extra) throws Exception {
        List<String> args = new ArrayList<>(extra);
        args.add(configure(dir));
        return args;
    }

    @Test
    void stackOverflowInARecursiveLoggerCall() throws Exception {
        ContainmentCheck.check(main(), "stackoverflow", jvm(List.of()), dir);
    }

    @Test
    void interruptedWriter() throws Exception {
        ContainmentCheck.check(main(), "interrupt", jvm(List.of()), dir);
    }

    @Test
    void sixteenMebibytesOfDirectMemory() throws Exception {
        for (List<String> options : ContainmentCheck.directMemoryVariants()) {
            ContainmentCheck.check(main(), "direct", jvm(options), dir);
        }
    }
}
