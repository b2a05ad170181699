package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import io.github.spool.Spool;
import io.github.spool.soak.LeakProbe;
import io.github.spool.soak.SeqFile;
import io.github.spool.soak.SeqProducer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One hundred reconfigurations the way logback does them ({@code LoggerContext.reset()}, then a
 * {@link JoranConfigurator} on the same file) while a producer logs, with two
 * {@link SpoolAppender}s (one with {@link SpoolEncoder}, one with {@code PatternLayoutEncoder}).
 *
 * <p>Leaks: after each reconfiguration every writer thread that ran before it has ended, exactly
 * one per appender runs, and exactly the running appenders' MBeans are registered; after the
 * context stops, none of either.
 *
 * <p>Loss, as far as it is Spool's: every {@link Spool} wrote exactly what its file holds, lost
 * and discarded nothing. Loss that is logback's own is bounded precisely: {@code reset()}
 * detaches the appenders before the new configuration attaches new ones, so events logged during
 * a reconfiguration ("window") may reach no appender; and logback 1.5.38's {@code COWArrayList}
 * (the appender list) can keep a stale snapshot when a logging thread refreshes it while the
 * configurator adds an appender ({@code refreshCopy()} reads the list, {@code add()} marks it
 * stale, then {@code refreshCopy()} marks its old copy fresh), so an appender attached by that
 * configuration receives nothing until the next change of the list. Hence, outside the windows,
 * each appender's file holds every event of a span between two reconfigurations or none of them;
 * anything else fails the test.
 */
class ReconfigureLeakTest {

    private static final int RECONFIGURATIONS = 100;
    /** Events logged between two reconfigurations, at least. */
    private static final long EVENTS_BETWEEN = 2_000;
    private static final String A = "reconflb-a";
    private static final String B = "reconflb-b";

    @TempDir
    Path dir;

    @Test
    void hundredReconfigurationsLeakNoThreadNoBeanAndSpoolLosesNothing() throws Exception {
        Path fileA = dir.resolve("a.log");
        Path fileB = dir.resolve("b.log");
        Path config = dir.resolve("logback-reconfigure.xml");
        Files.writeString(config, "<configuration>\n"
                + "  <appender name=\"" + A + "\" class=\"io.github.spool.logback.SpoolAppender\">\n"
                + "    <file>" + fileA + "</file><bufferSize>64KB</bufferSize><maxBufferSize>1MB</maxBufferSize>\n"
                + "    <encoder class=\"io.github.spool.logback.SpoolEncoder\"><pattern>%thread %msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <appender name=\"" + B + "\" class=\"io.github.spool.logback.SpoolAppender\">\n"
                + "    <file>" + fileB + "</file><bufferSize>64KB</bufferSize><maxBufferSize>1MB</maxBufferSize>\n"
                + "    <encoder><pattern>%thread %msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"" + A + "\"/><appender-ref ref=\"" + B + "\"/></root>\n"
                + "</configuration>\n");
        LoggerContext ctx = new LoggerContext();
        ctx.setName("spool-reconfigure");
        List<Status> errors = Collections.synchronizedList(new ArrayList<>());
        ctx.getStatusManager().add(new ErrorCollector(errors)); // logback keeps only 300 statuses
        configure(ctx, config);
        Logger logger = ctx.getLogger("reconf");
        Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        List<Spool> spoolsA = new ArrayList<>();
        List<Spool> spoolsB = new ArrayList<>();
        SeqProducer producer = new SeqProducer("reconf-producer", seq -> logger.info("seq={}", seq));
        producer.start();
        long[][] windows = new long[RECONFIGURATIONS][];
        long produced;
        try {
            for (int i = 0; i < RECONFIGURATIONS; i++) {
                spoolsA.add(spoolOf(root, A));
                spoolsB.add(spoolOf(root, B));
                List<Thread> before = writers();
                assertEquals(2, before.size(), "one writer per appender before reconfiguration " + i);
                long from = producer.completed(); // every event below it was logged before reset() began
                ctx.reset();
                configure(ctx, config);
                long to = producer.completed(); // every event above it began after configure() returned
                windows[i] = new long[] {from, to};
                for (Thread t : before) {
                    t.join(5_000); // reset() stopped the old appender: its thread ends
                    assertFalse(t.isAlive(), "writer thread of a stopped appender still alive after reconfiguration " + i);
                }
                assertEquals(2, writers().size(), "one writer per appender after reconfiguration " + i);
                assertEquals(Set.of(A, B), LeakProbe.registeredAppenders("reconflb-"), "MBeans after reconfiguration " + i);
                producer.awaitProgress(EVENTS_BETWEEN);
            }
        } finally {
            produced = producer.stop();
        }
        spoolsA.add(spoolOf(root, A));
        spoolsB.add(spoolOf(root, B));
        List<Thread> last = writers();
        ctx.stop();
        for (Thread t : last) {
            t.join(5_000);
            assertFalse(t.isAlive(), "writer thread alive after the context stopped");
        }
        assertEquals(Set.of(), LeakProbe.registeredAppenders("reconflb-"), "no MBean after the context stopped");
        assertTrue(errors.isEmpty(), () -> "status errors: " + errors);

        StringBuilder figures = new StringBuilder();
        for (Object[] f : new Object[][] {{fileA, spoolsA}, {fileB, spoolsB}}) {
            Path file = (Path) f[0];
            @SuppressWarnings("unchecked")
            List<Spool> spools = (List<Spool>) f[1];
            BitSet seen = SeqFile.read(file);
            long written = 0;
            for (Spool s : spools) {
                assertTrue(s.isStopped(), "every Spool of " + file + " was stopped");
                assertEquals(0, s.stats().getEventsLost(), "lost to sink errors");
                assertEquals(0, s.stats().getEventsDiscarded(), "discarded (BLOCK)");
                written += s.stats().getEventsWritten();
            }
            assertEquals(written, seen.cardinality(), file + ": the file holds exactly what the Spools wrote");
            assertEquals(-1, seen.nextSetBit((int) produced), file + ": nothing beyond what was produced");
            long[] loss = logbackLoss(file, seen, windows, produced);
            figures.append(String.format("%n  %s: %d of %d events written by %d Spools; not written: %d logged during a"
                    + " reconfiguration, %d in %d spans lost to logback's stale appender list",
                    file.getFileName(), written, produced, spools.size(), loss[0], loss[1], loss[2]));
        }
        System.out.println("reconfigure logback: " + RECONFIGURATIONS + " reconfigurations, writer threads alive after"
                + " stop: " + writers().size() + figures);
    }

