package io.github.spool;

/**
 * The ordered severities core knows. Adapters map their framework's levels onto these; core uses
 * them only to decide what {@link OverflowPolicy#DISCARD} may drop and to count discards per
 * level. A larger value is more severe.
 */
public final class Severity {
    public static final int TRACE = 0;
    public static final int DEBUG = 1;
    public static final int INFO = 2;
    public static final int WARN = 3;
    public static final int ERROR = 4;
    public static final int FATAL = 5;

    /** Number of severities; valid values are {@code 0 .. COUNT - 1}. */
    public static final int COUNT = 6;

    private static final String[] NAMES = {"TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"};

    private Severity() {
    }

    /**
     * Returns the upper-case name of a severity.
     *
     * @param severity one of the constants of this class
     * @return its name, e.g. {@code "INFO"}
     * @throws IllegalArgumentException if {@code severity} is out of range
     */
    public static String name(int severity) {
        return NAMES[check(severity)];
    }

    /**
     * Parses a severity name, case-insensitively; {@code WARNING} and {@code OFF}/{@code ALL} are
     * not accepted, the adapters translate their own spellings first.
     *
     * @param name the name, e.g. {@code "info"}
     * @return the severity
     * @throws IllegalArgumentException naming the accepted values if {@code name} is unknown
     */
    public static int parse(String name) {
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equalsIgnoreCase(name == null ? "" : name.trim())) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown severity '" + name + "', expected one of TRACE, DEBUG, INFO, WARN, ERROR, FATAL");
    }

    /**
     * Checks a severity value.
     *
     * @param severity the value
     * @return {@code severity}
     * @throws IllegalArgumentException if it is out of range
     */
    public static int check(int severity) {
        if (severity < 0 || severity >= COUNT) {
            throw new IllegalArgumentException("severity " + severity + " out of range 0.." + (COUNT - 1));
        }
        return severity;
    }
}
