package io.github.spool.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.pattern.Abbreviator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggerContextVO;
import ch.qos.logback.classic.pattern.KeyValuePairConverter;
import ch.qos.logback.core.pattern.Converter;
import ch.qos.logback.core.pattern.DynamicConverter;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.NameCache;
import io.github.spool.time.TimestampFormat;
import java.util.Iterator;
import java.util.Map;

/**
 * One compiled conversion of a {@link SpoolEncoder} pattern: writes its part of the line as bytes,
 * byte-identical to what the logback converter of the same conversion word appends (see {@link Wtf8}
 * for how the line's UTF-8 is kept identical across parts). Each subclass mirrors one logback
 * converter, named in its Javadoc. Instances are immutable after construction (apart from
 * concurrent caches) and shared by all threads.
 *
 * <p>Internal to the logback adapter.
 */
abstract class ByteConverter {

    /**
     * Appends this conversion's output for {@code event}.
     *
     * @return {@code true} if a lone surrogate was written (the line then needs {@link Wtf8#toUtf8})
     */
    abstract boolean write(ILoggingEvent event, ByteLineBuilder out);

    /**
     * @return {@code true} if this conversion reads nothing but what a captured record carries
     *         (time stamp, level, logger and thread name, message, MDC) of an event without a
     *         throwable or key-value pairs, so the writer thread can render it from a
     *         {@link CapturedEvent}
     */
    boolean rendersFromCapture() {
        return false;
    }

    /** @return what this converter is, for diagnostics and tests: "fast:<kind>" or "delegated:<class>" */
    String describe() {
        return "fast:" + getClass().getSimpleName();
    }

    /** Literal text between conversions (logback's {@code LiteralConverter}); also {@code %n}. */
    static final class Literal extends ByteConverter {
        private final Wtf8.Encoded text;

        Literal(String text) {
            this.text = Wtf8.encode(text);
        }

        @Override
        boolean write(ILoggingEvent event, ByteLineBuilder out) {
            return text.appendTo(out);
        }

        @Override
        boolean rendersFromCapture() {
            return true;
        }
    }

    /** {@code %d}/{@code %date}: logback's {@code DateConverter}, rendered by core's {@link TimestampFormat}. */
    static final class Date extends ByteConverter {
        private final TimestampFormat format;
        private final Fmt fmt;

        Date(TimestampFormat format, Fmt fmt) {
            this.format = format;
            this.fmt = fmt;
        }

        @Override
        boolean write(ILoggingEvent event, ByteLineBuilder out) {
            int start = out.length();
            // DateConverter formats le.getTimeStamp(): millisecond precision even for SSSSSS
            out.appendTimestamp(format, event.getTimeStamp());
            return Fmt.region(out, fmt, start, false);
        }

        @Override
        boolean rendersFromCapture() {
            return true;
        }
    }

    /** {@code %level}/{@code %le}/{@code %p}: logback's {@code LevelConverter}, pre-encoded per level. */
    static final class LevelName extends ByteConverter {
        private final Fmt fmt;
        private final Wtf8.Encoded trace;
        private final Wtf8.Encoded debug;
        private final Wtf8.Encoded info;
        private final Wtf8.Encoded warn;
        private final Wtf8.Encoded error;

        LevelName(Fmt fmt) {
            this.fmt = fmt;
            this.trace = Wtf8.encode(Fmt.apply(fmt, Level.TRACE.toString()));
            this.debug = Wtf8.encode(Fmt.apply(fmt, Level.DEBUG.toString()));
            this.info = Wtf8.encode(Fmt.apply(fmt, Level.INFO.toString()));
            this.warn = Wtf8.encode(Fmt.apply(fmt, Level.WARN.toString()));
            this.error = Wtf8.encode(Fmt.apply(fmt, Level.ERROR.toString()));
        }

        @Override
        boolean write(ILoggingEvent event, ByteLineBuilder out) {
            Level level = event.getLevel();
            switch (level.levelInt) {
                case Level.TRACE_INT:
                    return trace.appendTo(out);
                case Level.DEBUG_INT:
                    return debug.appendTo(out);
                case Level.INFO_INT:
                    return info.appendTo(out);
                case Level.WARN_INT:
                    return warn.appendTo(out);
                case Level.ERROR_INT:
                    return error.appendTo(out);
                default:
                    return Fmt.write(out, fmt, level.toString());
            }
        }

