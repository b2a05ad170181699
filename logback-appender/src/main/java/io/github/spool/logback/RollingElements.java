// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import io.github.spool.ByteSize;
import io.github.spool.SettingsReader;
import io.github.spool.io.rolling.FilePattern;
import io.github.spool.io.rolling.RollingPolicy;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Locale;

/**
 * The settings users write inside {@code <rollingPolicy>} and {@code <triggeringPolicy>} for
 * logback's {@code RollingFileAppender}, read into core's {@link RollingPolicy}.
 *
 * <p>How they arrive: {@link SpoolAppender} declares {@code rollingPolicy} and
 * {@code triggeringPolicy} as plain text properties, so Joran instantiates no policy object
 * (logback's policies only start under a {@code FileAppender}) and hands each nested element —
 * {@code <fileNamePattern>}, {@code <maxFileSize>}, {@code <maxHistory>}, ... — to the appender's
 * setter of that name. The policy's {@code class} attribute is not seen; the policy is known by
 * what logback itself requires of each: {@code %d} and {@code %i} in the pattern is
 * {@code SizeAndTimeBasedRollingPolicy}, {@code %d} alone {@code TimeBasedRollingPolicy}, {@code %i}
 * alone {@code FixedWindowRollingPolicy} with a {@code SizeBasedTriggeringPolicy}.
 */
final class RollingElements {

    /** logback's {@code SizeBasedTriggeringPolicy.DEFAULT_MAX_FILE_SIZE}: 10 MB. */
    static final long DEFAULT_FIXED_WINDOW_MAX_FILE_SIZE = 10L * 1024 * 1024;
    /** logback's {@code FixedWindowRollingPolicy.MAX_WINDOW_SIZE}. */
    static final int MAX_WINDOW_SIZE = 20;

    String fileNamePattern;
    String maxFileSize;
    String maxHistory;
    String totalSizeCap;
    String cleanHistoryOnStart;
    String minIndex;
    String maxIndex;
    String checkIncrement;

    /** @return whether any rolling setting was given */
    boolean present() {
        return fileNamePattern != null || maxFileSize != null || maxHistory != null || totalSizeCap != null
                || cleanHistoryOnStart != null || minIndex != null || maxIndex != null;
    }

