package io.github.spool.logback.it;

import io.github.spool.SpoolConfig;
import io.github.spool.ring.ManyToOneCellRing;
import io.github.spool.soak.SoakAssertions;
import io.github.spool.soak.SoakRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Overload soak through logback: a forked JVM whose {@code SpoolAppender} writes to a standard
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
        Path config = LogbackRig.writeChildConfig(dir.resolve("logback-soak-" + policy + ".xml"),
                "  <statusListener class=\"ch.qos.logback.core.status.OnErrorConsoleStatusListener\"/>\n", "soak",
                "    <target>System.out</target>\n"
                + "    <bufferSize>" + BUFFER + "</bufferSize>\n"
                + "    <maxBufferSize>" + MAX + "</maxBufferSize>\n"
                + "    <overflowPolicy>" + policy + "</overflowPolicy>\n"
                + "    <discardThreshold>INFO</discardThreshold>\n"
                + "    " + LogbackRig.render() + "\n"
                + "    <encoder class=\"io.github.spool.logback.SpoolEncoder\"><pattern>%-5level [%thread] %msg%n</pattern></encoder>\n");
        SoakRun r = SoakRun.run("BLOCK".equals(policy), SECONDS,
                List.of("-Dlogback.configurationFile=" + config, "-Dspool.it.render=" + LogbackRig.RENDER), SoakMain.class,
                Double.toString(SECONDS), Integer.toString(PRODUCERS));
        System.out.println("soak logback " + policy + " " + SECONDS + " s, " + PRODUCERS + " producers: "
                + (r.report() == null ? "no report" : r.summary()));
        return r;
    }
}
