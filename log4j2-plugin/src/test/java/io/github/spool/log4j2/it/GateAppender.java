package io.github.spool.log4j2.it;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.Core;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;

/**
 * {@code <SpoolTestGate name="gate"/>}: holds the thread that appends through it until
 * {@link #open()}, so that an async front end's thread reaches the appenders after it only once the
 * test has done what it does at the call (change a logged {@code StringBuilder}, reuse log4j2's
 * {@code Unbox} slots). Put first among the front end's refs.
 */
@Plugin(name = "SpoolTestGate", category = Core.CATEGORY_NAME, elementType = Appender.ELEMENT_TYPE)
public final class GateAppender extends AbstractAppender {

    private static volatile CountDownLatch gate = new CountDownLatch(0);

    private GateAppender(String name) {
        super(name, null, null, true, Property.EMPTY_ARRAY);
    }

    /**
     * @param name the appender's name
     * @return the appender
     */
    @PluginFactory
    public static GateAppender create(@PluginAttribute("name") String name) {
        return new GateAppender(name);
    }

    /** Holds appending threads from now until {@link #open()}. */
    static void close() {
        gate = new CountDownLatch(1);
    }

    /** Lets every held and later appending thread through. */
    static void open() {
        gate.countDown();
    }

    @Override
    public void append(LogEvent event) {
        try {
            if (!gate.await(60, TimeUnit.SECONDS)) { // a bound, not a synchronisation: open() ends the wait
                throw new IllegalStateException("gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
