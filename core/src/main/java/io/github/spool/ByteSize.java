package io.github.spool;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the size settings ({@code bufferSize}, {@code maxBufferSize}) the same way in both
 * adapters, so one value works in {@code log4j2.xml} and {@code logback.xml}.
 *
 * <p>Accepts plain bytes ({@code 1048576}) and a number with a unit: {@code B}, {@code K}/{@code
 * KB}/{@code KiB}, {@code M}/{@code MB}/{@code MiB}, {@code G}/{@code GB}/{@code GiB},
 * case-insensitive, optional space, decimals allowed ({@code 1.5 MiB}), and logback's plural
 * {@code KBs}/{@code MBs}/{@code GBs}. Like log4j2's {@code FileSize} ({@code
 * SizeBasedTriggeringPolicy size="10 MB"}) and logback's {@code FileSize} ({@code
 * <maxFileSize>10MB</maxFileSize>}), the units are binary: {@code KB} means 1024 bytes, which is
 * what users of both already expect.
 */
public final class ByteSize {

    private static final Pattern SIZE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([a-z]*)");

    private ByteSize() {
    }

    /**
     * Parses a size.
     *
     * @param setting the setting's name, for the error message
     * @param value   the text
     * @return the size in bytes
     * @throws IllegalArgumentException naming the setting and the accepted forms
     */
    public static long parse(String setting, String value) {
        String text = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw bad(setting, value);
        }
        long unit;
        switch (m.group(2)) {
            case "":
            case "b":
                unit = 1;
                break;
            case "k":
            case "kb":
            case "kbs":
            case "kib":
                unit = 1L << 10;
                break;
            case "m":
            case "mb":
            case "mbs":
            case "mib":
                unit = 1L << 20;
                break;
            case "g":
            case "gb":
            case "gbs":
            case "gib":
                unit = 1L << 30;
                break;
            default:
                throw bad(setting, value);
        }
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
        if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw bad(setting, value);
        }
        return bytes.longValue();
    }

    private static IllegalArgumentException bad(String setting, String value) {
        return new IllegalArgumentException(setting + " '" + value
                + "' is not a size; expected bytes or a number with a unit, e.g. 1048576, 512KB, 1 MiB, 32MB");
    }
}
