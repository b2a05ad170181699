package io.github.spool.log4j2;

import io.github.spool.VirtualThreads;
import io.github.spool.time.NamedDatePatterns;
import io.github.spool.time.TimestampFormat;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TimeZone;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.pattern.DatePatternConverter;
import org.apache.logging.log4j.core.time.Instant;
import org.apache.logging.log4j.core.time.MutableInstant;
import org.apache.logging.log4j.util.Constants;

/**
 * {@code %d}, {@code %date}: the event's instant through core's {@link TimestampFormat} (the date
 * part rendered once per second, digits per event, straight into bytes), one format per layout
 * instance. Options as in log4j2's {@code DatePatternConverter}: {@code {pattern or name}},
 * {@code {zone}} ({@link TimeZone#getTimeZone(String)}, so an unknown id means GMT, as in log4j2),
 * {@code {locale}}; {@code UNIX} and {@code UNIX_MILLIS} print epoch numbers. Internal API.
 *
 * <p>Every format is checked at configuration time against log4j2's own {@code
 * DatePatternConverter} over a few hundred instants (every month and weekday, both half days,
 * years 1970-2100, sub-millisecond digits); on any difference (a pattern letter core renders
 * otherwise, a non-English locale for month names, log4j2's legacy formatters) {@link #create}
 * fails and {@link PatternCompiler} leaves the conversion to log4j2's converter. Instants before
 * 1970 are handed to log4j2's converter at run time: log4j2 2.26.1 prints corrupt digits for
 * negative epoch milliseconds ({@code 18:51:0),0,-} for 18:51:52,957), and SpoolLayout prints what
 * PatternLayout prints.
 */
final class DateSegment extends Segment {

    private enum Kind {
        PATTERN,
        UNIX_SECONDS,
        UNIX_MILLIS
    }

    /** Chars-path scratch: the formatted bytes before they become chars. */
    private static final ThreadLocal<byte[]> CHARS_SCRATCH = ThreadLocal.withInitial(() -> new byte[64]);

    private final Kind kind;
    private final TimestampFormat format;
    private final boolean subMillis;
    /** log4j2's converter for the same options, for instants before 1970. */
    private final DatePatternConverter reference;

    private DateSegment(Kind kind, TimestampFormat format, DatePatternConverter reference) {
        this.kind = kind;
        this.format = format;
        this.subMillis = format != null && format.needsSubMillis();
        this.reference = reference;
    }

    /**
     * Builds and verifies the conversion.
     *
     * @param options   the conversion's options
     * @param reference log4j2's converter built from the same options
     * @return the segment
     * @throws IllegalArgumentException if core cannot print exactly what log4j2 prints
     */
    static DateSegment create(String[] options, DatePatternConverter reference) {
        if (LegacyFormatters.ENABLED) {
            throw new IllegalArgumentException("SpoolLayout does not support %d with log4j2.instantFormatter=legacy");
        }
        String option = options.length > 0 ? options[0] : null;
        DateSegment segment;
        if ("UNIX".equals(option)) {
            segment = new DateSegment(Kind.UNIX_SECONDS, null, reference);
        } else if ("UNIX_MILLIS".equals(option)) {
            segment = new DateSegment(Kind.UNIX_MILLIS, null, reference);
        } else {
            String pattern = NamedDatePatterns.log4j2(option);
            ZoneId zone = (options.length > 1 && options[1] != null ? TimeZone.getTimeZone(options[1])
                    : TimeZone.getDefault()).toZoneId();
            TimestampFormat format;
            try {
                format = TimestampFormat.ofPattern(pattern, zone);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("SpoolLayout does not support %d{" + String.join("}{", options)
                        + "}: " + e.getMessage(), e);
            }
            segment = new DateSegment(Kind.PATTERN, format, reference);
        }
        segment.verify(options, reference);
        return segment;
    }

