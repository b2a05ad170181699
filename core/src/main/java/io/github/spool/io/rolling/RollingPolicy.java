// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How a file rolls: what triggers a rollover, how archives are named and numbered, and what is
 * kept. The adapters build one from the configuration their users already write (log4j2's
 * {@code <Policies>} and {@code <DefaultRolloverStrategy>}, logback's {@code <rollingPolicy>}).
 * Immutable; {@link #builder(String)}.
 */
public final class RollingPolicy {

    /**
     * How {@code %i} is chosen, one value per framework behaviour users know.
     */
    public enum Indexing {
        /** No {@code %i}. */
        NONE,
        /**
         * logback {@code SizeAndTimeBasedRollingPolicy}: from 0 in each period, up by one per size
         * rollover; at start-up it continues after the highest index already on disk.
         */
        PER_PERIOD,
        /** log4j2 {@code fileIndex="nomax"}: one above the highest index on disk for the period. */
        NEXT_FREE,
        /**
         * log4j2 {@code DefaultRolloverStrategy} ({@code fileIndex="max"}, the default): archives
         * take {@code min, min+1, ...}; when {@code max - min + 1} exist for the period, the lowest is
         * deleted and the rest renamed one down, and the newest takes {@code max}.
         */
        NEWEST_HIGHEST,
        /**
         * logback {@code FixedWindowRollingPolicy} and log4j2 {@code fileIndex="min"}: the newest
         * archive is {@code min}; the one at {@code max} is deleted and the rest renamed one up.
         */
        NEWEST_LOWEST
    }

    private final String filePattern;
    private final Path activeFile;
    private final long maxFileSize;
    private final boolean rollAboveMax;
    private final boolean timeBased;
    private final int interval;
    private final boolean modulate;
    private final boolean rollOnStartup;
    private final long onStartupMinSize;
    private final Indexing indexing;
    private final int minIndex;
    private final int maxIndex;
    private final int maxHistory;
    private final long totalSizeCap;
    private final boolean cleanHistoryOnStart;
    private final boolean replaceArchives;
    private final boolean wallClockHours;
    private final boolean namedByOpeningTime;
    private final List<Runnable> afterRollover;
    private final ZoneId zone;
    private final Locale locale;

    private RollingPolicy(Builder b) {
        this.filePattern = b.filePattern;
        this.activeFile = b.activeFile;
        this.maxFileSize = b.maxFileSize;
        this.rollAboveMax = b.rollAboveMax;
        this.timeBased = b.timeBased;
        this.interval = b.interval;
        this.modulate = b.modulate;
        this.rollOnStartup = b.rollOnStartup;
        this.onStartupMinSize = b.onStartupMinSize;
        this.indexing = b.indexing;
        this.minIndex = b.minIndex;
        this.maxIndex = b.maxIndex;
        this.maxHistory = b.maxHistory;
        this.totalSizeCap = b.totalSizeCap;
        this.cleanHistoryOnStart = b.cleanHistoryOnStart;
        this.replaceArchives = b.replaceArchives;
        this.wallClockHours = b.wallClockHours;
        this.namedByOpeningTime = b.namedByOpeningTime;
        this.afterRollover = List.copyOf(b.afterRollover);
        this.zone = b.zone;
        this.locale = b.locale;
    }

    /**
     * @param filePattern the archive name pattern ({@code %d{...}}, {@code %i}, a {@code .gz} or
     *                    {@code .zip} suffix to compress)
     * @return a builder: no trigger, {@link Indexing#NONE}, nothing deleted
     */
    public static Builder builder(String filePattern) {
        return new Builder(filePattern);
    }

    /** @return the archive name pattern */
    public String filePattern() {
        return filePattern;
    }

    /** @return the file written to, or {@code null} when it is named by the pattern (logback without {@code <file>}) */
    public Path activeFile() {
        return activeFile;
    }

    /** @return the size that triggers a rollover, {@code 0} for none */
    public long maxFileSize() {
        return maxFileSize;
    }

    /**
     * @return whether a file rolls only once it is larger than {@link #maxFileSize()} (log4j2's
     *         {@code SizeBasedTriggeringPolicy}), rather than once it reaches it (logback's)
     */
    public boolean rollAboveMax() {
        return rollAboveMax;
    }

    /** @return whether the period of the pattern's date triggers rollovers */
    public boolean timeBased() {
        return timeBased;
    }

    /** @return periods per time rollover (log4j2 {@code interval}) */
    public int interval() {
        return interval;
    }

    /** @return whether time boundaries align to a multiple of the interval (log4j2 {@code modulate}) */
    public boolean modulate() {
        return modulate;
    }

    /** @return whether a non-empty file is rolled when the appender starts (log4j2 {@code OnStartupTriggeringPolicy}) */
    public boolean rollOnStartup() {
        return rollOnStartup;
    }

    /** @return the least size a file must have to roll on start-up */
    public long onStartupMinSize() {
        return onStartupMinSize;
    }

    /** @return how {@code %i} is chosen */
    public Indexing indexing() {
        return indexing;
    }

    /** @return lowest index of a window */
    public int minIndex() {
        return minIndex;
    }

    /** @return highest index of a window */
    public int maxIndex() {
        return maxIndex;
    }

    /** @return periods of archives kept (logback {@code maxHistory}), {@code 0} for all */
    public int maxHistory() {
        return maxHistory;
    }

    /** @return most bytes of archives kept (logback {@code totalSizeCap}), {@code 0} for no cap */
    public long totalSizeCap() {
        return totalSizeCap;
    }

    /** @return whether retention also runs when the appender starts */
    public boolean cleanHistoryOnStart() {
        return cleanHistoryOnStart;
    }

    /**
     * @return whether a rollover onto an archive name that exists replaces that archive (log4j2's
     *         {@code FileRenameAction} moves with {@code REPLACE_EXISTING}), rather than taking a
     *         free name beside it ({@code name.1}, {@code name.2}, ...)
     */
    public boolean replaceArchives() {
        return replaceArchives;
    }

    /**
     * @return whether an hour ends at the next hour of the wall clock, so that the repeated hour of a
     *         fall-back is one period of two hours, named once (logback), rather than two periods
     *         of the timeline that share a name
     */
    public boolean wallClockHours() {
        return wallClockHours;
    }

    /**
     * @return whether a file's date tokens show the instant its file was opened (the start-up, or
     *         the rollover that opened it: logback's {@code dateInCurrentPeriod}) rather than the
     *         start of its period; the two differ only for a date token finer than the period, as
     *         a second {@code %d} without {@code aux} can be
     */
    public boolean namedByOpeningTime() {
        return namedByOpeningTime;
    }

    /** @return actions run in the background after each rollover (log4j2's {@code <Delete>} and other custom actions) */
    public List<Runnable> afterRollover() {
        return afterRollover;
    }

    /** @return the zone of date tokens that name none */
    public ZoneId zone() {
        return zone;
    }

    /** @return the locale of date text */
    public Locale locale() {
        return locale;
    }

    @Override
    public String toString() {
        return "RollingPolicy{pattern=" + filePattern + (activeFile == null ? "" : ", file=" + activeFile)
                + (maxFileSize > 0 ? ", maxFileSize=" + maxFileSize : "") + (timeBased ? ", time, interval=" + interval : "")
                + ", indexing=" + indexing + (maxHistory > 0 ? ", maxHistory=" + maxHistory : "")
                + (totalSizeCap > 0 ? ", totalSizeCap=" + totalSizeCap : "") + '}';
    }

    /** Builds a {@link RollingPolicy}. */
    public static final class Builder {
        private final String filePattern;
        private Path activeFile;
        private long maxFileSize;
        private boolean rollAboveMax;
        private boolean timeBased;
        private int interval = 1;
        private boolean modulate;
        private boolean rollOnStartup;
        private long onStartupMinSize = 1;
        private Indexing indexing = Indexing.NONE;
        private int minIndex = 1;
        private int maxIndex = 7;
        private int maxHistory;
        private long totalSizeCap;
        private boolean cleanHistoryOnStart;
        private boolean replaceArchives;
        private boolean wallClockHours;
        private boolean namedByOpeningTime;
        private final List<Runnable> afterRollover = new ArrayList<>();
        private ZoneId zone = ZoneId.systemDefault();
        private Locale locale = Locale.getDefault();

        private Builder(String filePattern) {
            this.filePattern = Objects.requireNonNull(filePattern, "filePattern");
        }

        /** @param file the file written to; {@code null}: named by the pattern @return this */
        public Builder activeFile(Path file) {
            this.activeFile = file;
            return this;
        }

        /** @param bytes size that triggers a rollover (logback: once reached), {@code 0} for none @return this */
        public Builder maxFileSize(long bytes) {
            return maxFileSize(bytes, false);
        }

        /**
         * @param bytes        size that triggers a rollover, {@code 0} for none
         * @param rollAboveMax roll only once the file is larger (log4j2), not once it reaches it (logback)
         * @return this
         */
        public Builder maxFileSize(long bytes, boolean rollAboveMax) {
            this.maxFileSize = bytes;
            this.rollAboveMax = rollAboveMax;
            return this;
        }

        /**
         * @param interval periods per rollover
         * @param modulate align boundaries to a multiple of the interval
         * @return this, rolling by time
         */
        public Builder timeBased(int interval, boolean modulate) {
            this.timeBased = true;
            this.interval = interval;
            this.modulate = modulate;
            return this;
        }

        /** @param minSize least size of a file rolled at start-up @return this */
        public Builder rollOnStartup(long minSize) {
            this.rollOnStartup = true;
            this.onStartupMinSize = minSize;
            return this;
        }

        /** @param indexing how {@code %i} is chosen @param min lowest window index @param max highest @return this */
        public Builder indexing(Indexing indexing, int min, int max) {
            this.indexing = Objects.requireNonNull(indexing, "indexing");
            this.minIndex = min;
            this.maxIndex = max;
            return this;
        }

        /** @param periods periods of archives kept, 0 for all @return this */
        public Builder maxHistory(int periods) {
            this.maxHistory = periods;
            return this;
        }

        /** @param bytes most bytes of archives kept, 0 for no cap @return this */
        public Builder totalSizeCap(long bytes) {
            this.totalSizeCap = bytes;
            return this;
        }

        /** @param clean whether retention runs at start-up too @return this */
        public Builder cleanHistoryOnStart(boolean clean) {
            this.cleanHistoryOnStart = clean;
            return this;
        }

        /** @param replace whether a rollover replaces an archive of the same name (log4j2) @return this */
        public Builder replaceArchives(boolean replace) {
            this.replaceArchives = replace;
            return this;
        }

        /** @param wallClock whether hours end at the next wall-clock hour (logback) @return this */
        public Builder wallClockHours(boolean wallClock) {
            this.wallClockHours = wallClock;
            return this;
        }

        /** @param byOpeningTime whether date tokens show when the file was opened (logback) @return this */
        public Builder namedByOpeningTime(boolean byOpeningTime) {
            this.namedByOpeningTime = byOpeningTime;
            return this;
        }

        /** @param action run in the background after each rollover @return this */
        public Builder afterRollover(Runnable action) {
            this.afterRollover.add(Objects.requireNonNull(action, "action"));
            return this;
        }

        /** @param zone zone of date tokens that name none @return this */
        public Builder zone(ZoneId zone) {
            this.zone = Objects.requireNonNull(zone, "zone");
            return this;
        }

        /** @param locale locale of date text @return this */
        public Builder locale(Locale locale) {
            this.locale = Objects.requireNonNull(locale, "locale");
            return this;
        }

        /**
         * @return the policy
         * @throws IllegalArgumentException naming what does not fit together
         */
        public RollingPolicy build() {
            FilePattern p = FilePattern.parse(filePattern, zone, locale);
            if (timeBased && !p.hasDate()) {
                throw new IllegalArgumentException("file pattern '" + filePattern + "' has no %d{...}: it cannot roll by time");
            }
            if (timeBased && p.period() == null) {
                throw new IllegalArgumentException("the date in file pattern '" + filePattern + "' shows no time unit to roll by");
            }
            if (indexing != Indexing.NONE && !p.hasIndex()) {
                throw new IllegalArgumentException("file pattern '" + filePattern + "' has no %i, which "
                        + (maxFileSize > 0 ? "size-based rolling" : "this policy") + " needs");
            }
            if ((indexing == Indexing.NEWEST_HIGHEST || indexing == Indexing.NEWEST_LOWEST) && maxIndex < minIndex) {
                throw new IllegalArgumentException("max index " + maxIndex + " is below min index " + minIndex);
            }
            if (activeFile == null && indexing != Indexing.NONE && indexing != Indexing.PER_PERIOD) {
                throw new IllegalArgumentException("this numbering of archives needs the file name of the active file");
            }
            if (maxFileSize < 0 || maxHistory < 0 || totalSizeCap < 0) {
                throw new IllegalArgumentException("maxFileSize, maxHistory and totalSizeCap must not be negative");
            }
            return new RollingPolicy(this);
        }
    }
}
