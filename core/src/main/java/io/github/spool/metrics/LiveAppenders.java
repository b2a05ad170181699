package io.github.spool.metrics;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The running appenders of the JVM, announced to listeners as they start and stop, for metrics
 * libraries that cannot poll JMX (the Micrometer binder). {@link JmxRegistry} keeps it: an
 * appender is live while it owns its MBean name, so a reconfiguration's successor replaces its
 * predecessor here exactly as there (the old one is removed first, then the new one added) and
 * two same-named contexts are told apart by the same id. An appender whose MBean JMX refused (it
 * runs on, with a WARN status) is not announced either. Internal to Spool.
 *
 * <p>Listeners are called one at a time, in order, under this registry's lock, which
 * {@link JmxRegistry} calls into while it holds its own: a listener must not start or stop an
 * appender.
 */
public final class LiveAppenders {

    /** Told when an appender starts or stops. */
    public interface Listener {
        /**
         * An appender started (or was running when the listener subscribed).
         *
         * @param appender the appender
         */
        void added(LiveAppender appender);

        /**
         * An appender stopped, or a successor of the same names replaced it; its figures are final.
         *
         * @param appender the appender, as given to {@link #added}
         */
        void removed(LiveAppender appender);
    }

    /** A listener's subscription. */
    public interface Subscription extends AutoCloseable {
        /** Ends it (idempotent); the listener is not told of the appenders still running then. */
        @Override
        void close();
    }

    /** Guarded by the class: the live appenders in start order. */
    private static final Set<LiveAppender> LIVE = new LinkedHashSet<>();
    /** Guarded by the class. */
    private static final List<Listener> LISTENERS = new ArrayList<>();

    private LiveAppenders() {
    }

    /**
     * Subscribes {@code listener}: it is told of every running appender at once, then of each
     * start and stop until the returned handle is closed.
     *
     * @param listener the listener
     * @return the subscription, to close when the listener is done
     */
    public static synchronized Subscription subscribe(Listener listener) {
        LISTENERS.add(listener);
        for (LiveAppender a : LIVE) {
            listener.added(a);
        }
        return () -> unsubscribe(listener);
    }

    private static synchronized void unsubscribe(Listener listener) {
        LISTENERS.removeIf(l -> l == listener);
    }

    /** @return the running appenders now, in start order */
    public static synchronized List<LiveAppender> snapshot() {
        return new ArrayList<>(LIVE);
    }

    static synchronized void added(LiveAppender appender) {
        LIVE.add(appender);
        for (Listener l : LISTENERS) {
            notify(() -> l.added(appender));
        }
    }

    static synchronized void removed(LiveAppender appender) {
        if (LIVE.remove(appender)) {
            for (Listener l : LISTENERS) {
                notify(() -> l.removed(appender));
            }
        }
    }

    /** A failing listener must not fail an appender's start or stop, nor keep others from being told. */
    private static void notify(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            // the metrics library's problem; the appender runs on
        }
    }
}
