package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.spool.soak.SeqFile;
import io.github.spool.soak.SeqProducer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reconfiguration by file watching: a {@code log4j2.xml} with {@code monitorInterval="1"} (log4j2
 * looks at the file's modification time at most once a second) is rewritten while four producers
 * log, so that the {@code <Spool>} appender named "watched" writes to another file. The test waits
 * until log4j2 has switched to the new configuration (polling the context's configuration, no fixed
 * sleep), lets every producer log on, and checks that every event is in exactly one of the two files,
 * each producer's events in order in each file, the old file holding a prefix of each producer's
 * sequence and the new file the rest. In process, like {@link ReconfigureLeakTest}.
 */
class MonitorIntervalReconfigureTest {

    private static final int PRODUCERS = 4;
    /** Events each producer logs before the rewrite, and again after the switch, at least. */
    private static final long EVENTS_AROUND = 5_000;
    private static final Pattern LINE = Pattern.compile("(monitor-producer-\\d) seq=(\\d+)");

    @TempDir
    Path dir;

    @Test
    void rewrittenConfigurationIsPickedUpAndEveryEventIsWrittenOnce() throws Exception {
        Path fileA = dir.resolve("a.log");
        Path fileB = dir.resolve("b.log");
        Path config = dir.resolve("log4j2-monitor.xml");
        Files.writeString(config, configuration(fileA));
        LoggerContext ctx = new LoggerContext("spool-monitor", null, config.toUri());
        ctx.start();
        Configuration first = ctx.getConfiguration();
        assertEquals(fileA, ((SpoolAppender) first.getAppender("watched")).getSpoolConfig().file());
        Logger logger = ctx.getLogger("monitor");
        List<SeqProducer> producers = new ArrayList<>();
        for (int t = 0; t < PRODUCERS; t++) {
            producers.add(new SeqProducer("monitor-producer-" + t, seq -> logger.info("seq={}", seq)));
        }
        long[] produced = new long[PRODUCERS];
        producers.forEach(SeqProducer::start);
        long switchMillis;
        try {
            producers.forEach(p -> p.awaitProgress(EVENTS_AROUND));
            // Atomic replace with a later modification time: log4j2 never reads a half-written file,
            // and a rewrite within the same millisecond as the first write still counts as a change.
            Path next = dir.resolve("log4j2-monitor.xml.next");
            Files.writeString(next, configuration(fileB));
            Files.setLastModifiedTime(next, FileTime.fromMillis(Files.getLastModifiedTime(config).toMillis() + 5_000));
            Files.move(next, config, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            long start = System.nanoTime();
            long deadline = start + TimeUnit.SECONDS.toNanos(30);
            while (!writesTo(ctx.getConfiguration(), fileB)) {
                if (System.nanoTime() > deadline) {
                    fail("log4j2 did not apply the rewritten configuration within 30 s (monitorInterval=1)");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            switchMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            producers.forEach(p -> p.awaitProgress(EVENTS_AROUND)); // every producer logs into the new one
        } finally {
            for (int t = 0; t < PRODUCERS; t++) {
                produced[t] = producers.get(t).stop();
            }
        }
        assertTrue(ctx.stop(30, TimeUnit.SECONDS), "context stopped");
        assertTrue(first.isStopped(), "the first configuration was stopped by the reconfiguration");

        Map<String, List<Long>> a = SeqFile.perProducer(fileA, LINE);
        Map<String, List<Long>> b = SeqFile.perProducer(fileB, LINE);
        long total = 0;
        for (int t = 0; t < PRODUCERS; t++) {
            String name = "monitor-producer-" + t;
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
            total += produced[t];
        }
        System.out.println("monitorInterval log4j2: switched " + switchMillis + " ms after the rewrite; " + total
                + " events from " + PRODUCERS + " producers, each once, " + a.values().stream().mapToInt(List::size).sum()
                + " in a.log, " + b.values().stream().mapToInt(List::size).sum() + " in b.log");
    }

    private static boolean writesTo(Configuration c, Path file) {
        return c.getAppender("watched") instanceof SpoolAppender
                && file.equals(((SpoolAppender) c.getAppender("watched")).getSpoolConfig().file());
    }

    private static String configuration(Path file) {
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
