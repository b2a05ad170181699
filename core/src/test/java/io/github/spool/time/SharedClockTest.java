package io.github.spool.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SharedClockTest {

    @ParameterizedTest(name = "spool.clock={0}, clock source {1} -> {2}")
    @CsvSource(nullValues = "null", value = {
        // auto (or unset): the system clock only where Linux reads it in user space
        "null,   tsc,                         SYSTEM",
        "auto,   kvm-clock,                   SYSTEM",
        "AUTO,   arch_sys_counter,            SYSTEM",
        "' auto ', hyperv_clocksource_tsc_page, SYSTEM",
        "auto,   hpet,                        CACHED",
        "null,   acpi_pm,                     CACHED",
        "auto,   xen,                         CACHED",
        "auto,   null,                        CACHED",
        "'',     tsc,                         SYSTEM",
        // forced either way, whatever the clock source
        "cached, tsc,                         CACHED",
        "Cached, null,                        CACHED",
        "system, hpet,                        SYSTEM",
        "system, null,                        SYSTEM",
    })
    void choosesByTheSettingThenTheClockSource(String setting, String source, SharedClock.Kind expected) {
        assertEquals(expected, SharedClock.kind(setting, source));
    }

    @Test
    void anUnknownSettingIsNotAChoice() {
        assertNull(SharedClock.kind("fast", "tsc"));
        assertNull(SharedClock.kind("cache", "hpet"));
    }

    @Test
    void readsTheClockSourceNameAndNothingWhenItIsMissing(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("current_clocksource");
        Files.write(file, "kvm-clock\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals("kvm-clock", SharedClock.readClockSource(file));
        Files.write(file, new byte[0]);
        assertNull(SharedClock.readClockSource(file));
        assertNull(SharedClock.readClockSource(dir.resolve("absent")));
    }

    @Test
    void theSharedClockIsTheOneChosenAndReadsNow() {
        // Whatever this host chose: get() and isCached() agree, and the time is the system clock's.
        MillisClock clock = SharedClock.get();
        if (SharedClock.isCached()) {
            assertSame(CachedClock.get(), clock);
        } else {
            assertEquals(0, SharedClock.stalenessMillis());
            assertTrue(!(clock instanceof CachedClock));
        }
        long before = System.currentTimeMillis();
        long t = clock.currentTimeMillis();
        long after = System.currentTimeMillis();
        // A cached clock lags by about a refresh period; a second is far beyond any sane lag.
        assertTrue(t >= before - 1000 && t <= after, before + " <= " + t + " <= " + after);
    }
}