    /**
     * Checks that, outside the windows, every span between two reconfigurations is complete or
     * empty in {@code seen}.
     *
     * @return events missing inside windows, events missing in empty spans, number of empty spans
     */
    private static long[] logbackLoss(Path file, BitSet seen, long[][] windows, long produced) {
        long inWindows = 0;
        for (long[] w : windows) {
            for (long s = w[0]; s <= w[1] && s < produced; s++) {
                inWindows += seen.get((int) s) ? 0 : 1;
            }
        }
        long inSpans = 0;
        long emptySpans = 0;
        for (int i = 0; i <= windows.length; i++) {
            long start = i == 0 ? 0 : windows[i - 1][1] + 1;
            long end = i == windows.length ? produced : windows[i][0]; // exclusive
            if (start >= end) {
                continue;
            }
            long present = seen.get((int) start, (int) end).cardinality();
            if (present == 0) {
                emptySpans++;
                inSpans += end - start;
            } else {
                assertEquals(end - start, present, file + ": events lost between reconfigurations, span [" + start
                        + ", " + end + ")");
            }
        }
        return new long[] {inWindows, inSpans, emptySpans};
    }

    private static Spool spoolOf(Logger root, String name) {
        SpoolAppender a = (SpoolAppender) root.getAppender(name);
        assertNotNull(a, "appender " + name + " attached");
        Spool s = a.spoolForTest();
        assertNotNull(s, "appender " + name + " started");
        return s;
    }

    private static void configure(LoggerContext ctx, Path config) throws JoranException {
        JoranConfigurator jc = new JoranConfigurator();
        jc.setContext(ctx);
        jc.doConfigure(config.toFile());
    }

    private static List<Thread> writers() {
        List<Thread> all = new ArrayList<>(LeakProbe.writerThreads(A));
        all.addAll(LeakProbe.writerThreads(B));
        return all;
    }
}
