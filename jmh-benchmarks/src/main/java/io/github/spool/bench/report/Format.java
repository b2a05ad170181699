package io.github.spool.bench.report;

import java.util.Locale;

/** Number formatting shared by progress lines and tables. */
public final class Format {

    private Format() {
    }

    /**
     * @param value a count or rate
     * @return it with a k/M suffix and three significant digits, e.g. {@code 635k}, {@code 1.15M}
     */
    public static String count(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        double a = Math.abs(value);
        if (a >= 1e6) {
            return String.format(Locale.ROOT, a >= 1e8 ? "%.0fM" : a >= 1e7 ? "%.1fM" : "%.2fM", value / 1e6);
        }
        if (a >= 1e3) {
            return String.format(Locale.ROOT, a >= 1e5 ? "%.0fk" : a >= 1e4 ? "%.1fk" : "%.2fk", value / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", value);
    }

    /**
     * @param micros a duration in microseconds
     * @return it with a precision that suits its size
     */
    public static String micros(double micros) {
        if (Double.isNaN(micros)) {
            return "-";
        }
        return micros >= 100 ? String.format(Locale.ROOT, "%,.0f", micros) : String.format(Locale.ROOT, "%.1f", micros);
    }

    /**
     * @param ratio a ratio
     * @return e.g. {@code 3.71x}
     */
    public static String ratio(double ratio) {
        return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "-" : String.format(Locale.ROOT, "%.2fx", ratio);
    }
}
