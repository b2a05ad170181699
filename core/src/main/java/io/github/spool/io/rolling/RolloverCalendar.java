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
 * The arithmetic is log4j2's {@code PatternProcessor.getNextTime}: truncate the instant to the
 * unit, then add {@code modulate ? interval - field % interval : interval} units, where the field
 * is the unit's {@code Calendar} field (second, minute, hour of day, day of <em>year</em>, week of
 * year, month from 0, year); the window ending there is named by its last unit
 * ({@link #nameTime}), not its first.
 */
final class RolloverCalendar {

    private final ChronoUnit unit;
    private final ZoneId zone;
    private final WeekFields weeks;
    private final int interval;
    private final boolean modulate;
    private final boolean wallClockHours;

    RolloverCalendar(ChronoUnit unit, ZoneId zone, Locale locale, int interval, boolean modulate) {
        this(unit, zone, locale, interval, modulate, false);
    }

    RolloverCalendar(ChronoUnit unit, ZoneId zone, Locale locale, int interval, boolean modulate, boolean wallClockHours) {
        this.wallClockHours = wallClockHours;
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
        int step = modulate && interval > 1 ? interval - field(start) % interval : interval;
        if (wallClockHours && unit == ChronoUnit.HOURS) {
            // logback: the hour after 01:00 of a fall-back is 02:00 on the wall clock, so both 01:00
            // hours make one period, written to one archive (seen against RollingFileAppender).
            return start.toLocalDateTime().plusHours(step).atZone(zone).toInstant().toEpochMilli();
        }
        return start.plus(step, unit).toInstant().toEpochMilli();
    }

    /**
     * The instant log4j2 names a window's archive by: its last unit, one unit before the boundary
     * that ends it ({@code PatternProcessor}'s {@code nextFileTime}, which becomes
     * {@code prevFileTime} at the rollover). With an interval of 1 that is the window's start.
     *
     * @param boundary the end of a window, from {@link #nextBoundary}
     * @return the instant whose date names the window's archive
     */
    long nameTime(long boundary) {
        return ZonedDateTime.ofInstant(Instant.ofEpochMilli(boundary), zone).minus(1, unit).toInstant().toEpochMilli();
    }

    /** @return the value of log4j2's {@code Calendar} field for the unit, at a period start */
    private int field(ZonedDateTime start) {
        switch (unit) {
            case MILLIS:
                return start.get(ChronoField.MILLI_OF_SECOND);
            case SECONDS:
                return start.getSecond();
            case MINUTES:
                return start.getMinute();
            case HOURS:
                return start.getHour();
            case DAYS:
                return start.getDayOfYear();
            case WEEKS: {
                // Calendar.WEEK_OF_YEAR with setMinimalDaysInFirstWeek(7), as PatternProcessor sets it
                java.util.Calendar c = java.util.Calendar.getInstance(java.util.TimeZone.getTimeZone(zone));
                c.setFirstDayOfWeek(weeks.getFirstDayOfWeek().getValue() % 7 + 1);
                c.setMinimalDaysInFirstWeek(7);
                c.setTimeInMillis(start.toInstant().toEpochMilli());
                return c.get(java.util.Calendar.WEEK_OF_YEAR);
            }
            case MONTHS:
                return start.getMonthValue() - 1;
            case YEARS:
                return start.getYear();
            default:
                return 0;
        }
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
}
