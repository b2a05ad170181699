package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.spi.ConfigurationEvent;
import ch.qos.logback.core.status.Status;
import io.github.spool.Spool;
import io.github.spool.soak.RewrittenConfigurationContract;
import io.github.spool.soak.SeqProducer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@link RewrittenConfigurationContract} through logback's {@code scan="true" scanPeriod="200
 * milliseconds"}: the {@link SpoolAppender} named "watched" moves to another file. logback's scanner thread detects
 * the change, calls {@code LoggerContext.reset()} and runs the new configuration; the test learns
 * both moments from logback's own configuration events ({@code CHANGE_DETECTED} before the reset,
 * {@code CONFIGURATION_ENDED_SUCCESSFULLY} after the new appender is attached), waits for the
 * second with a latch, lets every producer log on, then checks.
 *
 * <p>What Spool guarantees, checked exactly: each of the two {@link Spool}s lost and discarded
 * nothing and its file holds exactly what it wrote, no line is torn or duplicated, each producer's
 * events are in order in each file, and everything a producer logged before the reset began is in
 * the old file. What is logback's (docs/logback.md, "Exit, stop and reconfiguration"): events logged
 * while the scanner is between {@code reset()} and the end of the new configuration may reach no
 * appender (counted, not failed), and logback 1.5.38's appender list can keep a stale snapshot so
 * that the new appender receives nothing (then it receives nothing from any producer; allowed and
 * reported, as in {@link ReconfigureLeakTest}). Anything else fails the test. In process, like
 * {@link ReconfigureLeakTest}.
 */
class ScanReconfigureTest extends RewrittenConfigurationContract {

    @Override
    protected String what() {
        return "scan logback";
    }

    @Override
    protected String producerPrefix() {
        return "scan-producer-";
    }

    @Override
    protected String configName() {
        return "logback-scan.xml";
    }