    /** Compares with log4j2's DatePatternConverter on sample instants (configuration time only). */
    private void verify(String[] options, DatePatternConverter reference) {
        SplittableRandom random = new SplittableRandom(20261122L);
        StringBuilder expected = new StringBuilder();
        StringBuilder actual = new StringBuilder();
        MutableInstant instant = new MutableInstant();
        for (int i = 0; i < 400; i++) {
            long millis;
            if (i < 24 * 14) {
                // Every month x weekday-ish spread x both half days: 2026-01-01 plus i * 26h 13m 7.5s.
                millis = 1_767_225_600_000L + i * 94_387_500L;
            } else {
                millis = random.nextLong(0L, 4_102_444_800_000L); // 1970 .. 2100
            }
            int nanoOfMilli = random.nextInt(1_000_000);
            instant.initFromEpochMilli(millis, nanoOfMilli);
            LogEvent event = Log4jLogEvent.newBuilder().setInstant(instant).build();
            expected.setLength(0);
            actual.setLength(0);
            reference.format(event, expected);
            format(event, actual);
            if (!expected.toString().contentEquals(actual)) {
                throw new IllegalArgumentException("SpoolLayout cannot print %d{" + String.join("}{", options)
                        + "} exactly as log4j2 does (log4j2: \"" + expected + "\", Spool: \"" + actual
                        + "\"); use PatternLayout for this date format");
            }
        }
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        if (event.getTimeMillis() < 0) {
            scratch.setLength(0);
            reference.format(event, scratch);
            out.append(scratch);
            return;
        }
        switch (kind) {
            case PATTERN:
                if (subMillis) {
                    Instant instant = event.getInstant();
                    out.appendTimestamp(format, instant.getEpochSecond(), instant.getNanoOfSecond());
                } else {
                    out.appendTimestamp(format, event.getTimeMillis());
                }
                break;
            case UNIX_SECONDS:
                out.appendDecimal(event.getInstant().getEpochSecond());
                break;
            default:
                out.appendDecimal(event.getInstant().getEpochMillisecond());
        }
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        if (event.getTimeMillis() < 0) {
            reference.format(event, sb);
            return;
        }
        switch (kind) {
            case PATTERN:
                // the String path (toSerializable), which allocates anyway: virtual threads keep no scratch
                byte[] bytes = Constants.ENABLE_THREADLOCALS && !VirtualThreads.current()
                        ? CHARS_SCRATCH.get() : new byte[format.maxLength()];
                if (bytes.length < format.maxLength()) {
                    bytes = Arrays.copyOf(bytes, format.maxLength());
                    CHARS_SCRATCH.set(bytes);
                }
                int end;
                if (subMillis) {
                    Instant instant = event.getInstant();
                    end = format.format(instant.getEpochSecond(), instant.getNanoOfSecond(), bytes, 0);
                } else {
                    end = format.format(event.getTimeMillis(), bytes, 0);
                }
                appendUtf8(bytes, end, sb);
                break;
            case UNIX_SECONDS:
                sb.append(event.getInstant().getEpochSecond());
                break;
            default:
                sb.append(event.getInstant().getEpochMillisecond());
        }
    }

    private static void appendUtf8(byte[] bytes, int end, StringBuilder sb) {
        for (int i = 0; i < end; i++) {
            if (bytes[i] < 0) {
                // Non-ASCII quoted text in the pattern: rare, decode properly.
                sb.append(new String(bytes, i, end - i, StandardCharsets.UTF_8));
                return;
            }
            sb.append((char) bytes[i]);
        }
    }

    /**
     * The property {@code InstantPatternFormatter.LEGACY_FORMATTERS_ENABLED} reads (log4j-core
     * 2.26.1), read here through log4j-api's {@code PropertiesUtil}: that constant's package is not
     * exported, so on the module path reading it fails with an {@code IllegalAccessError}.
     * Reflection, because naming {@code PropertiesUtil} in source makes javac warn about its bnd
     * annotations, and the build fails on warnings.
     */
    private static final class LegacyFormatters {
        static final boolean ENABLED = read();

        private static boolean read() {
            try {
                Class<?> util = Class.forName("org.apache.logging.log4j.util.PropertiesUtil");
                Object props = util.getMethod("getProperties").invoke(null);
                Object value = util.getMethod("getStringProperty", String.class).invoke(props, "log4j2.instantFormatter");
                return "legacy".equalsIgnoreCase((String) value);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return "legacy".equalsIgnoreCase(System.getProperty("log4j2.instantFormatter"));
            }
        }
    }
}
