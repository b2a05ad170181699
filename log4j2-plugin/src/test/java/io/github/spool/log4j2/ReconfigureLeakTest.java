package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.soak.LeakProbe;
import io.github.spool.soak.SeqFile;
import io.github.spool.soak.SeqProducer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One hundred {@code LoggerContext.reconfigure()} calls while a producer logs, with two
 * {@code <Spool>} appenders (one with {@code SpoolLayout}, one with {@code PatternLayout}): after
 * each, every writer thread that ran before it has ended and exactly one per appender runs, and
 * exactly the running appenders' MBeans are registered; after the context stops, none of either;
 * both files hold every event exactly once (log4j2 reconfigures without a gap, see
 * {@link SpoolAppender}).
 */
class ReconfigureLeakTest {

    private static final int RECONFIGURATIONS = 100;
    /** Events logged between two reconfigurations, at least. */
    private static final long EVENTS_BETWEEN = 2_000;
    private static final String A = "reconf4j-a";
    private static final String B = "reconf4j-b";

    @TempDir
    Path dir;

    @Test
    void hundredReconfigurationsLeakNoThreadNoBeanAndLoseNothing() throws Exception {
        Path fileA = dir.resolve("a.log");
        Path fileB = dir.resolve("b.log");
        Path config = dir.resolve("log4j2-reconfigure.xml");
        Files.writeString(config, "<Configuration status=\"warn\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"" + A + "\" fileName=\"" + fileA + "\" bufferSize=\"64 KiB\" maxBufferSize=\"1 MiB\">\n"
                + "      <SpoolLayout pattern=\"%t %m%n\"/>\n"
                + "    </Spool>\n"
                + "    <Spool name=\"" + B + "\" fileName=\"" + fileB + "\" bufferSize=\"64 KiB\" maxBufferSize=\"1 MiB\">\n"
                + "      <PatternLayout pattern=\"%t %m%n\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"" + A + "\"/><AppenderRef ref=\"" + B + "\"/></Root></Loggers>\n"
                + "</Configuration>\n");
        LoggerContext ctx = new LoggerContext("spool-reconfigure", null, config.toUri());
        ctx.start();
        Logger logger = ctx.getLogger("reconf");
        SeqProducer producer = new SeqProducer("reconf-producer", seq -> logger.info("seq={}", seq));
        producer.start();
        long produced;
        try {
            for (int i = 0; i < RECONFIGURATIONS; i++) {
                List<Thread> before = writers();
                assertEquals(2, before.size(), "one writer per appender before reconfiguration " + i);
                ctx.reconfigure();
                for (Thread t : before) {
                    t.join(5_000); // the old appender was stopped inside reconfigure(): its thread ends
                    assertFalse(t.isAlive(), "writer thread of a stopped appender still alive after reconfiguration " + i);
                }
                assertEquals(2, writers().size(), "one writer per appender after reconfiguration " + i);
                assertEquals(Set.of(A, B), LeakProbe.registeredAppenders("reconf4j-"), "MBeans after reconfiguration " + i);
                producer.awaitProgress(EVENTS_BETWEEN);
            }
        } finally {
            produced = producer.stop();
        }
        List<Thread> last = writers();
        assertTrue(ctx.stop(30, TimeUnit.SECONDS), "context stopped");
        for (Thread t : last) {
            t.join(5_000);
            assertFalse(t.isAlive(), "writer thread alive after the context stopped");
        }
        assertEquals(Set.of(), LeakProbe.registeredAppenders("reconf4j-"), "no MBean after the context stopped");
        for (Path f : List.of(fileA, fileB)) {
            BitSet seen = SeqFile.read(f);
            assertEquals(produced, seen.cardinality(), f + ": every event exactly once");
            assertEquals(produced, seen.nextClearBit(0), f + ": no gap");
        }
        System.out.println("reconfigure log4j2: " + RECONFIGURATIONS + " reconfigurations, " + produced
                + " events, each in both files; writer threads alive after stop: " + writers().size());
    }

    private static List<Thread> writers() {
        List<Thread> all = new ArrayList<>(LeakProbe.writerThreads(A));
        all.addAll(LeakProbe.writerThreads(B));
        return all;
    }
}