    @Override
    protected Context start(Path config, Path fileA, Path fileB) throws Exception {
        LoggerContext ctx = new LoggerContext();
        ctx.setName("spool-scan");
        List<Status> errors = Collections.synchronizedList(new ArrayList<>());
        ctx.getStatusManager().add(new ErrorCollector(errors));
        JoranConfigurator jc = new JoranConfigurator();
        jc.setContext(ctx);
        jc.doConfigure(config.toFile());
        Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        Logger logger = ctx.getLogger("scan");
        Spool spoolA = spoolOf(root);
        long[] from = new long[PRODUCERS]; // every smaller seq was logged before reset() began
        long[] to = new long[PRODUCERS]; // every larger seq began after the new configuration ended
        CountDownLatch detected = new CountDownLatch(1);
        CountDownLatch reconfigured = new CountDownLatch(1);
        long[] windowNanos = new long[2];
        Spool[] spoolB = new Spool[1];
        return new Context() {
            @Override
            public void log(long seq) {
                logger.info("seq={}", seq);
            }

            @Override
            public void producersCreated(List<SeqProducer> producers) {
                ctx.addConfigurationEventListener(event -> { // survives reset(); runs on logback's scanner thread
                    if (event.getEventType() == ConfigurationEvent.EventType.CHANGE_DETECTED && detected.getCount() == 1) {
                        snapshot(producers, from);
                        windowNanos[0] = System.nanoTime();
                        detected.countDown();
                    } else if (event.getEventType() == ConfigurationEvent.EventType.CONFIGURATION_ENDED_SUCCESSFULLY
                            && detected.getCount() == 0 && reconfigured.getCount() == 1) {
                        snapshot(producers, to);
                        windowNanos[1] = System.nanoTime();
                        reconfigured.countDown();
                    }
                });
            }

            @Override
            public void awaitSwitch() throws InterruptedException {
                assertTrue(reconfigured.await(30, TimeUnit.SECONDS),
                        "logback did not reconfigure within 30 s of the rewrite (scanPeriod 200 ms); errors: " + errors);
                spoolB[0] = spoolOf(root);
                assertEquals(fileB.toString(), ((SpoolAppender) root.getAppender("watched")).getFile(), "new configuration");
            }

            @Override
            public void stop() {
                ctx.stop();
                assertTrue(errors.isEmpty(), () -> "status errors: " + errors);
            }

            @Override
            public String verify(Map<String, List<Long>> a, Map<String, List<Long>> b, long[] produced) {
                int linesA = a.values().stream().mapToInt(List::size).sum();
                int linesB = b.values().stream().mapToInt(List::size).sum();
                for (Object[] s : new Object[][] {{spoolA, linesA, fileA}, {spoolB[0], linesB, fileB}}) {
                    Spool spool = (Spool) s[0];
                    assertTrue(spool.isStopped(), s[2] + ": its Spool was stopped");
                    assertEquals(0, spool.stats().getEventsLost(), s[2] + ": lost to sink errors");
                    assertEquals(0, spool.stats().getEventsDiscarded(), s[2] + ": discarded (BLOCK)");
                    assertEquals(spool.stats().getEventsWritten(), (long) (int) s[1], s[2] + ": holds exactly what its Spool wrote");
                }
                long inWindow = 0;
                long staleList = 0;
                int producersInB = 0;
                for (int t = 0; t < PRODUCERS; t++) {
                    String name = producerPrefix() + t;
                    List<Long> inA = a.getOrDefault(name, List.of());
                    List<Long> inB = b.getOrDefault(name, List.of());
                    final long fromT = from[t];
                    final long toT = to[t];
                    assertIncreasing(name + " in a.log", inA);
                    assertIncreasing(name + " in b.log", inB);
                    if (!inA.isEmpty() && !inB.isEmpty()) {
                        assertTrue(inA.get(inA.size() - 1) < inB.get(0), name + ": an event in a.log after one in b.log");
                    }
                    // Everything logged before reset() began is in the old file: a gap-free prefix.
                    assertTrue(from[t] > 0, name + " logged before the change was detected");
                    for (int i = 0; i < from[t]; i++) {
                        if (i >= inA.size() || inA.get(i) != i) {
                            fail(name + ": seq " + i + " (logged before the reset) missing from a.log");
                        }
                    }
                    // After the new configuration: all in the new file, or (logback's stale list) none.
                    long after = produced[t] - (to[t] + 1);
                    long afterInB = inB.stream().filter(seq -> seq > toT).count();
                    assertTrue(after > 0, name + " logged after the new configuration ended");
                    if (afterInB == 0) {
                        staleList += after;
                    } else {
                        assertEquals(after, afterInB, name + ": events after the new configuration missing from b.log");
                        producersInB++;
                    }
                    long window = Math.min(to[t], produced[t] - 1) - from[t] + 1;
                    long windowWritten = inA.stream().filter(seq -> seq >= fromT).count()
                            + inB.stream().filter(seq -> seq <= toT).count();
                    inWindow += window - windowWritten;
                }
                assertTrue(producersInB == 0 || producersInB == PRODUCERS,
                        "b.log receives every producer or (stale appender list) none: " + producersInB);
                return linesA + " in a.log, " + linesB + " in b.log, each written once and in order; not written: " + inWindow
                        + " logged during logback's reset/configure window ("
                        + TimeUnit.NANOSECONDS.toMillis(windowNanos[1] - windowNanos[0]) + " ms), " + staleList
                        + " lost to logback's stale appender list";
            }
        };
    }

    private static void snapshot(List<SeqProducer> producers, long[] into) {
        for (int t = 0; t < into.length; t++) {
            into[t] = producers.get(t).completed();
        }
    }

    private static void assertIncreasing(String what, List<Long> seqs) {
        for (int i = 1; i < seqs.size(); i++) {
            if (seqs.get(i) <= seqs.get(i - 1)) {
                fail(what + ": seq " + seqs.get(i) + " after " + seqs.get(i - 1));
            }
        }
    }

    private static Spool spoolOf(Logger root) {
        SpoolAppender a = (SpoolAppender) root.getAppender("watched");
        assertNotNull(a, "appender attached");
        Spool s = a.spoolForTest();
        assertNotNull(s, "appender started");
        assertFalse(s.isStopped(), "appender running");
        return s;
    }

    @Override
    protected String configuration(Path file) {
        return "<configuration scan=\"true\" scanPeriod=\"200 milliseconds\">\n"
                + "  <appender name=\"watched\" class=\"io.github.spool.logback.SpoolAppender\">\n"
                + "    <file>" + file + "</file><bufferSize>64KB</bufferSize><maxBufferSize>1MB</maxBufferSize>\n"
                + "    <encoder class=\"io.github.spool.logback.SpoolEncoder\"><pattern>%thread %msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"watched\"/></root>\n"
                + "</configuration>\n";
    }
}
