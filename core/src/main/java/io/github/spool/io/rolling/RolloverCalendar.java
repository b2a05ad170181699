// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.time.temporal.WeekFields;
import java.util.Locale;

/**
 * Period boundaries in a zone: where the period holding an instant starts, and where the next
 * rollover falls. Calendar arithmetic on {@link ZonedDateTime}, so a day is a local day (23 or 25
 * hours across a DST change) and an hour is 60 minutes of the timeline (the repeated hour of a
 * fall-back change is two periods, as in both frameworks).
 *
 * <p>{@code interval} and {@code modulate} are log4j2's {@code TimeBasedTriggeringPolicy}
 * attributes: roll every {@code interval} periods, and with {@code modulate} align the boundary to
 * a multiple of the interval (every 4 hours at 0, 4, 8, ...). logback uses 1 and no alignment.
 */
final class RolloverCalendar {

    private final ChronoUnit unit;
    private final ZoneId zone;
    private final WeekFields weeks;
    private final int interval;
    private final boolean modulate;

    RolloverCalendar(ChronoUnit unit, ZoneId zone, Locale locale, int interval, boolean modulate) {
        this.unit = unit;
        this.zone = zone;
        this.weeks = WeekFields.of(locale);
        this.interval = Math.max(1, interval);
        this.modulate = modulate;
    }

    /**
     * @param epochMillis an instant
     * @return the start of the period holding it
     */
    long periodStart(long epochMillis) {
        return truncate(ZonedDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), zone)).toInstant().toEpochMilli();
    }

    /**
     * @param epochMillis the instant a file starts covering
     * @return the first instant after it that ends that file's time
     */
    long nextBoundary(long epochMillis) {
        ZonedDateTime start = truncate(ZonedDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), zone));
        if (modulate && interval > 1) {
            start = align(start);
        }
        return start.plus(interval, unit).toInstant().toEpochMilli();
    }

    /**
     * @param epochMillis an instant
     * @param n           periods to step (negative: back)
     * @return the start of the period {@code n} periods from the one holding the instant
     */
    long periodStartShifted(long epochMillis, int n) {
        ZonedDateTime start = truncate(ZonedDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), zone));
        return truncate(start.plus(n, unit)).toInstant().toEpochMilli();
    }

    private ZonedDateTime truncate(ZonedDateTime t) {
        switch (unit) {
            case WEEKS:
                return t.with(TemporalAdjusters.previousOrSame(weeks.getFirstDayOfWeek())).truncatedTo(ChronoUnit.DAYS);
            case MONTHS:
                return t.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS);
            case YEARS:
                return t.withDayOfYear(1).truncatedTo(ChronoUnit.DAYS);
            default:
                return t.truncatedTo(unit);
        }
    }

    private ZonedDateTime align(ZonedDateTime start) {
        switch (unit) {
            case SECONDS:
                return start.minusSeconds(start.getSecond() % interval);
            case MINUTES:
                return start.minusMinutes(start.getMinute() % interval);
            case HOURS:
                return start.minusHours(start.getHour() % interval);
            case DAYS:
                return start.minusDays((start.getDayOfMonth() - 1) % interval);
            case MONTHS:
                return start.minusMonths((start.get(ChronoField.MONTH_OF_YEAR) - 1) % interval);
            default:
                return start;
        }
    }
}
