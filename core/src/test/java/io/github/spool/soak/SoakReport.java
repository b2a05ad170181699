package io.github.spool.soak;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one line the forked soak JVM prints to standard error at the end,
 * {@code soak-report key=value ...}, and its parsing on the parent's side. Test support.
 */
public final class SoakReport {

    /** First word of the report line. */
    public static final String PREFIX = "soak-report";

    /** Printed to standard error when the producers have stopped and the drain begins. */
    public static final String LOAD_DONE = "soak-phase load-done";

    private SoakReport() {
    }

    /**
     * @param line a line of the child's standard error
     * @return whether it is the report line
     */
    public static boolean isReport(String line) {
        return line.startsWith(PREFIX + " ");
    }

    /**
     * @param line the report line
     * @return its figures, in order
     */
    public static Map<String, Long> parse(String line) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String kv : line.substring(PREFIX.length()).trim().split(" ")) {
            int eq = kv.indexOf('=');
            m.put(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)));
        }
        return m;
    }
}