        @Override
        boolean rendersFromCapture() {
            return true;
        }
    }

    /**
     * Formatted, encoded names (thread and logger names) by raw name, in core's bounded
     * {@link NameCache}: past its limits each name is rendered and encoded every time.
     */
    abstract static class CachedName extends ByteConverter {
        final Fmt fmt;
        private final NameCache<Wtf8.Encoded> names = new NameCache<>(name -> Wtf8.encode(render(name)));

        CachedName(Fmt fmt) {
            this.fmt = fmt;
        }

        /** @return the final text logback appends for {@code name} (abbreviated, padded, cut) */
        abstract String render(String name);

        final boolean writeName(String name, ByteLineBuilder out) {
            if (name == null) {
                return Fmt.write(out, fmt, render(null));
            }
            Wtf8.Encoded encoded = names.get(name);
            return encoded != null ? encoded.appendTo(out) : writeUncached(name, out);
        }

        /** Writes a name that did not fit the cache. */
        boolean writeUncached(String name, ByteLineBuilder out) {
            String text = render(name);
            return Wtf8.append(out, text, 0, text.length());
        }

        @Override
        boolean rendersFromCapture() {
            return true;
        }
    }

    /** {@code %thread}/{@code %t}: logback's {@code ThreadConverter}. */
    static final class ThreadName extends CachedName {
        ThreadName(Fmt fmt) {
            super(fmt);
        }

        @Override
        String render(String name) {
            return name == null ? null : Fmt.apply(fmt, name);
        }

        @Override
        boolean writeUncached(String name, ByteLineBuilder out) {
            return Fmt.write(out, fmt, name); // no intermediate String for threads past the cache
        }

        @Override
        boolean write(ILoggingEvent event, ByteLineBuilder out) {
            return writeName(event.getThreadName(), out);
        }
    }

    /**
     * {@code %logger{N}}/{@code %c{N}}/{@code %lo}: logback's {@code LoggerConverter}, abbreviated
     * by logback's own {@link Abbreviator} classes (so the algorithm is exactly theirs) and cached.
     */
    static final class LoggerName extends CachedName {
        private final Abbreviator abbreviator;

        LoggerName(Abbreviator abbreviator, Fmt fmt) {
            super(fmt);
            this.abbreviator = abbreviator;
        }

        @Override
        String render(String name) {
            if (name == null && abbreviator == null) {
                return null; // LoggerConverter prints "null"
            }
            // With an abbreviator logback hands a null name to it, which throws; so does this, and
            // the appender reports and drops the event exactly as logback's own appenders do.
            return Fmt.apply(fmt, abbreviator == null ? name : abbreviator.abbreviate(name));
        }

        @Override
        boolean write(ILoggingEvent event, ByteLineBuilder out) {
            return writeName(event.getLoggerName(), out);
        }
    }

    /** {@code %msg}/{@code %m}/{@code %message}: logback's {@code MessageConverter}. */
    static final class Message extends ByteConverter {
        private final Fmt fmt;

        Message(Fmt fmt) {
            this.fmt = fmt;
        }

        @Override
        boolean write(ILoggingEvent event, ByteLineBuilder out) {
            if (fmt == null) {
                int direct = DirectMessage.write(event, out);
                if (direct != DirectMessage.DECLINED) {
                    return direct != 0;
                }
            }
            return Fmt.write(out, fmt, event.getFormattedMessage());
        }

        @Override
        boolean rendersFromCapture() {
            return true;
        }
    }

    /** {@code %X{key:-default}}/{@code %mdc}: logback's {@code MDCConverter}. */
    static final class Mdc extends ByteConverter implements Fmt.ExactText {
        private final String key;
        private final String defaultValue;
        private final Fmt fmt;
        /** Per-thread walkers for the whole map, owned by this converter (no class loader pinned). */
        private final io.github.spool.OwnedThreadLocal<AllEntries> walks =
                io.github.spool.OwnedThreadLocal.withInitial(AllEntries::new);

        Mdc(String key, String defaultValue, Fmt fmt) {
            this.key = key;
            this.defaultValue = defaultValue;
            this.fmt = fmt;
        }

