// SPDX-License-Identifier: Apache-2.0
package io.github.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lenient reading both adapters share: every path gives a configuration that builds, and the
 * status says what was wrong and what is used instead.
 */
class SettingsReaderTest {

    private final RecordedStatus status = new RecordedStatus();
    private final SettingsReader reader = new SettingsReader("a", status);

    private SpoolConfig sizes(String bufferSize, String maxBufferSize) {
        SpoolConfig.Builder b = SpoolConfig.builder("a");
        reader.ringSizes(b, bufferSize, maxBufferSize);
        return b.build();
    }

    @Test
    void unsetSizesAreTheDefaultsWithoutAStatus() {
        SpoolConfig c = sizes(null, null);
        assertEquals(SpoolConfig.DEFAULT_BUFFER_SIZE, c.bufferSize());
        assertEquals(SpoolConfig.DEFAULT_MAX_BUFFER_SIZE, c.maxBufferSize());
        assertEquals(List.of(), status.messages);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"0,0", "1024,1024", "1KB,1024", "8191,8191"})
    void aBufferSizeBelowTheMinimumIsRaisedWithAWarn(String text, long bytes) {
        assertEquals(SpoolConfig.MIN_BUFFER_SIZE, sizes(text, null).bufferSize());
        assertEquals(List.of("WARN spool appender 'a': bufferSize '" + text + "' (" + bytes + " bytes) is below the "
                + "minimum of 8192 bytes; using 8192 bytes (Spool's bufferSize is the initial size of its ring, which "
                + "grows up to maxBufferSize, not an I/O buffer)"), status.messages);
    }

    @Test
    void theMinimumItselfIsAccepted() {
        assertEquals(SpoolConfig.MIN_BUFFER_SIZE, sizes("8KB", null).bufferSize());
        assertEquals(List.of(), status.messages);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"lots", "-1", "1 TB", ""})
    void anUnparseableBufferSizeIsAnErrorAndTheDefault(String text) {
        SpoolConfig c = sizes(text, null);
        assertEquals(SpoolConfig.DEFAULT_BUFFER_SIZE, c.bufferSize());
        assertEquals(1, status.messages.size(), status::toString);
        assertTrue(status.messages.get(0).startsWith("ERROR spool appender 'a': bufferSize '" + text + "' is not a size"),
                status::toString);
        assertTrue(status.messages.get(0).endsWith("; using the default of 1048576 bytes"), status::toString);
    }

    @Test
    void anUnparseableMaxBufferSizeIsAnErrorAndTheDefault() {
        SpoolConfig c = sizes("64KB", "big");
        assertEquals(SpoolConfig.DEFAULT_MAX_BUFFER_SIZE, c.maxBufferSize());
        assertEquals(1, status.count(StatusListener.Level.ERROR), status::toString);
        assertTrue(status.messages.get(0).contains("maxBufferSize 'big' is not a size"), status::toString);
    }

    @Test
    void aMaxBelowTheBufferSizeIsRaisedToItWithAWarn() {
        SpoolConfig c = sizes("1MB", "64KB");
        assertEquals(1L << 20, c.maxBufferSize());
        assertEquals(List.of("WARN spool appender 'a': maxBufferSize '64KB' (65536 bytes) is below bufferSize "
                + "(1048576 bytes); using 1048576 bytes"), status.messages);
    }

    @Test
    void aBufferSizeAboveTheDefaultCapRaisesTheCapWithAnInfo() {
        SpoolConfig c = sizes("64MB", null);
        assertEquals(64L << 20, c.bufferSize());
        assertEquals(64L << 20, c.maxBufferSize());
        assertEquals(1, status.count(StatusListener.Level.INFO), status::toString);
        assertEquals(0, status.count(StatusListener.Level.WARN), status::toString);
    }

    @Test
    void sizesAboveOneTebibyteAreLoweredWithAWarn() {
        SpoolConfig c = sizes("2048 GB", "4096GB");
        assertEquals(SpoolConfig.MAX_BUFFER_LIMIT, c.bufferSize());
        assertEquals(SpoolConfig.MAX_BUFFER_LIMIT, c.maxBufferSize());
        assertEquals(2, status.count(StatusListener.Level.WARN), status::toString);
        assertTrue(status.messages.get(0).contains("bufferSize '2048 GB' (2199023255552 bytes) is above the limit"),
                status::toString);
        assertTrue(status.messages.get(1).contains("maxBufferSize '4096GB'"), status::toString);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"true,true", "TRUE,true", " false ,false", "False,false"})
    void flagsAreTrueOrFalseIgnoringCase(String text, boolean value) {
        assertEquals(value, reader.flag("follow", text, !value));
        assertEquals(List.of(), status.messages);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"yes", "1", "", "on"})
    void anythingElseIsAnErrorAndTheDefault(String text) {
        assertFalse(reader.flag("follow", text, false));
        assertEquals(List.of("ERROR spool appender 'a': follow '" + text + "' is neither true nor false; using the "
                + "default false"), status.messages);
    }

    @Test
    void anUnsetFlagIsItsDefault() {
        assertTrue(reader.flag("append", null, true));
        assertEquals(List.of(), status.messages);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"-1", "ten", "1.5", ""})
    void aWholeNumberThatIsNotIsAnErrorAndTheFallback(String text) {
        assertEquals(7, reader.wholeNumber("maxFlushTime", text, 7, "seven"));
        assertEquals(List.of("ERROR spool appender 'a': maxFlushTime '" + text + "' is not a whole number of at "
                + "least 0; using seven"), status.messages);
    }

    @Test
    void wholeNumbersParse() {
        assertEquals(0, reader.wholeNumber("queueSize", "0", 7, "seven"));
        assertEquals(256, reader.wholeNumber("queueSize", " 256 ", 7, "seven"));
        assertEquals(List.of(), status.messages);
    }

    @Test
    void aParserErrorIsReportedWithTheFallback() {
        OverflowPolicy p = reader.parse("DROP", t -> {
            throw new IllegalArgumentException("overflowPolicy '" + t + "' is unknown");
        }, OverflowPolicy.BLOCK, "the default BLOCK");
        assertEquals(OverflowPolicy.BLOCK, p);
        assertEquals(List.of("ERROR spool appender 'a': overflowPolicy 'DROP' is unknown; using the default BLOCK"),
                status.messages);
    }
}
