package io.github.spool.logback.spring;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;

/**
 * Turns logback's packaging data on once the appenders before it have started, the order Spring
 * Boot's {@code LogbackLoggingSystem} keeps when there is no logback file: it applies its
 * {@code DefaultLogbackConfiguration} (the encoders start, and logback's
 * {@code EnsureExceptionHandling} appends {@code %ex} to a pattern that prints no throwable, without
 * packaging data as the flag is still off), then calls {@code setPackagingDataEnabled(true)}. So
 * {@code %wEx} frames end in {@code ~[app.jar:1.0]} and a custom pattern's appended {@code %ex}
 * frames do not. {@code <configuration packagingData="true">} turns it on before any encoder starts
 * and would print the suffix on both; an included file has no other place after the appenders.
 *
 * <p>An appender only because logback runs appenders, in document order, after every other element
 * (its second phase) and only when a logger refers to them: {@code base.xml} declares it after its
 * appenders and the root logger refers to it. It prints nothing and leaves the root logger at the
 * first event, so that later events do not pass through it.
 */
public final class PackagingDataSwitch extends UnsynchronizedAppenderBase<ILoggingEvent> {

    /** Instantiated by logback's configurator. */
    public PackagingDataSwitch() {
    }

    @Override
    public void start() {
        if (getContext() instanceof LoggerContext) {
            ((LoggerContext) getContext()).setPackagingDataEnabled(true);
        }
        super.start();
    }

    @Override
    protected void append(ILoggingEvent event) {
        if (getContext() instanceof LoggerContext) {
            Logger root = ((LoggerContext) getContext()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
            root.detachAppender(this); // safe during the root's loop: it iterates over a snapshot
        }
    }
}