        @Override
        boolean write(ILoggingEvent event, ByteLineBuilder out) {
            Map<String, String> mdc = event.getMDCPropertyMap();
            if (mdc == null) {
                return Fmt.write(out, fmt, defaultValue);
            }
            if (key != null) {
                String value = mdc.get(key);
                return Fmt.write(out, fmt, value != null ? value : defaultValue);
            }
            // all keys: "k1=v1, k2=v2" in the map's iteration order, as MDCConverter prints them
            int start = out.length();
            boolean lone = writeAll(mdc, out);
            return Fmt.region(out, fmt, start, lone, this, event);
        }

        private boolean writeAll(Map<String, String> mdc, ByteLineBuilder out) {
            // Map.forEach visits the entries in entrySet()'s order, as MDCConverter's iterator
            // does, without the iterator object (40 B per event), through this thread's walker
            // (CaptureAllocationTest). No user code runs during the walk: it is not re-entered.
            AllEntries walk = walks.acquire();
            try {
                walk.out = out;
                walk.lone = false;
                walk.first = true;
                mdc.forEach(walk);
                return walk.lone;
            } finally {
                walk.out = null;
                walks.release(walk);
            }
        }

        /** Writes {@code k1=v1, k2=v2}, one entry per call; one per thread. */
        private static final class AllEntries implements java.util.function.BiConsumer<String, String> {
            ByteLineBuilder out;
            boolean lone;
            boolean first;

            @Override
            public void accept(String key, String value) {
                if (!first) {
                    Wtf8.append(out, ", ", 0, 2);
                }
                first = false;
                lone |= Fmt.write(out, null, key);
                Wtf8.append(out, "=", 0, 1);
                lone |= Fmt.write(out, null, value);
            }
        }

        /** The all-keys text as MDCConverter builds it, for a cut through non-ASCII text. */
        @Override
        public String exactText(ILoggingEvent event) {
            Map<String, String> mdc = event.getMDCPropertyMap();
            StringBuilder sb = new StringBuilder();
            Iterator<Map.Entry<String, String>> it = mdc.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<String, String> e = it.next();
                sb.append(e.getKey()).append('=').append(e.getValue());
                if (it.hasNext()) {
                    sb.append(", ");
                }
            }
            return sb.toString();
        }

        @Override
        boolean rendersFromCapture() {
            return true;
        }

