package io.github.spool.micrometer;

import io.github.spool.AppendResult;
import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;
import io.github.spool.metrics.SpoolAppenderStats;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.RequiredSearch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The binder's values are the MBean's, and it holds meters of live appenders only. */
class SpoolMetricsTest {
    private static final int RECORD = 100;
    private static final int METERS_PER_APPENDER = PrometheusText.METERS_PER_APPENDER;

    private static byte[] record(int seq) {
        byte[] r = new byte[RECORD];
        Arrays.fill(r, (byte) 'x');
        byte[] n = Integer.toString(seq).getBytes();
        System.arraycopy(n, 0, r, 0, n.length);
        r[RECORD - 1] = '\n';
        return r;
    }

    private static SpoolConfig.Builder config(String context, String name) {
        return SpoolConfig.builder(name).context(context).statusListener((level, message, cause) -> { });
    }

    private static List<Meter> metersOf(MeterRegistry registry, String context) {
        List<Meter> mine = new ArrayList<>();
        for (Meter m : registry.getMeters()) {
            if (context.equals(m.getId().getTag(AppenderMeters.CONTEXT_TAG))) {
                mine.add(m);
            }
        }
        return mine;
    }

    private static RequiredSearch meter(MeterRegistry registry, String name, String context, String appender) {
        return registry.get(name).tag(AppenderMeters.CONTEXT_TAG, context).tag(AppenderMeters.APPENDER_TAG, appender);
    }

