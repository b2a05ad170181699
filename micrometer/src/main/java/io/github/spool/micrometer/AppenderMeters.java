package io.github.spool.micrometer;

import io.github.spool.Severity;
import io.github.spool.metrics.LiveAppender;
import io.github.spool.metrics.SpoolAppenderStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The meters of one appender, all read from its {@link SpoolAppenderStats} (the MBean's figures)
 * when the registry asks: nothing is counted twice and the logging path pays nothing. The meters
 * hold the stats weakly (Micrometer's default); {@link SpoolMetrics} keeps them alive until the
 * appender stops.
 */
final class AppenderMeters {
    /** Tag: the logging context's name, {@code <name>#<id>} for a second live context of that name. */
    static final String CONTEXT_TAG = "context";
    /** Tag: the appender's name. */
    static final String APPENDER_TAG = "appender";
    /** Tag of {@code spool.events.discarded}: the level, {@code TRACE} … {@code FATAL}. */
    static final String LEVEL_TAG = "level";

    private AppenderMeters() {
    }

    /** @return the tags that tell {@code appender}'s meters from every other live appender's */
    static Tags tags(LiveAppender appender, Tags common) {
        String context = appender.id() > 1 ? appender.context() + "#" + appender.id() : appender.context();
        return common.and(CONTEXT_TAG, context, APPENDER_TAG, appender.name());
    }

    /**
     * Registers the meters of {@code appender}.
     *
     * @return them, for removal when the appender stops
     */
    static List<Meter> register(MeterRegistry registry, LiveAppender appender, Tags common) {
        Tags tags = tags(appender, common);
        SpoolAppenderStats stats = appender.stats();
        List<Meter> meters = new ArrayList<>(16);
        meters.add(counter(registry, "spool.events.written", stats, SpoolAppenderStats::getEventsWritten, tags,
                "Events written to the sink", null));
        meters.add(counter(registry, "spool.events.lost", stats, SpoolAppenderStats::getEventsLost, tags,
                "Accepted events not written: lost to a failing sink, a failed producer, or the stop deadline", null));
        for (int s = 0; s < Severity.COUNT; s++) {
            int severity = s;
            meters.add(counter(registry, "spool.events.discarded", stats, st -> st.eventsDiscarded(severity),
                    tags.and(LEVEL_TAG, Severity.name(s)),
                    "Events dropped at the buffer cap under the DISCARD policy, never accepted", null));
        }
        meters.add(counter(registry, "spool.write.bytes", stats, SpoolAppenderStats::getBytesWritten, tags,
                "Bytes written to the sink, discard summary lines included", BaseUnits.BYTES));
        meters.add(counter(registry, "spool.write.errors", stats, SpoolAppenderStats::getWriteErrors, tags,
                "Failed writes to the sink", null));
        meters.add(FunctionTimer.builder("spool.sink.writes", stats, SpoolAppenderStats::timedWrites,
                        SpoolAppenderStats::writeNanos, TimeUnit.NANOSECONDS)
                .tags(tags).description("The writer's write calls to the sink (each one write(2) or writev(2)), "
                        + "a rollover they trigger included")
                .register(registry));
        meters.add(FunctionTimer.builder("spool.producer.waits", stats, SpoolAppenderStats::producerWaits,
                        SpoolAppenderStats::producerWaitNanos, TimeUnit.NANOSECONDS)
                .tags(tags).description("Logging calls that waited for room at the buffer cap (BLOCK), "
                        + "counted when the wait ends")
                .register(registry));
        meters.add(gauge(registry, "spool.buffer.used", stats, SpoolAppenderStats::getBufferBytesInUse, tags,
                "Buffer bytes allocated now (cells in use and pooled)"));
        meters.add(gauge(registry, "spool.buffer.high.water", stats, SpoolAppenderStats::getBufferBytesHighWater, tags,
                "The most buffer bytes allocated at once since the appender started"));
        meters.add(gauge(registry, "spool.buffer.max", stats, SpoolAppenderStats::getBufferBytesMax, tags,
                "The buffer's cap, maxBufferSize"));
        return meters;
    }

    private static Meter counter(MeterRegistry registry, String name, SpoolAppenderStats stats,
                                 ToDoubleFunction<SpoolAppenderStats> f, Tags tags, String description, String unit) {
        return FunctionCounter.builder(name, stats, f).tags(tags).description(description).baseUnit(unit)
                .register(registry);
    }

    private static Meter gauge(MeterRegistry registry, String name, SpoolAppenderStats stats,
                               ToDoubleFunction<SpoolAppenderStats> f, Tags tags, String description) {
        return Gauge.builder(name, stats, f).tags(tags).description(description).baseUnit(BaseUnits.BYTES)
                .register(registry);
    }
}
