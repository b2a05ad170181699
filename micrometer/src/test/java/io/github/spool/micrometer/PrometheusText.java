package io.github.spool.micrometer;

import io.github.spool.Severity;

import javax.management.ObjectName;

import static io.github.spool.micrometer.Waits.mbean;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reads values out of Prometheus' text format, as a scraper does. */
final class PrometheusText {
    /** Meters per appender: a discard counter per level, 4 other counters, a timer and 3 gauges. */
    static final int METERS_PER_APPENDER = Severity.COUNT + 9;

    private PrometheusText() {
    }

    /** @return the sum of the series of {@code metric} for {@code appender}, or NaN if it has none */
    static double value(String scrape, String appender, String metric) {
        double sum = Double.NaN;
        for (String line : scrape.split("\n")) {
            if (isOf(line, appender, metric)) {
                double v = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                sum = Double.isNaN(sum) ? v : sum + v;
            }
        }
        return sum;
    }

    /** @return how many series of {@code metric} {@code appender} has */
    static long series(String scrape, String appender, String metric) {
        return scrape.lines().filter(l -> isOf(l, appender, metric)).count();
    }

    /**
     * Asserts that the scrape shows the appender's MBean's values (the ones that stay still once
     * the writer is idle; the buffer in use may shrink at any moment, so it is only shown).
     */
    static void assertEqualsMBean(String scrape, String appender, ObjectName on) {
        assertEquals(mbean(on, "EventsWritten"), value(scrape, appender, "spool_events_written_total"), scrape);
        assertEquals(mbean(on, "EventsDiscarded"), value(scrape, appender, "spool_events_discarded_total"));
        assertEquals(mbean(on, "EventsLost"), value(scrape, appender, "spool_events_lost_total"));
        assertEquals(mbean(on, "BytesWritten"), value(scrape, appender, "spool_write_bytes_total"));
        assertEquals(mbean(on, "WriteErrors"), value(scrape, appender, "spool_write_errors_total"));
        assertEquals(mbean(on, "BufferBytesHighWater"), value(scrape, appender, "spool_buffer_high_water_bytes"));
        assertEquals(mbean(on, "BufferBytesMax"), value(scrape, appender, "spool_buffer_max_bytes"));
        assertTrue(value(scrape, appender, "spool_buffer_used_bytes") > 0);
        assertTrue(value(scrape, appender, "spool_sink_writes_seconds_count") > 0);
        assertTrue(value(scrape, appender, "spool_sink_writes_seconds_sum") > 0);
    }

    private static boolean isOf(String line, String appender, String metric) {
        return line.startsWith(metric + "{") && line.contains("appender=\"" + appender + "\"");
    }
}
