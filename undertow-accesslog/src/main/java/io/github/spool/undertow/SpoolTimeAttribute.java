package io.github.spool.undertow;

import io.github.spool.time.SharedClock;
import io.github.spool.time.MillisClock;
import io.undertow.attribute.ExchangeAttribute;
import io.undertow.attribute.ExchangeAttributeBuilder;
import io.undertow.attribute.ReadOnlyAttributeException;
import io.undertow.server.HttpServerExchange;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Objects;

/**
 * The time attributes {@code %{spoolTime}} and {@code %{spoolTime,PATTERN}}: Undertow's
 * {@code %t} and {@code %{time,PATTERN}}, byte for byte, read from Spool's cached clock and
 * rendered through its per-second timestamp cache.
 *
 * <p>Same text: {@code %{spoolTime}} prints what {@code %t} prints,
 * {@code [dd/MMM/yyyy:HH:mm:ss Z]} in English in the default time zone; {@code %{spoolTime,PATTERN}}
 * prints what {@code %{time,PATTERN}} prints, PATTERN being a {@link java.text.SimpleDateFormat}
 * pattern in the default locale and time zone (patterns or locales that core's timestamp cache
 * cannot print identically keep a SimpleDateFormat, still fed from Spool's clock).
 *
 * <p>Same instant: {@code io.undertow.attribute.DateTimeAttribute} (undertow-core 2.3.20) reads
 * {@code new Date()} when the attribute is read, and {@code AccessLogHandler} reads its
 * attributes in its exchange-completion listener: the time the request <em>completed</em>. So
 * does this attribute, from {@link SharedClock}: the system clock where reading it costs no
 * system call, the cached clock (at most about a millisecond behind the system clock while it
 * is read often, exact otherwise) where it does.
 *
 * <p>Registered through {@code META-INF/services/io.undertow.attribute.ExchangeAttributeBuilder}
 * ({@link Builder}): any access-log pattern parsed by Undertow may use it. Thread-safe.
 */
public final class SpoolTimeAttribute implements ExchangeAttribute {

    /** The token equal to {@code %t}. */
    public static final String SPOOL_TIME = "%{spoolTime}";
    /** The prefix of {@code %{spoolTime,PATTERN}}, equal to {@code %{time,PATTERN}}. */
    public static final String SPOOL_TIME_PATTERN_PREFIX = "%{spoolTime,";

    /** The shared {@code %{spoolTime}}: one instance, so all requests share its per-second text. */
    private static final class CommonLog {
        static final SpoolTimeAttribute INSTANCE = new SpoolTimeAttribute(SPOOL_TIME,
                TimeTexts.commonLog(ZoneId.systemDefault()), SharedClock.get());
    }

    private final String token;
    private final TimeText text;
    private final MillisClock clock;

    SpoolTimeAttribute(String token, TimeText text, MillisClock clock) {
        this.token = token;
        this.text = text;
        this.clock = clock;
    }

    /**
     * {@code %{spoolTime}}: the common log format time of {@code %t}.
     *
     * @return the shared instance
     */
    public static SpoolTimeAttribute commonLogFormat() {
        return CommonLog.INSTANCE;
    }

    /**
     * {@code %{spoolTime,PATTERN}}: the text of {@code %{time,PATTERN}}.
     *
     * @param pattern a {@link java.text.SimpleDateFormat} pattern, formatted in the default
     *                FORMAT locale and the default time zone as Undertow does
     * @return a new attribute
     * @throws IllegalArgumentException if SimpleDateFormat rejects the pattern (Undertow would
     *                                  fail on the first request instead)
     */
    public static SpoolTimeAttribute ofPattern(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        return new SpoolTimeAttribute(SPOOL_TIME_PATTERN_PREFIX + pattern + '}',
                TimeTexts.forPattern(pattern, Locale.getDefault(Locale.Category.FORMAT), ZoneId.systemDefault()),
                SharedClock.get());
    }

    /**
     * The same attribute (same text, sharing its cache) read from another clock: for tests and
     * benchmarks that need to choose the instant.
     *
     * @param clock where the time comes from
     * @return a new attribute
     */
    public SpoolTimeAttribute withClock(MillisClock clock) {
        return new SpoolTimeAttribute(token, text, Objects.requireNonNull(clock, "clock"));
    }

    /**
     * Whether this attribute renders through core's timestamp cache; {@code false} means its
     * pattern (or the default locale) needs SimpleDateFormat, which still reads the cached clock.
     *
     * @return true on the fast path
     */
    public boolean usesTimestampCache() {
        return text.cached();
    }

    /**
     * The time the exchange completed, when called from an access log's completion listener.
     *
     * @param exchange unused: the time is the clock's
     * @return the formatted time
     */
    @Override
    public String readAttribute(HttpServerExchange exchange) {
        return text.format(clock.currentTimeMillis());
    }

    /**
     * Always fails: the time cannot be written.
     *
     * @throws ReadOnlyAttributeException always
     */
    @Override
    public void writeAttribute(HttpServerExchange exchange, String newValue) throws ReadOnlyAttributeException {
        throw new ReadOnlyAttributeException("Spool time", newValue);
    }

    @Override
    public String toString() {
        return token;
    }

    /**
     * Builds {@code %{spoolTime}} and {@code %{spoolTime,PATTERN}}; found by Undertow's
     * {@code ExchangeAttributeParser} through {@link java.util.ServiceLoader}.
     */
    public static final class Builder implements ExchangeAttributeBuilder {

        /** Public no-argument constructor, for {@link java.util.ServiceLoader}. */
        public Builder() {
        }

        @Override
        public String name() {
            return "Spool time";
        }

        @Override
        public ExchangeAttribute build(String token) {
            if (token.equals(SPOOL_TIME)) {
                return commonLogFormat();
            }
            if (token.startsWith(SPOOL_TIME_PATTERN_PREFIX) && token.endsWith("}")) {
                return ofPattern(token.substring(SPOOL_TIME_PATTERN_PREFIX.length(), token.length() - 1));
            }
            return null;
        }

        /** Same as Undertow's own builders: the tokens are ours alone, so order does not matter. */
        @Override
        public int priority() {
            return 0;
        }
    }
}
