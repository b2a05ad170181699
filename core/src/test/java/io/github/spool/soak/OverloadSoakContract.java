package io.github.spool.soak;

import io.github.spool.SpoolConfig;
import io.github.spool.ring.ManyToOneCellRing;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Overload soak through a framework, the same for both adapters: a forked JVM whose Spool
 * appender writes to a standard output pipe read far slower than the producers log (see
 * {@link SoakRun}), for {@code -Dspool.soak.seconds} (default 5; the long version is 60) with
 * {@code -Dspool.soak.producers} threads (default 2), under {@code BLOCK} and {@code DISCARD}.
 * Checks exact accounting and bounded memory ({@link SoakAssertions}); prints the figures that
 * {@code docs/reliability.md} quotes. An adapter's test extends this. Test support.
 */
public abstract class OverloadSoakContract {

    /** The soak's length in seconds. */
    protected static final double SECONDS = Double.parseDouble(System.getProperty("spool.soak.seconds", "5"));
    /** Producer threads. */
    protected static final int PRODUCERS = Integer.getInteger("spool.soak.producers", 2);
    /** The appender's {@code bufferSize}. */
    protected static final long BUFFER = SpoolConfig.DEFAULT_BUFFER_SIZE;
    /** The appender's {@code maxBufferSize}. */
    protected static final long MAX = SpoolConfig.DEFAULT_MAX_BUFFER_SIZE;

    @TempDir
    protected Path dir;

    /** @return the framework's name, for the printed figures */
    protected abstract String framework();

    /** @return the program the child runs: it calls {@link SoakRun}'s child side */
    protected abstract Class<?> main();

    /**
     * Writes the child's configuration: a Spool appender on standard output with
     * {@link #BUFFER}, {@link #MAX}, {@code overflowPolicy} {@code policy}, {@code discardThreshold}
     * INFO, the adapter's render mode under test, pattern {@code %-5level [%thread] %msg%n}, the
     * root logger at INFO to it.
     *
     * @param dir    where to write it
     * @param policy {@code BLOCK} or {@code DISCARD}
     * @return the child's JVM options (the configuration, the render mode)
     * @throws Exception if it cannot be written
     */
    protected abstract List<String> configure(Path dir, String policy) throws Exception;

    @Test
    void blockLosesNothingAndStaysUnderTheCap() throws Exception {
        SoakRun r = soak("BLOCK");
        SoakAssertions.assertBlock(r, ManyToOneCellRing.cellSizeFor(BUFFER));
    }

    @Test
    void discardAccountsForEveryEventAndStaysUnderTheCap() throws Exception {
        SoakRun r = soak("DISCARD");
        SoakAssertions.assertDiscard(r, SECONDS);
    }

    private SoakRun soak(String policy) throws Exception {
        SoakRun r = SoakRun.run("BLOCK".equals(policy), SECONDS, configure(dir, policy), main(),
                Double.toString(SECONDS), Integer.toString(PRODUCERS));
        System.out.println("soak " + framework() + " " + policy + " " + SECONDS + " s, " + PRODUCERS + " producers: "
                + (r.report() == null ? "no report" : r.summary()));
        return r;
    }
}
