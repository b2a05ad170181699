package io.github.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The size syntax both adapters accept for {@code bufferSize} and {@code maxBufferSize}. */
class ByteSizeTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({"1048576,1048576", "1 MiB,1048576", "1MB,1048576", "512KB,524288", "512 kib,524288", "64k,65536",
        "2g,2147483648", "0.5M,524288", "100 B,100", "10MBs,10485760", "3 kbs,3072", " 7 GB ,7516192768"})
    void parsesBinaryUnitsOfLog4j2AndLogback(String text, long bytes) {
        assertEquals(bytes, ByteSize.parse("bufferSize", text));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "MB", "1 TB", "-1", "1,5 MB", "1 MiBs", "99999999999 GB"})
    void rejectsWhatIsNotASizeNamingTheSetting(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("maxBufferSize", text));
        assertTrue(e.getMessage().startsWith("maxBufferSize '" + text + "' is not a size"), e.getMessage());
    }
}
