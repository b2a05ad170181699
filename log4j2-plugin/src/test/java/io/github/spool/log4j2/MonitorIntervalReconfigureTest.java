package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.spool.soak.RewrittenConfigurationContract;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;

/**
 * {@link RewrittenConfigurationContract} through log4j2's {@code monitorInterval="1"} (log4j2 looks
 * at the file's modification time at most once a second): the test polls the context's
 * configuration until it writes to the new file, and checks that every event is in exactly one of
 * the two files, each producer's events in order in each file, the old file holding a prefix of
 * each producer's sequence and the new file the rest. In process, like {@link ReconfigureLeakTest}.
 */
class MonitorIntervalReconfigureTest extends RewrittenConfigurationContract {

    @Override
    protected String what() {
        return "monitorInterval log4j2";
    }

    @Override
    protected String producerPrefix() {
        return "monitor-producer-";
    }

    @Override
    protected String configName() {
        return "log4j2-monitor.xml";
    }

    @Override
    protected Context start(Path config, Path fileA, Path fileB) {
        LoggerContext ctx = new LoggerContext("spool-monitor", null, config.toUri());
        ctx.start();
        Configuration first = ctx.getConfiguration();
        assertEquals(fileA, ((SpoolAppender) first.getAppender("watched")).getSpoolConfig().file());
        Logger logger = ctx.getLogger("monitor");
        return new Context() {
            @Override
            public void log(long seq) {
                logger.info("seq={}", seq);
            }

            @Override
            public void awaitSwitch() {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!writesTo(ctx.getConfiguration(), fileB)) {
                    if (System.nanoTime() > deadline) {
                        fail("log4j2 did not apply the rewritten configuration within 30 s (monitorInterval=1)");
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
            }

            @Override
            public void stop() {
                assertTrue(ctx.stop(30, TimeUnit.SECONDS), "context stopped");
                assertTrue(first.isStopped(), "the first configuration was stopped by the reconfiguration");
            }

            @Override
            public String verify(Map<String, List<Long>> a, Map<String, List<Long>> b, long[] produced) {
                for (int t = 0; t < PRODUCERS; t++) {
                    String name = producerPrefix() + t;
                    List<Long> inA = a.getOrDefault(name, List.of());
                    List<Long> inB = b.getOrDefault(name, List.of());
                    assertFalse(inA.isEmpty(), name + " logged into the first file");
                    assertFalse(inB.isEmpty(), name + " logged into the second file");
                    // In order in each file, the first file a prefix of the sequence, the second the rest:
                    // together exactly 0 .. produced-1, each once.
                    long expect = 0;
                    for (List<Long> part : List.of(inA, inB)) {
                        for (long seq : part) {
                            if (seq != expect) {
                                fail(name + ": expected seq " + expect + ", got " + seq + " (" + inA.size() + " lines in a.log, "
                                        + inB.size() + " in b.log, " + produced[t] + " logged)");
                            }
                            expect++;
                        }
                    }
                    assertEquals(produced[t], expect, name + ": every event written once");
                }
                return "each once, " + a.values().stream().mapToInt(List::size).sum() + " in a.log, "
                        + b.values().stream().mapToInt(List::size).sum() + " in b.log";
            }
        };
    }

    private static boolean writesTo(Configuration c, Path file) {
        return c.getAppender("watched") instanceof SpoolAppender
                && file.equals(((SpoolAppender) c.getAppender("watched")).getSpoolConfig().file());
    }

    @Override
    protected String configuration(Path file) {
        return "<Configuration status=\"warn\" monitorInterval=\"1\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"watched\" fileName=\"" + file + "\" bufferSize=\"64 KiB\" maxBufferSize=\"1 MiB\">\n"
                + "      <SpoolLayout pattern=\"%t %m%n\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"watched\"/></Root></Loggers>\n"
                + "</Configuration>\n";
    }
}
