package io.github.spool.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.spool.time.TimestampFormat;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

/** The start-up warm-ups run the real paths and get them right (nothing lost, the right bytes). */
class WarmUpTest {

    @Test
    void ringWarmUpCollectsEveryRecordItAppendsAcrossItsCellSwitches() {
        // Five records per cell switch; one lost or counted twice across a switch shows here.
        assertEquals(5L * ManyToOneCellRing.WARM_UP_SWITCHES, ManyToOneCellRing.warmUp());
    }

    @Test
    void timestampWarmUpRendersWhatDateTimeFormatterRenders() {
        // The warm-up's checksum (length plus last byte of each rendering) recomputed with java.time
        // over the same instants: a wrong digit in the last place or a wrong length fails it.
        DateTimeFormatter reference = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneId.systemDefault());
        long expected = 0;
        long second = 1_767_225_600L;
        for (int i = 0; i < 20_000; i++) {
            for (int k = 0; k < 4; k++) {
                String s = reference.format(Instant.ofEpochMilli((second + i) * 1000L + k * 250 + (i % 250)));
                expected += s.length() + s.charAt(s.length() - 1);
            }
        }
        assertEquals(expected, TimestampFormat.warmUp());
    }
}
