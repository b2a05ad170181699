package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import io.github.spool.text.ByteLineBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

/**
 * Takes {@code LogstashEncoder}'s {@code customFields} bytes from the real encoder itself, once at
 * start: it parses the JSON with Jackson and writes the tree back with Jackson's number, escape and
 * duplicate-key rules, after every other field, the same bytes for every event. So one plain event
 * is encoded by it and by Spool's line without custom fields: Spool's line without its closing
 * brace must be where the real one starts, and what follows, up to the closing brace, are the
 * custom fields. When Spool's part differs, Spool does not reproduce this configuration (the caller
 * then leaves every line to the real encoder). Internal.
 */
final class CustomFieldsProbe {

    private CustomFieldsProbe() {
    }

    /**
     * @param real  the started real encoder, configured as Spool's
     * @param spool Spool's line for the same settings, without custom fields
     * @return the custom fields, without a leading comma (empty if none), or {@code null} if Spool's
     *         line is not the start of the real one
     */
    static byte[] customFields(Encoder<ILoggingEvent> real, LogstashJsonLine spool) {
        LoggingEvent event = new LoggingEvent();
        event.setLoggerName("probe"); // no spool. prefix: the docs test takes such literals for system properties
        event.setThreadName("probe");
        event.setLevel(Level.INFO);
        event.setMessage("probe");
        event.setInstant(Instant.ofEpochSecond(1_700_000_000L, 123_000_000));
        event.setMDCPropertyMap(Map.of());
        byte[] theirs = real.encode(event);
        ByteLineBuilder b = new ByteLineBuilder(256);
        spool.render(event, b);
        byte[] end = ("}" + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
        int mine = b.length() - end.length;
        int tail = theirs.length - end.length;
        if (mine < 1 || tail < mine || !Arrays.equals(b.array(), 0, mine, theirs, 0, mine)
                || !Arrays.equals(theirs, tail, theirs.length, end, 0, end.length)) {
            return null;
        }
        int from = mine;
        if (mine > 1 && from < tail) { // after another field: Jackson's comma
            if (theirs[from] != ',') {
                return null;
            }
            from++;
        }
        return Arrays.copyOfRange(theirs, from, tail);
    }
}
