package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.status.Status;
import io.github.spool.text.ByteLineBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.event.KeyValuePair;

/**
 * Differential test: random events through {@code PatternLayoutEncoder} (UTF-8) and
 * {@link SpoolEncoder} with the same random pattern must give identical bytes, through both
 * {@link SpoolEncoder#encode} and {@link SpoolEncoder#encodeTo}. Seeded; the seed, the pattern and
 * the event are printed on failure.
 */
class SpoolEncoderDifferentialTest {

    private static final int PATTERNS = 400;
    private static final int EVENTS_PER_PATTERN = 150;

    static Stream<Long> seeds() {
        long base = Long.getLong("spool.test.seed", 0x5EED_10BAL);
        return Stream.of(base, base + 1, base + 2, base + 3);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void spoolEncoderPrintsWhatPatternLayoutEncoderPrints(long seed) {
        Random rnd = new Random(seed);
        LoggerContext lc = new LoggerContext();
        lc.setName("ctx-" + seed);
        int compared = 0;
        int rejected = 0;
        int capturedEvents = 0;
        int textRecords = 0;
        for (int p = 0; p < PATTERNS / 4; p++) {
            String pattern = Gen.pattern(rnd);
            PatternLayoutEncoder reference = new PatternLayoutEncoder();
            reference.setContext(lc);
            reference.setPattern(pattern);
            reference.setCharset(StandardCharsets.UTF_8);
            reference.start();
            SpoolEncoder spool = new SpoolEncoder();
            spool.setContext(lc);
            spool.setPattern(pattern);
            spool.start();
            if (!reference.getLayout().isStarted()) { // the generator made a pattern logback rejects: so must we
                assertFalse(spool.isStarted(), () -> "seed " + seed + ": SpoolEncoder started where logback failed: " + pattern);
                rejected++;
                continue;
            }
            assertTrue(spool.isStarted(), () -> "seed " + seed + ": SpoolEncoder did not start for " + pattern + "\n" + statuses(lc));
            ViaWriter writer = spool.rendersFromCapture() ? new ViaWriter(spool) : null;
            ByteLineBuilder line = new ByteLineBuilder(64);
            for (int e = 0; e < EVENTS_PER_PATTERN; e++) {
                LoggingEvent event = Gen.event(rnd, lc);
                // Either order: logback caches the formatted message in the event, Spool need not use it.
                boolean spoolFirst = (e & 1) == 0;
                byte[] first = spoolFirst ? spool.encode(event) : null;
                byte[] expected = reference.encode(event);
                byte[] actual = spoolFirst ? first : spool.encode(event);
                String context = "seed " + seed + ", pattern " + Gen.escape(pattern) + ", event " + Gen.describe(event);
                assertArrayEquals(expected, actual, () -> context + "\nexpected " + Gen.escape(new String(expected, StandardCharsets.UTF_8))
                        + "\nactual   " + Gen.escape(new String(actual, StandardCharsets.UTF_8)));
                line.reset();
                line.appendAscii("prefix ");
                spool.encodeTo(event, line);
                byte[] viaBuilder = java.util.Arrays.copyOfRange(line.array(), 7, line.length());
                assertArrayEquals(expected, viaBuilder, () -> context + " (encodeTo)");
                if (writer != null) {
                    assertArrayEquals(expected, writer.render(event), () -> context + " (render on the writer)");
                }
                compared++;
            }
            if (writer != null) {
                capturedEvents += writer.captured;
                textRecords += writer.textRecords;
            }
        }
        System.out.println("SpoolEncoderDifferentialTest seed " + seed + ": render on the writer: captured=" + capturedEvents
                + " text records=" + textRecords);
        assertTrue(capturedEvents > 500 && textRecords > 50, "both writer paths taken: captured " + capturedEvents
                + ", text records " + textRecords);
        int valid = PATTERNS / 4 - rejected;
        assertTrue(compared == valid * EVENTS_PER_PATTERN && rejected < PATTERNS / 40, "seed " + seed + ": " + rejected + " patterns rejected by logback");
    }

    @org.junit.jupiter.api.Test
    void namesBeyondTheNameCacheStillMatch() {
        LoggerContext lc = new LoggerContext();
        String pattern = "%-10.12thread|%.-8t|%logger{5}|%-30c|%msg%n";
        PatternLayoutEncoder reference = new PatternLayoutEncoder();
        reference.setContext(lc);
        reference.setPattern(pattern);
        reference.setCharset(StandardCharsets.UTF_8);
        reference.start();
        SpoolEncoder spool = new SpoolEncoder();
        spool.setContext(lc);
        spool.setPattern(pattern);
        spool.start();
        Random rnd = new Random(42);
        int names = io.github.spool.text.NameCache.LIMIT + 1000;
        for (int i = 0; i < names; i++) {
            LoggingEvent e = new LoggingEvent();
            e.setLoggerContext(lc);
            e.setLevel(Level.INFO);
            e.setThreadName("pool-" + i + "-thread-" + Gen.text(rnd, 3));
            e.setLoggerName("com.example.n" + i + ".Service" + Gen.text(rnd, 2));
            e.setMessage("m");
            e.setMDCPropertyMap(java.util.Collections.emptyMap());
            e.setTimeStamp(0);
            byte[] expected = reference.encode(e);
            assertArrayEquals(expected, spool.encode(e), () -> "name #" + e.getThreadName());
        }
    }

    static String statuses(LoggerContext lc) {
        StringBuilder sb = new StringBuilder();
        for (Status s : lc.getStatusManager().getCopyOfStatusList()) {
            sb.append(s).append('\n');
            if (s.getThrowable() != null) {
                sb.append("  ").append(s.getThrowable()).append('\n');
            }
        }
        return sb.toString();
    }

    /** Random patterns and events. */
    static final class Gen {
        private static final String[] DATE_PATTERNS = {
            null, "ISO8601", "STRICT", "yyyy-MM-dd HH:mm:ss.SSS", "HH:mm:ss.SSS", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
            "\"HH:mm:ss,SSS\"", "yyyyMMdd'T'HHmmss.SSSSSS", "dd/MM/yy HH:mm", "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "ss.S",
        };
        private static final String[] TEXT_DATE_PATTERNS = {"dd MMM yyyy HH:mm:ss", "\"EEE, d MMM yyyy hh:mm:ss a\"", "MMMM d"};
        private static final String[] ZONES = {"UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
            "Pacific/Chatham", "America/St_Johns", "Asia/Kathmandu"};
        private static final String[] MODIFIERS = {"", "", "", "5", "-5", ".3", ".-3", "10.20", "-20.30", "-5.-5", "30", "-1", "0", ".1"};
        private static final String[] LITERALS = {" ", " - ", "[", "]", ":", " | ", "é", "日本", "😀", "\\%", "=", "\t", "\\\\",
            "x{y}", "\ud800", "\udc00"};

        static String pattern(Random rnd) {
            String body = pieces(rnd, 1 + rnd.nextInt(9), 0);
            return rnd.nextInt(3) != 0 ? body + "%n" : body;
        }

        /** Joins pieces; a space keeps a literal from extending the conversion word before it. */
        private static String pieces(Random rnd, int n, int depth) {
            StringBuilder sb = new StringBuilder();
            boolean afterConversion = false;
            for (int i = 0; i < n; i++) {
                StringBuilder piece = new StringBuilder();
                boolean conversion = piece(rnd, piece, depth);
                char first = piece.charAt(0);
                if (afterConversion && !conversion && (Character.isJavaIdentifierPart(first) || first == '{')) {
                    sb.append(' ');
                }
                sb.append(piece);
                afterConversion = conversion;
            }
            return sb.toString();
        }

        private static boolean piece(Random rnd, StringBuilder sb, int depth) {
            int k = rnd.nextInt(depth == 0 ? 16 : 15);
            if (k < 3) {
                sb.append(LITERALS[rnd.nextInt(LITERALS.length)]);
                return false;
            }
            sb.append('%').append(MODIFIERS[rnd.nextInt(MODIFIERS.length)]);
            switch (k) {
                case 3:
                    date(rnd, sb);
                    break;
                case 4:
                    sb.append(pick(rnd, "level", "le", "p"));
                    break;
                case 5:
                    sb.append(pick(rnd, "thread", "t"));
                    break;
                case 6:
                    sb.append(pick(rnd, "logger", "c", "lo"));
                    if (rnd.nextBoolean()) {
                        sb.append('{').append(pick(rnd, "0", "1", "5", "10", "15", "20", "36", "-1", "100")).append('}');
                    }
                    break;
                case 7:
                    sb.append(pick(rnd, "msg", "m", "message"));
                    break;
                case 8:
                    sb.append(pick(rnd, "X", "mdc"));
                    int m = rnd.nextInt(4);
                    if (m == 1) {
                        sb.append("{k1}");
                    } else if (m == 2) {
                        sb.append("{k2:-dflt}");
                    } else if (m == 3) {
                        sb.append("{missing:-}");
                    }
                    break;
                case 9:
                    sb.append(pick(rnd, "ex", "throwable", "exception", "xEx", "rEx", "nopex", "ex{short}", "ex{3}", "rEx{full}"));
                    break;
                case 10:
                    sb.append(pick(rnd, "kvp", "kvp{SINGLE}", "kvp{NONE}"));
                    break;
                case 11:
                    sb.append(pick(rnd, "contextName", "cn"));
                    break;
                case 12:
                    sb.append(pick(rnd, "relative", "r"));
                    break;
                case 13:
                    sb.append('n');
                    break;
                case 14:
                    sb.append(pick(rnd, "d", "level"));
                    break;
                default: // a group, only at the top level
                    sb.append('(').append(pieces(rnd, 1 + rnd.nextInt(3), depth + 1)).append(')');
            }
            return true;
        }

        private static void date(Random rnd, StringBuilder sb) {
            sb.append(pick(rnd, "d", "date"));
            int k = rnd.nextInt(5);
            if (k == 0) {
                return;
            }
            if (k == 4) {
                sb.append('{').append(TEXT_DATE_PATTERNS[rnd.nextInt(TEXT_DATE_PATTERNS.length)]).append(", ")
                        .append(ZONES[rnd.nextInt(ZONES.length)]).append(", en}");
                return;
            }
            String p = DATE_PATTERNS[rnd.nextInt(DATE_PATTERNS.length)];
            if (p == null) {
                return;
            }
            sb.append('{').append(p);
            if (k >= 2) {
                sb.append(", ").append(ZONES[rnd.nextInt(ZONES.length)]);
            }
            sb.append('}');
        }

        /**
         * Names an application logs with again and again, as most of its events do; render on the
         * writer captures them by id, and its name tables (bounded, shared by the JVM's tests)
         * stop taking new names once full, after which events with a new name go as text.
         */
        static final String[] THREAD_POOL = pool(64, r -> text(r, 1 + r.nextInt(25)));
        static final String[] LOGGER_POOL = pool(256, Gen::loggerName);

        private static String[] pool(int n, java.util.function.Function<Random, String> make) {
            Random r = new Random(n);
            String[] names = new String[n];
            for (int i = 0; i < n; i++) {
                names[i] = make.apply(r);
            }
            return names;
        }

        static LoggingEvent event(Random rnd, LoggerContext lc) {
            LoggingEvent e = new LoggingEvent();
            e.setLoggerContext(lc);
            e.setLoggerContextRemoteView(lc.getLoggerContextRemoteView());
            e.setLevel(pick(rnd, Level.TRACE, Level.DEBUG, Level.INFO, Level.INFO, Level.WARN, Level.ERROR));
            e.setLoggerName(rnd.nextInt(4) != 0 ? LOGGER_POOL[rnd.nextInt(LOGGER_POOL.length)] : loggerName(rnd));
            e.setThreadName(rnd.nextInt(4) != 0 ? THREAD_POOL[rnd.nextInt(THREAD_POOL.length)] : text(rnd, 1 + rnd.nextInt(25)));
            if (rnd.nextInt(10) == 0) {
                e.setMessage(null);
            } else if (rnd.nextBoolean()) {
                e.setMessage(messagePattern(rnd));
                e.setArgumentArray(arguments(rnd));
            } else {
                e.setMessage(text(rnd, rnd.nextInt(80)));
            }
            e.setTimeStamp(timestamp(rnd));
            {
                Map<String, String> mdc = new LinkedHashMap<>();
                int n = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(4);
                for (int i = 0; i < n; i++) {
                    mdc.put(pick(rnd, "k1", "k2", "k3", "ключ"), text(rnd, rnd.nextInt(12)));
                }
                e.setMDCPropertyMap(mdc);
            }
            if (rnd.nextInt(6) == 0) {
                e.setThrowableProxy(new ThrowableProxy(throwable(rnd)));
            }
            if (rnd.nextInt(5) == 0) {
                List<KeyValuePair> kvps = new ArrayList<>();
                int n = 1 + rnd.nextInt(3);
                for (int i = 0; i < n; i++) {
                    kvps.add(new KeyValuePair(text(rnd, 4), rnd.nextBoolean() ? text(rnd, 6) : null));
                }
                e.setKeyValuePairs(kvps);
            }
            return e;
        }

        /** Text with 0-4 placeholders, stray braces and (sometimes) escapes, as slf4j sees them. */
        static String messagePattern(Random rnd) {
            StringBuilder sb = new StringBuilder(text(rnd, rnd.nextInt(40)));
            int n = rnd.nextInt(5);
            for (int i = 0; i < n; i++) {
                sb.append(pick(rnd, "{}", "{}", "{}", " {} ", "x={}", "{", "}", "{ }", "\\{}", "\\\\{}", "{}{}"));
                sb.append(text(rnd, rnd.nextInt(8)));
            }
            return sb.toString();
        }

        /** 0-4 arguments of the types slf4j formats directly and of others it formats its own way. */
        static Object[] arguments(Random rnd) {
            Object[] args = new Object[rnd.nextInt(5)];
            for (int i = 0; i < args.length; i++) {
                switch (rnd.nextInt(12)) {
                    case 0: args[i] = null; break;
                    case 1: args[i] = rnd.nextLong(); break;
                    case 2: args[i] = (short) rnd.nextInt(); break;
                    case 3: args[i] = (byte) rnd.nextInt(); break;
                    case 4: args[i] = rnd.nextBoolean(); break;
                    case 5: args[i] = (char) ('a' + rnd.nextInt(26)); break;
                    case 6: args[i] = new int[] {rnd.nextInt(), 7}; break;
                    case 7: args[i] = new IllegalStateException(text(rnd, 4)); break;
                    case 8: args[i] = rnd.nextDouble(); break;
                    case 9: args[i] = rnd.nextInt(); break;
                    default: args[i] = text(rnd, rnd.nextInt(12)); break;
                }
            }
            return args;
        }

        static long timestamp(Random rnd) {
            switch (rnd.nextInt(4)) {
                case 0: // around DST changes of 2025 in Europe and the US
                    long[] edges = {1_743_296_400_000L, 1_761_440_400_000L, 1_741_503_600_000L, 1_762_063_200_000L};
                    return edges[rnd.nextInt(edges.length)] + rnd.nextInt(7_200_000) - 3_600_000;
                case 1: // leap days and year ends
                    long[] days = {951_782_400_000L, 1_709_164_800_000L, 1_735_689_600_000L, 946_684_800_000L};
                    return days[rnd.nextInt(days.length)] + rnd.nextInt(172_800_000) - 86_400_000;
                default:
                    return 946_684_800_000L + (long) (rnd.nextDouble() * 1_300_000_000_000L); // 2000..2041
            }
        }

        static Throwable throwable(Random rnd) {
            Exception cause = new IllegalStateException(text(rnd, 10));
            Exception e = rnd.nextBoolean() ? new RuntimeException("outer " + text(rnd, 8), cause) : new IOException(text(rnd, 5));
            if (rnd.nextBoolean()) {
                e.addSuppressed(new UncheckedIOException(new IOException("suppressed")));
            }
            // short traces keep failure messages readable; frames in common still exercise "... n common frames omitted"
            StackTraceElement[] trace = e.getStackTrace();
            e.setStackTrace(java.util.Arrays.copyOf(trace, Math.min(trace.length, 4)));
            cause.setStackTrace(java.util.Arrays.copyOf(trace, Math.min(trace.length, 3)));
            return e;
        }

        static String loggerName(Random rnd) {
            int segs = 1 + rnd.nextInt(6);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < segs; i++) {
                if (i > 0) {
                    sb.append('.');
                }
                sb.append(pick(rnd, "com", "org", "example", "io", "spool", "logback", "X", "a", "verylongpackagename", "ünï", "Service",
                        "OrderProcessingServiceImpl", "\ud83d\ude00pkg", ""));
            }
            return sb.toString();
        }

        static String text(Random rnd, int len) {
            StringBuilder sb = new StringBuilder(len);
            for (int i = 0; i < len; i++) {
                int k = rnd.nextInt(20);
                if (k < 12) {
                    sb.append((char) ('a' + rnd.nextInt(26)));
                } else if (k == 12) {
                    sb.append(' ');
                } else if (k == 13) {
                    sb.append((char) (0xE0 + rnd.nextInt(20)));
                } else if (k == 14) {
                    sb.append((char) (0x4E00 + rnd.nextInt(500)));
                } else if (k == 15) {
                    sb.appendCodePoint(0x1F600 + rnd.nextInt(50));
                } else if (k == 16) {
                    sb.append((char) (0xD800 + rnd.nextInt(1024))); // lone high
                } else if (k == 17) {
                    sb.append((char) (0xDC00 + rnd.nextInt(1024))); // lone low
                } else if (k == 18) {
                    sb.append(pick(rnd, "%", "{}", "\\", "\n", "\"", "'"));
                } else {
                    sb.append((char) ('0' + rnd.nextInt(10)));
                }
            }
            return sb.toString();
        }

        @SafeVarargs
        private static <T> T pick(Random rnd, T... choices) {
            return choices[rnd.nextInt(choices.length)];
        }

        static String describe(LoggingEvent e) {
            return "{level=" + e.getLevel() + ", logger=" + escape(e.getLoggerName()) + ", thread=" + escape(e.getThreadName())
                    + ", message=" + escape(e.getFormattedMessage()) + ", time=" + e.getTimeStamp() + ", mdc=" + e.getMDCPropertyMap()
                    + ", kvp=" + e.getKeyValuePairs() + ", throwable=" + (e.getThrowableProxy() != null) + "}";
        }

        static String escape(String s) {
            if (s == null) {
                return "null";
            }
            if (s.length() > 1500) {
                s = s.substring(0, 1500) + "...";
            }
            StringBuilder sb = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                if (c < 0x20 || c > 0x7E) {
                    sb.append(String.format("\\u%04x", (int) c));
                } else {
                    sb.append(c);
                }
            }
            return sb.append('"').toString();
        }
    }
}
