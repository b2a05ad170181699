package io.github.spool.micrometer;

import io.github.spool.metrics.LiveAppender;
import io.github.spool.metrics.LiveAppenders;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Follows the live appenders into one registry: registers an appender's meters when it starts and
 * removes them when it stops, so that redeploys and reconfigurations leave no meters behind.
 */
final class RegistryBinding implements LiveAppenders.Listener {
    private final MeterRegistry registry;
    private final Tags common;
    /** Guarded by this: the meters of each live appender. */
    private final Map<LiveAppender, List<Meter>> meters = new IdentityHashMap<>();
    private LiveAppenders.Subscription subscription;
    private boolean closed;

    RegistryBinding(MeterRegistry registry, Tags common) {
        this.registry = registry;
        this.common = common;
    }

    /** Subscribes; the appenders running now get their meters before it returns. */
    void open() {
        LiveAppenders.Subscription s = LiveAppenders.subscribe(this);
        synchronized (this) {
            subscription = s;
        }
    }

    @Override
    public synchronized void added(LiveAppender appender) {
        if (!closed) {
            meters.put(appender, AppenderMeters.register(registry, appender, common));
        }
    }

    @Override
    public synchronized void removed(LiveAppender appender) {
        List<Meter> gone = meters.remove(appender);
        if (gone != null) {
            gone.forEach(registry::remove);
        }
    }

    /** Stops following and removes every meter it registered. */
    void close() {
        LiveAppenders.Subscription s;
        synchronized (this) {
            closed = true;
            s = subscription;
        }
        if (s != null) {
            s.close(); // no callback runs after this returns: they run under the registry's lock
        }
        synchronized (this) {
            meters.values().forEach(ms -> ms.forEach(registry::remove));
            meters.clear();
        }
    }
}