    /** The writer's counters move on its thread: wait, bounded, for the state a test needs. */
    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting for " + what);
            Thread.onSpinWait();
        }
    }

    @Test
    void valuesEqualTheMBeansAfterForcedDiscards() {
        String context = "metrics-values";
        GatedSink sink = new GatedSink();
        Spool spool = Spool.start(config(context, "SPOOL").bufferSize(16 << 10).maxBufferSize(64 << 10)
                .overflowPolicy(OverflowPolicy.DISCARD).discardThreshold(Severity.INFO).build(), sink);
        MeterRegistry registry = new SimpleMeterRegistry();
        SpoolMetrics metrics = new SpoolMetrics();
        metrics.bindTo(registry);
        try {
            int lines = 100_000;
            long accepted = 0;
            for (int i = 0; i < lines; i++) {
                int severity = i % 2 == 0 ? Severity.DEBUG : Severity.INFO;
                accepted += spool.append(record(i), 0, RECORD, severity) == AppendResult.ACCEPTED ? 1 : 0;
            }
            SpoolAppenderStats stats = spool.stats();
            assertTrue(stats.getEventsDiscarded() > 0, "the stalled sink forced discards");
            assertEqualsMBean(registry, context, stats); // while stalled, at the cap
            assertEquals(stats.getBufferBytesMax(), stats.getBufferBytesHighWater(), "stalled at the cap");

            sink.open();
            long written = accepted;
            await(() -> stats.getEventsWritten() == written && stats.getBufferBytesInUse() <= stats.getBufferBytesHighWater(),
                    "the backlog to drain");
            assertEquals(lines, stats.getEventsWritten() + stats.getEventsDiscarded());
            assertEqualsMBean(registry, context, stats);
            assertTrue(meter(registry, "spool.sink.writes", context, "SPOOL").functionTimer().count() > 0);
        } finally {
            spool.stop(10, TimeUnit.SECONDS);
            metrics.close();
        }
    }

    private static void assertEqualsMBean(MeterRegistry registry, String context, SpoolAppenderStats s) {
        assertEquals(s.getEventsWritten(), meter(registry, "spool.events.written", context, "SPOOL").functionCounter().count());
        assertEquals(s.getEventsLost(), meter(registry, "spool.events.lost", context, "SPOOL").functionCounter().count());
        double discarded = 0;
        for (int level = 0; level < Severity.COUNT; level++) {
            String name = Severity.name(level);
            double v = meter(registry, "spool.events.discarded", context, "SPOOL").tag(AppenderMeters.LEVEL_TAG, name)
                    .functionCounter().count();
            assertEquals((double) s.getEventsDiscardedByLevel().get(name), v, name);
            discarded += v;
        }
        assertEquals(s.getEventsDiscarded(), discarded);
        assertEquals(s.getBytesWritten(), meter(registry, "spool.write.bytes", context, "SPOOL").functionCounter().count());
        assertEquals(s.getWriteErrors(), meter(registry, "spool.write.errors", context, "SPOOL").functionCounter().count());
        FunctionTimer t = meter(registry, "spool.sink.writes", context, "SPOOL").functionTimer();
        assertEquals(s.timedWrites(), (long) t.count());
        assertEquals(s.writeNanos(), t.totalTime(TimeUnit.NANOSECONDS), 1.0, "ns, through the registry's seconds");
        FunctionTimer w = meter(registry, "spool.producer.waits", context, "SPOOL").functionTimer();
        assertEquals(s.producerWaits(), (long) w.count());
        assertEquals(s.producerWaitNanos(), w.totalTime(TimeUnit.NANOSECONDS), 1.0, "ns, through the registry's seconds");
        assertEquals(s.getBufferBytesInUse(), meter(registry, "spool.buffer.used", context, "SPOOL").gauge().value());
        assertEquals(s.getBufferBytesHighWater(), meter(registry, "spool.buffer.high.water", context, "SPOOL").gauge().value());
        assertEquals(s.getBufferBytesMax(), meter(registry, "spool.buffer.max", context, "SPOOL").gauge().value());
    }

    @Test
    void producersWaitingAtTheCapAreTimed() throws Exception {
        String context = "metrics-waits";
        GatedSink sink = new GatedSink();
        Spool spool = Spool.start(config(context, "SPOOL").bufferSize(16 << 10).maxBufferSize(64 << 10)
                .overflowPolicy(OverflowPolicy.BLOCK).build(), sink);
        MeterRegistry registry = new SimpleMeterRegistry();
        SpoolMetrics metrics = new SpoolMetrics();
        metrics.bindTo(registry);
        try {
            Thread producer = new Thread(() -> {
                for (int i = 0; i < 2_000; i++) {
                    spool.append(record(i), 0, RECORD, Severity.INFO);
                }
            }, "metrics-producer");
            producer.start();
            await(spool::producersWaiting, "the producer to wait at the cap");
            sink.open();
            producer.join();
            SpoolAppenderStats stats = spool.stats();
            // Compared once the writer is done: it writes on while the figures are read otherwise.
            await(() -> stats.getEventsWritten() == 2_000, "the backlog to drain");
            assertTrue(stats.producerWaits() >= 1, "the producer waited");
            assertTrue(stats.producerWaitNanos() > 0);
            // The timer only: the buffer gauges may move under the comparison (the idle trim).
            FunctionTimer w = meter(registry, "spool.producer.waits", context, "SPOOL").functionTimer();
            assertEquals(stats.producerWaits(), (long) w.count());
            assertEquals(stats.producerWaitNanos(), w.totalTime(TimeUnit.NANOSECONDS), 1.0);
        } finally {
            spool.stop(10, TimeUnit.SECONDS);
            metrics.close();
        }
    }

    @Test
    void twentyRestartsLeaveOnlyTheLiveAppendersMeters() {
        String context = "metrics-restarts";
        Object identity = new Object();
        MeterRegistry registry = new SimpleMeterRegistry();
        SpoolMetrics metrics = new SpoolMetrics();
        metrics.bindTo(registry);
        Spool steady = Spool.start(config(context, "steady").contextIdentity(identity).build(), new GatedSink().opened());
        Spool current = null;
        try {
            for (int i = 0; i < 20; i++) {
                // A reconfiguration: the successor starts before its predecessor stops (log4j2's order).
                long max = (64L << 10) + i * 1024L;
                Spool next = Spool.start(config(context, "cycled").contextIdentity(identity).bufferSize(16 << 10).maxBufferSize(max).build(),
                        new GatedSink().opened());
                assertEquals(max, meter(registry, "spool.buffer.max", context, "cycled").gauge().value(),
                        "the successor owns the names at once");
                if (current != null) {
                    assertTrue(current.stop(10, TimeUnit.SECONDS));
                }
                current = next;
                // A short-lived appender beside them (added, then removed by a reconfiguration).
                Spool once = Spool.start(config(context, "once-" + i).contextIdentity(identity).build(), new GatedSink().opened());
                assertEquals(3 * METERS_PER_APPENDER, metersOf(registry, context).size());
                assertTrue(once.stop(10, TimeUnit.SECONDS));

                assertEquals(2 * METERS_PER_APPENDER, metersOf(registry, context).size(), "cycle " + i);
                assertEquals(max, meter(registry, "spool.buffer.max", context, "cycled").gauge().value());
                assertEquals(1, registry.find("spool.buffer.max").tag(AppenderMeters.CONTEXT_TAG, context)
                        .tag(AppenderMeters.APPENDER_TAG, "cycled").meters().size());
            }
            assertTrue(current.stop(10, TimeUnit.SECONDS));
            assertTrue(steady.stop(10, TimeUnit.SECONDS));
            assertEquals(List.of(), metersOf(registry, context), "no appender: no meters");
        } finally {
            steady.stop(10, TimeUnit.SECONDS);
            if (current != null) {
                current.stop(10, TimeUnit.SECONDS);
            }
            metrics.close();
        }
    }

    @Test
    void sameNamedContextsAreToldApart() {
        String context = "metrics-twins";
        MeterRegistry registry = new SimpleMeterRegistry();
        SpoolMetrics metrics = new SpoolMetrics();
        metrics.bindTo(registry);
        Spool a = Spool.start(config(context, "app").contextIdentity(new Object()).bufferSize(16 << 10).maxBufferSize(64 << 10).build(),
                new GatedSink().opened());
        Spool b = Spool.start(config(context, "app").contextIdentity(new Object()).bufferSize(16 << 10).maxBufferSize(128 << 10).build(),
                new GatedSink().opened());
        try {
            assertEquals(64 << 10, meter(registry, "spool.buffer.max", context, "app").gauge().value());
            assertEquals(128 << 10, meter(registry, "spool.buffer.max", context + "#2", "app").gauge().value());
            assertTrue(a.stop(10, TimeUnit.SECONDS));
            assertEquals(128 << 10, meter(registry, "spool.buffer.max", context + "#2", "app").gauge().value(),
                    "stopping one context's appender leaves the other's meters");
            assertEquals(METERS_PER_APPENDER, metersOf(registry, context + "#2").size());
            assertEquals(List.of(), metersOf(registry, context));
        } finally {
            a.stop(10, TimeUnit.SECONDS);
            b.stop(10, TimeUnit.SECONDS);
            metrics.close();
        }
    }

    @Test
    void closeRemovesTheMetersAndStopsFollowing() {
        String context = "metrics-close";
        MeterRegistry registry = new SimpleMeterRegistry();
        SpoolMetrics metrics = new SpoolMetrics();
        metrics.bindTo(registry);
        Spool before = Spool.start(config(context, "before").build(), new GatedSink().opened());
        Spool after = null;
        try {
            assertEquals(METERS_PER_APPENDER, metersOf(registry, context).size(), () -> metersOf(registry, context).toString());
            metrics.close();
            assertEquals(List.of(), metersOf(registry, context));
            after = Spool.start(config(context, "after").build(), new GatedSink().opened());
            assertEquals(List.of(), metersOf(registry, context), "a closed binder follows no appender");
        } finally {
            before.stop(10, TimeUnit.SECONDS);
            if (after != null) {
                after.stop(10, TimeUnit.SECONDS);
            }
        }
    }
}
