package io.github.spool.log4j2.it;

import io.github.spool.SpoolConfig;
import io.github.spool.ring.ManyToOneCellRing;
import io.github.spool.soak.SoakAssertions;
import io.github.spool.soak.SoakRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Overload soak through log4j2: a forked JVM whose {@code <Spool>} appender writes to a standard
 * output pipe read far slower than the producers log (see {@link SoakRun}), for
 * {@code -Dspool.soak.seconds} (default 5; the long version is 60) with
 * {@code -Dspool.soak.producers} threads (default 2), under {@code BLOCK} and {@code DISCARD}.
 * Checks exact accounting and bounded memory ({@link SoakAssertions}); prints the figures that
 * {@code docs/reliability.md} quotes.
 */
class OverloadSoakTest {

    private static final double SECONDS = Double.parseDouble(System.getProperty("spool.soak.seconds", "5"));
    private static final int PRODUCERS = Integer.getInteger("spool.soak.producers", 2);
    private static final long BUFFER = SpoolConfig.DEFAULT_BUFFER_SIZE;
    private static final long MAX = SpoolConfig.DEFAULT_MAX_BUFFER_SIZE;

    @TempDir
    Path dir;

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
        Path config = dir.resolve("log4j2-soak-" + policy + ".xml");
        Files.writeString(config, "<Configuration status=\"warn\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"soak\" target=\"SYSTEM_OUT\" bufferSize=\"" + BUFFER + "\" maxBufferSize=\"" + MAX
                + "\" overflowPolicy=\"" + policy + "\" discardThreshold=\"INFO\"" + Log4jRig.render() + ">\n"
                + "      <SpoolLayout pattern=\"%-5level [%t] %msg%n\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"soak\"/></Root></Loggers>\n"
                + "</Configuration>\n");
        SoakRun r = SoakRun.run("BLOCK".equals(policy), SECONDS,
                List.of("-Dlog4j2.configurationFile=" + config, "-Dspool.it.render=" + Log4jRig.RENDER), SoakMain.class,
                Double.toString(SECONDS), Integer.toString(PRODUCERS));
        System.out.println("soak log4j2 " + policy + " " + SECONDS + " s, " + PRODUCERS + " producers: "
                + (r.report() == null ? "no report" : r.summary()));
        return r;
    }
}