        /** @return the key printed, or {@code null} for the whole map */
        String key() {
            return key;
        }
    }

    /** {@code %contextName}/{@code %cn}: logback's {@code ContextNameConverter}. */
    static final class ContextName extends ByteConverter {
        private final Fmt fmt;

        ContextName(Fmt fmt) {
            this.fmt = fmt;
        }

        @Override
        boolean write(ILoggingEvent event, ByteLineBuilder out) {
            LoggerContextVO vo = event.getLoggerContextVO();
            return Fmt.write(out, fmt, vo.getName());
        }
    }

    /** {@code %relative}/{@code %r}: logback's {@code RelativeTimeConverter}. */
    static final class Relative extends ByteConverter {
        private final Fmt fmt;

        Relative(Fmt fmt) {
            this.fmt = fmt;
        }

        @Override
        boolean write(ILoggingEvent event, ByteLineBuilder out) {
            int start = out.length();
            out.appendDecimal(event.getTimeStamp() - event.getLoggerContextVO().getBirthTime());
            return Fmt.region(out, fmt, start, false);
        }
    }

    /** {@code %(...)} grouping: logback's {@code IdentityCompositeConverter}; modifiers apply to the whole group. */
    static final class Group extends ByteConverter implements Fmt.ExactText {
        private final ByteConverter[] children;
        private final Fmt fmt;

        /** logback's own converters for the children: the group's exact text for a rare cut, or null. */
        private final Converter<ILoggingEvent> exactChildren;

        Group(ByteConverter[] children, Fmt fmt, Converter<ILoggingEvent> exactChildren) {
            this.children = children;
            this.fmt = fmt;
            this.exactChildren = exactChildren;
        }

        @Override
        boolean write(ILoggingEvent event, ByteLineBuilder out) {
            int start = out.length();
            boolean lone = false;
            for (ByteConverter c : children) {
                lone |= c.write(event, out);
            }
            return Fmt.region(out, fmt, start, lone, exactChildren == null ? null : this, event);
        }

        @Override
        public String exactText(ILoggingEvent event) {
            StringBuilder sb = new StringBuilder();
            for (Converter<ILoggingEvent> c = exactChildren; c != null; c = c.getNext()) {
                c.write(sb, event);
            }
            return sb.toString();
        }

        @Override
        String describe() {
            StringBuilder sb = new StringBuilder("fast:Group(");
            for (int i = 0; i < children.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(children[i].describe());
            }
            return sb.append(')').toString();
        }

        /** Capturable when every child is: a cut's exact text runs logback's converters of those children. */
        @Override
        boolean rendersFromCapture() {
            for (ByteConverter c : children) {
                if (!c.rendersFromCapture()) {
                    return false;
                }
            }
            return true;
        }

        ByteConverter[] children() {
            return children;
        }
    }

    /**
     * A conversion rendered by logback's own converter, the very instance {@code PatternLayout}
     * compiled and started for the pattern: every conversion the fast path does not cover
     * ({@code %highlight(...)}, {@code %caller}, {@code %replace(...)}, throwables, {@code %kvp},
     * {@code conversionRule}s such as Spring Boot's {@code %clr}, ...). The converter appends to a
     * per-thread {@code StringBuilder} exactly as in {@code PatternLayout.writeLoopOnConverters},
     * with its own modifiers, and the text is encoded into the line; so the output is logback's by
     * construction and the cost is that text (a few allocations per event, in the converter).
     */
    static final class Delegate extends ByteConverter {
        /** Owned by this class, not the threads: borrowed per call by virtual threads (acquire). */
        private static final io.github.spool.OwnedThreadLocal<StringBuilder> BUF =
                io.github.spool.OwnedThreadLocal.withInitial(() -> new StringBuilder(256));
        /**
         * logback's converters that print "" for an event without a throwable (their
         * {@code convert} returns early), so the call can be skipped. Exact classes by name:
         * a user's subclass may print something for every event; Spring Boot's are named, not
         * linked, because Spring is not a dependency.
         */
        private static final java.util.Set<String> EMPTY_WITHOUT_THROWABLE = java.util.Set.of(
                "ch.qos.logback.classic.pattern.ThrowableProxyConverter",
                "ch.qos.logback.classic.pattern.ExtendedThrowableProxyConverter",
                "ch.qos.logback.classic.pattern.RootCauseFirstThrowableProxyConverter",
                "org.springframework.boot.logging.logback.WhitespaceThrowableProxyConverter",
                "org.springframework.boot.logging.logback.ExtendedWhitespaceThrowableProxyConverter");
        private final Converter<ILoggingEvent> converter;
        private final boolean throwable;
        private final boolean kvp;

        Delegate(Converter<ILoggingEvent> converter) {
            this.converter = converter;
            // with modifiers even "" is padded, so the shortcut holds only without them
            boolean unformatted = !(converter instanceof DynamicConverter)
                    || ((DynamicConverter<ILoggingEvent>) converter).getFormattingInfo() == null;
            this.throwable = unformatted && EMPTY_WITHOUT_THROWABLE.contains(converter.getClass().getName());
            this.kvp = unformatted && converter.getClass() == KeyValuePairConverter.class;
        }

        @Override
        boolean write(ILoggingEvent event, ByteLineBuilder out) {
            if (throwable && event.getThrowableProxy() == null) {
                return false;
            }
            if (kvp && (event.getKeyValuePairs() == null || event.getKeyValuePairs().isEmpty())) {
                return false;
            }
            StringBuilder held = BUF.acquire();
            // re-entered (a converter that logs): do not clobber the outer text
            StringBuilder sb = held.length() != 0 ? new StringBuilder() : held;
            try {
                converter.write(sb, event);
                return Wtf8.append(out, sb, 0, sb.length());
            } finally {
                sb.setLength(0);
                if (sb.capacity() > 64 * 1024) {
                    sb.trimToSize(); // do not keep a huge stack trace's buffer per thread
                }
                BUF.release(held);
            }
        }

        @Override
        String describe() {
            return "delegated:" + converter.getClass().getName();
        }

        /** The throwable and key-value-pair converters print nothing for a captured event (it has neither). */
        @Override
        boolean rendersFromCapture() {
            return throwable || kvp;
        }
    }
}
