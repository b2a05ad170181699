package io.github.spool.logback.it;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.spi.AppenderAttachable;
import ch.qos.logback.core.spi.AppenderAttachableImpl;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds the thread that appends through it until {@link #open()}, then hands the event to its
 * {@code appender-ref}s in order: behind an {@code AsyncAppender} (which takes one appender), the
 * worker reaches them only once the test has done what it does at the call (change a logged
 * {@code StringBuilder}).
 */
public final class GateAppender extends AppenderBase<ILoggingEvent> implements AppenderAttachable<ILoggingEvent> {

    private static volatile CountDownLatch gate = new CountDownLatch(0);

    private final AppenderAttachableImpl<ILoggingEvent> appenders = new AppenderAttachableImpl<>();

    /** Holds appending threads from now until {@link #open()}. */
    static void close() {
        gate = new CountDownLatch(1);
    }

    /** Lets every held and later appending thread through. */
    static void open() {
        gate.countDown();
    }

    @Override
    protected void append(ILoggingEvent event) {
        try {
            if (!gate.await(60, TimeUnit.SECONDS)) { // a bound, not a synchronisation: open() ends the wait
                throw new IllegalStateException("gate never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        appenders.appendLoopOnAppenders(event);
    }

    @Override
    public void stop() {
        super.stop();
        appenders.detachAndStopAllAppenders();
    }

    @Override
    public void addAppender(Appender<ILoggingEvent> appender) {
        appenders.addAppender(appender);
    }

    @Override
    public Iterator<Appender<ILoggingEvent>> iteratorForAppenders() {
        return appenders.iteratorForAppenders();
    }

    @Override
    public Appender<ILoggingEvent> getAppender(String name) {
        return appenders.getAppender(name);
    }

    @Override
    public boolean isAttached(Appender<ILoggingEvent> appender) {
        return appenders.isAttached(appender);
    }

    @Override
    public void detachAndStopAllAppenders() {
        appenders.detachAndStopAllAppenders();
    }

    @Override
    public boolean detachAppender(Appender<ILoggingEvent> appender) {
        return appenders.detachAppender(appender);
    }

    @Override
    public boolean detachAppender(String name) {
        return appenders.detachAppender(name);
    }
}
