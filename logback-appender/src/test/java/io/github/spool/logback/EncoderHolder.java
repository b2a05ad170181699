package io.github.spool.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.encoder.Encoder;

/**
 * An appender that only holds the encoder Joran configured for it: lets a test configure two
 * encoders from the same logback XML elements and call them directly. Test support.
 */
public final class EncoderHolder extends AppenderBase<ILoggingEvent> {

    private Encoder<ILoggingEvent> encoder;

    /** @param encoder the encoder Joran built */
    public void setEncoder(Encoder<ILoggingEvent> encoder) {
        this.encoder = encoder;
    }

    Encoder<ILoggingEvent> encoder() {
        return encoder;
    }

    @Override
    protected void append(ILoggingEvent event) {
        // holds only
    }
}
