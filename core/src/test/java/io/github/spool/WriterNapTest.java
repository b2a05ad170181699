package io.github.spool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** The per-appender writer nap: validated, and the writer wakes no more often than it says. */
class WriterNapTest {

    @Test
    void theNapIsValidatedAndDefaultsToTheJvmSetting() {
        for (long bad : new long[] {0, -5, SpoolConfig.MAX_WRITER_NAP_MICROS + 1}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SpoolConfig.builder("nap").writerNapMicros(bad).build());
            assertTrue(e.getMessage().contains("writerNapMicros " + bad), e.getMessage());
        }
        assertEquals(1, SpoolConfig.builder("nap").writerNapMicros(1).build().writerNapMicros());
        assertEquals(SpoolConfig.MAX_WRITER_NAP_MICROS,
                SpoolConfig.builder("nap").writerNapMicros(SpoolConfig.MAX_WRITER_NAP_MICROS).build().writerNapMicros());
        assertEquals(Long.getLong(SpoolConfig.WRITER_NAP_PROPERTY, SpoolConfig.DEFAULT_WRITER_NAP_MICROS),
                SpoolConfig.builder("nap").build().writerNapMicros());
    }

    @Test
    void aLongNapBatchesATrickleIntoFewWritesAndLosesNothing() throws Exception {
        // One line a millisecond for about 0.6 s. With a 100 ms nap the writer may wake about
        // six times (plus the wake-up that ends its first idle sleep, and the drain); with the
        // default 5 ms nap, ignored per-appender setting, it would make over a hundred writes.
        final long napMicros = 100_000;
        final TestSink sink = new TestSink();
        final Spool spool = Spool.start(SpoolConfig.builder("nap-long").writerNapMicros(napMicros).build(), sink);
        final ByteArrayOutputStream expected = new ByteArrayOutputStream();
        final long start = System.nanoTime();
        for (int i = 0; i < 600; i++) {
            final byte[] line = ("line " + i + "\n").getBytes(StandardCharsets.US_ASCII);
            expected.write(line);
            assertEquals(AppendResult.ACCEPTED, spool.append(line, 0, line.length, Severity.INFO));
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        final long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(spool.stop(10, TimeUnit.SECONDS), "drained");
        assertArrayEquals(expected.toByteArray(), sink.toByteArray());
        final long bound = elapsedMillis * 1000 / napMicros + 4;
        assertTrue(sink.writes() <= bound, sink.writes() + " writes in " + elapsedMillis + " ms, at most " + bound);
    }
}