    private static boolean xzLibraryPresent() {
        try {
            Class.forName("org.tukaani.xz.XZOutputStream", false, RollingElements.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * @param r    where statuses go
     * @param file the appender's {@code <file>}, or {@code null} (the pattern names the active file)
     * @return the policy, or {@code null} when the settings cannot roll (an ERROR says why)
     */
    RollingPolicy read(SettingsReader r, Path file) {
        if (fileNamePattern == null || fileNamePattern.isBlank()) {
            r.error("<rollingPolicy> needs <fileNamePattern>; " + (file == null ? "there is no file to write"
                    : file + " does not roll"));
            return null;
        }
        String pattern = fileNamePattern.trim();
        if (pattern.endsWith(".xz")) {
            // RollingPolicyBase.adjustCompressionModeAndFileNamePatternStrIfNecessary: without the XZ
            // library logback warns and compresses with gzip, under .gz names. Spool has no xz
            // compressor at all, so it does the same with the library too, and says so.
            r.warn(xzLibraryPresent() ? "Spool compresses .gz and .zip only; falling back to GZ compression"
                    : "XZ library missing, falling back to GZ compression");
            pattern = pattern.substring(0, pattern.length() - ".xz".length()) + ".gz";
        }
        FilePattern parsed;
        try {
            parsed = FilePattern.parse(pattern, ZoneId.systemDefault(), Locale.getDefault());
        } catch (IllegalArgumentException e) {
            r.error("fileNamePattern '" + pattern + "': " + e.getMessage());
            return null;
        }
        if (checkIncrement != null) {
            r.info("checkIncrement has no effect: Spool checks the size of the file before each line it writes");
        }
        if (parsed.primaryCandidates() > 1 && parsed.period() != null) {
            // logback neither warns nor refuses: FileNamePattern.getPrimaryDateTokenConverter takes
            // the first %d not marked aux, and its INFO "The date pattern is ..." names it.
            r.info("fileNamePattern '" + pattern + "' has " + parsed.primaryCandidates() + " %d tokens without aux: "
                    + "as in logback, the first, '" + parsed.primaryDatePattern() + "', sets the rollover period (every "
                    + parsed.period().toString().toLowerCase(Locale.ROOT).replace('_', ' ').replaceAll("s$", "") + "), and the others show the time the file was "
                    + "opened; mark them aux to say so");
        }
        RollingPolicy.Builder b = RollingPolicy.builder(pattern).activeFile(file).wallClockHours(true).namedByOpeningTime(true);
        if (parsed.hasDate()) {
            b.timeBased(1, false);
            if (parsed.hasIndex()) { // SizeAndTimeBasedRollingPolicy
                long max = r.parse(maxFileSize, v -> ByteSize.parse("maxFileSize", v), -1L, "no size limit");
                if (maxFileSize == null) {
                    r.error("maxFileSize is mandatory with %i in fileNamePattern (SizeAndTimeBasedRollingPolicy); "
                            + "rolling by time only");
                } else if (max > 0) {
                    b.maxFileSize(max);
                }
                b.indexing(RollingPolicy.Indexing.PER_PERIOD, 0, 0);
            } else if (maxFileSize != null) {
                r.warn("maxFileSize needs %i in fileNamePattern (SizeAndTimeBasedRollingPolicy); with only %d "
                        + "(TimeBasedRollingPolicy) it is ignored");
            }
            int history = (int) r.wholeNumber("maxHistory", maxHistory, 0, "0 (keep every archive)");
            b.maxHistory(history);
            if (totalSizeCap != null) {
                long cap = r.parse(totalSizeCap, v -> ByteSize.parse("totalSizeCap", v), 0L, "no cap");
                if (history <= 0) {
                    r.warn("totalSizeCap needs maxHistory (as in logback); ignored");
                } else {
                    b.totalSizeCap(cap);
                }
            }
            b.cleanHistoryOnStart(r.flag("cleanHistoryOnStart", cleanHistoryOnStart, false));
        } else if (parsed.hasIndex()) { // FixedWindowRollingPolicy + SizeBasedTriggeringPolicy
            if (file == null) {
                r.error("a fileNamePattern with %i and no %d (FixedWindowRollingPolicy) needs <file>; nothing rolls");
                return null;
            }
            int min = (int) r.wholeNumber("minIndex", minIndex, 1, "1");
            int max = (int) r.wholeNumber("maxIndex", maxIndex, 7, "7");
            if (max < min) {
                r.warn("maxIndex " + max + " is below minIndex " + min + "; using " + min);
                max = min;
            }
            if (max - min > MAX_WINDOW_SIZE) {
                r.warn("the window minIndex..maxIndex is larger than " + MAX_WINDOW_SIZE + " (logback's limit); "
                        + "maxIndex is set to " + (min + MAX_WINDOW_SIZE));
                max = min + MAX_WINDOW_SIZE;
            }
            b.indexing(RollingPolicy.Indexing.NEWEST_LOWEST, min, max);
            b.maxFileSize(r.parse(maxFileSize, v -> ByteSize.parse("maxFileSize", v), DEFAULT_FIXED_WINDOW_MAX_FILE_SIZE, "10 MB"));
            if (maxHistory != null || totalSizeCap != null) {
                r.warn("maxHistory and totalSizeCap apply to time-based rolling (%d in fileNamePattern); with a "
                        + "fixed window, maxIndex bounds the archives");
            }
        } else {
            r.error("fileNamePattern '" + pattern + "' has neither %d nor %i; " + (file == null
                    ? "there is no file to write" : file + " does not roll"));
            return null;
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            r.error("<rollingPolicy>: " + e.getMessage() + "; the file does not roll");
            return null;
        }
    }
}
