package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import io.github.spool.Spool;
import io.github.spool.soak.ReconfigureLeakContract;
import io.github.spool.soak.SeqFile;
import io.github.spool.soak.SeqProducer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;

/**
 * {@link ReconfigureLeakContract} the way logback reconfigures ({@code LoggerContext.reset()}, then
 * a {@link JoranConfigurator} on the same file), with two {@link SpoolAppender}s (one with
 * {@link SpoolEncoder}, one with {@code PatternLayoutEncoder}).
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
class ReconfigureLeakTest extends ReconfigureLeakContract {

    @Override
    protected String framework() {
        return "logback";
    }

    @Override
    protected String prefix() {
        return "reconflb-";
    }

    @Override
    protected Context start(String a, Path fileA, String b, Path fileB) throws Exception {
        Path config = dir.resolve("logback-reconfigure.xml");
        Files.writeString(config, "<configuration>\n"
                + "  <appender name=\"" + a + "\" class=\"io.github.spool.logback.SpoolAppender\">\n"
                + "    <file>" + fileA + "</file><bufferSize>64KB</bufferSize><maxBufferSize>1MB</maxBufferSize>\n"
                + "    <encoder class=\"io.github.spool.logback.SpoolEncoder\"><pattern>%thread %msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <appender name=\"" + b + "\" class=\"io.github.spool.logback.SpoolAppender\">\n"
                + "    <file>" + fileB + "</file><bufferSize>64KB</bufferSize><maxBufferSize>1MB</maxBufferSize>\n"
                + "    <encoder><pattern>%thread %msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"" + a + "\"/><appender-ref ref=\"" + b + "\"/></root>\n"
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
        List<long[]> windows = new ArrayList<>();
        return new Context() {
            @Override
            public void log(long seq) {
                logger.info("seq={}", seq);
            }

            @Override
            public void reconfigure(SeqProducer producer) throws JoranException {
                spoolsA.add(spoolOf(root, a));
                spoolsB.add(spoolOf(root, b));
                long from = producer.completed(); // every event below it was logged before reset() began
                ctx.reset();
                configure(ctx, config);
                long to = producer.completed(); // every event above it began after configure() returned
                windows.add(new long[] {from, to});
            }

            @Override
            public void stop() {
                spoolsA.add(spoolOf(root, a));
                spoolsB.add(spoolOf(root, b));
                ctx.stop();
            }

            @Override
            public String verify(long produced) throws Exception {
                assertTrue(errors.isEmpty(), () -> "status errors: " + errors);
                StringBuilder figures = new StringBuilder();
                long[][] spans = windows.toArray(new long[0][]);
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
                    long[] loss = logbackLoss(file, seen, spans, produced);
                    figures.append(String.format("%n  %s: %d of %d events written by %d Spools; not written: %d logged during a"
                            + " reconfiguration, %d in %d spans lost to logback's stale appender list",
                            file.getFileName(), written, produced, spools.size(), loss[0], loss[1], loss[2]));
                }
                return figures.toString();
            }
        };
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
}
