package io.github.spool.micrometer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.ArrayList;
import java.util.List;

/**
 * Micrometer meters for every running Spool appender of the JVM, tagged {@code context} (the
 * logging context's name) and {@code appender} (the appender's name): events written, lost and
 * discarded (per {@code level}), bytes written, write errors, the writer's write time, and the
 * buffer's bytes in use, high-water mark and cap. The values are the appender's MBean's
 * ({@code io.github.spool:type=Appender,...}), read when the registry asks.
 *
 * <p>Appenders that start later (a reconfiguration, a redeployed application) get their meters
 * when they start; an appender's meters are removed from the registry when it stops. A second
 * live logging context of the same name is tagged {@code context=<name>#2} (its MBean has
 * {@code id=2}). {@link #close()} stops following and removes the meters.
 *
 * <pre>{@code
 * new SpoolMetrics().bindTo(registry);
 * }</pre>
 *
 * In a Spring Boot application with Actuator nothing is needed: the auto-configuration in this
 * artifact binds it to the application's registry.
 */
public final class SpoolMetrics implements MeterBinder, AutoCloseable {
    private final Tags tags;
    /** Guarded by this. */
    private final List<RegistryBinding> bindings = new ArrayList<>();
    /** Guarded by this. */
    private boolean closed;

    /** Meters tagged {@code context} and {@code appender} only. */
    public SpoolMetrics() {
        this(Tags.empty());
    }

    /**
     * @param tags added to every meter, beside {@code context} and {@code appender}
     */
    public SpoolMetrics(Iterable<Tag> tags) {
        this.tags = Tags.of(tags);
    }

    /**
     * Registers the meters of the running appenders in {@code registry}, and from now on those of
     * each appender that starts, removing each stopped appender's. Bind an instance once per
     * registry.
     *
     * @param registry the registry
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        RegistryBinding b = new RegistryBinding(registry, tags);
        synchronized (this) {
            if (closed) {
                return;
            }
            bindings.add(b);
        }
        b.open();
    }

    /** Stops following the appenders and removes every meter this binder registered. */
    @Override
    public void close() {
        List<RegistryBinding> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(bindings);
            bindings.clear();
        }
        all.forEach(RegistryBinding::close);
    }
}
