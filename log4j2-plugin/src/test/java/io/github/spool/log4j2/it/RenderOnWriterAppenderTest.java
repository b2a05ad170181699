package io.github.spool.log4j2.it;

import io.github.spool.log4j2.SpoolAppender;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;
import org.apache.logging.log4j.message.ParameterizedMessageFactory;
import org.apache.logging.log4j.util.Constants;
import org.apache.logging.log4j.util.Unbox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code render="writer"} end to end: a real configuration, events of every kind the capture takes
 * or declines (parameterized messages with each argument type, log4j2's {@code Unbox}, mutable
 * arguments, throwables, long texts (text records, passed through from the ring above 32 KiB) and
 * non-ASCII ones, a custom level, header and footer, the thread context printed by one key and
 * whole), and the
 * file must equal log4j2's own {@code <File>} with {@code <PatternLayout>} byte for byte — and the
 * same configuration with {@code render="caller"} too.
 */
class RenderOnWriterAppenderTest {

    private static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger{36} %X{user} - %msg %X%n";
    private static final Level NOTICE = Level.forName("NOTICE", 350);

    /** An argument of a type the capture does not take: formatted on the caller. */
    private static final class Mutable {
        private int calls;

        @Override
        public String toString() {
            return "mutable#" + (++calls);
        }
    }

    @Test
    void writerAndCallerRenderingPrintWhatPatternLayoutPrints(@TempDir Path dir) throws Exception {
        String layout = "<SpoolLayout pattern='" + Log4jRig.xml(PATTERN) + "' header='--head--%n' footer='--foot--%n'/>";
        String reference = "<PatternLayout pattern='" + Log4jRig.xml(PATTERN) + "' header='--head--%n' footer='--foot--%n'/>";
        LoggerContext context = Log4jRig.start(dir,
                "<Spool name='writer' render='writer' fileName='" + dir.resolve("writer.log") + "'>" + layout + "</Spool>"
                        + "<Spool name='caller' render='caller' fileName='" + dir.resolve("caller.log") + "'>" + layout + "</Spool>"
                        + "<File name='reference' fileName='" + dir.resolve("reference.log") + "' immediateFlush='false'>"
                        + reference + "</File>",
                "writer", "caller", "reference");
        SpoolAppender writer = context.getConfiguration().getAppender("writer");
        assertNotNull(writer.getSpoolConfig().renderer(), "render='writer' renders on the writer");
        assertNull(((SpoolAppender) context.getConfiguration().getAppender("caller")).getSpoolConfig().renderer());
        try {
            SplittableRandom r = new SplittableRandom(0x5EED_17L);
            Mutable mutable = new Mutable();
            for (int i = 0; i < 2_000; i++) {
                Logger log = context.getLogger("com.example.render.Service" + r.nextInt(5));
                switch (r.nextInt(6)) {
                    case 0 -> ThreadContext.put("user", "user-" + r.nextInt(50));
                    case 1 -> ThreadContext.put("request", Integer.toHexString(r.nextInt()));
                    case 2 -> ThreadContext.remove("user");
                    case 3 -> ThreadContext.put("zone", "Zürich 😀");
                    case 4 -> ThreadContext.clearMap();
                    default -> { }
                }
                switch (r.nextInt(12)) {
                    case 0 -> log.info("order {} for {} at {} ok={} grade={}", i, "customer-" + r.nextInt(100),
                            r.nextDouble(), r.nextBoolean(), (char) ('A' + r.nextInt(5)));
                    case 1 -> log.warn("bytes={} short={} float={} long={}", (byte) r.nextInt(), (short) r.nextInt(),
                            (float) r.nextDouble(), r.nextLong());
                    case 2 -> log.info("unboxed {} and {}", Unbox.box(r.nextLong()), Unbox.box(r.nextDouble()));
                    case 3 -> log.info("mutable {}", mutable);
                    case 4 -> log.error("failed " + i, new IllegalStateException("boom " + i));
                    case 5 -> log.info("x".repeat(r.nextBoolean() ? 17_000 : 33_000 + r.nextInt(10_000)) + " long " + i);
                    case 6 -> log.info("grüße {} – 日本 {} 😀", "naïve", "\uD83D\uDE00");
                    case 7 -> log.info("lone \uD800 inside {} and at the end \uDC00", "\uDBFF");
                    case 8 -> log.log(NOTICE, "custom level {}", i);
                    case 9 -> log.info("null arg {} and {}", null, "{}");
                    case 10 -> log.debug(new StringBuilder("a builder ").append(i));
                    default -> log.info("plain message " + i);
                }
            }
        } finally {
            ThreadContext.clearMap();
            context.stop();
        }
        byte[] expected = Files.readAllBytes(dir.resolve("reference.log"));
        assertTrue(expected.length > 100_000, "reference written");
        assertArrayEquals(expected, Files.readAllBytes(dir.resolve("writer.log")), "render='writer' differs");
        assertArrayEquals(expected, Files.readAllBytes(dir.resolve("caller.log")), "render='caller' differs");
    }

    /**
     * What log4j2 does before an appender sees an event, the framework's decision: where the
     * message is formatted on the logging thread ({@code MutableLogEvent.setMessage} formats a
     * {@code ParameterizedMessage} and caches the text in it; {@code <Async>}, {@code <AsyncRoot>}
     * and all-async loggers do so before handing the event over), {@code PatternLayout} prints that
     * text, whatever the arguments hold by the time the async thread appends. The {@code render}
     * modes must print it too (issue 32): a {@code StringBuilder} changed after the call, log4j2's
     * {@code Unbox} slots reused by later calls, one message logged twice with its builder changed in
     * between. {@link GateAppender} holds the async thread until the calls are done. Loggers with
     * {@code ParameterizedMessageFactory}, as in web-app mode, and with the default factory.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sync", "Async", "AsyncRoot", "allAsync"})
    void aFrontEndPrintsTheMessageAsFormattedAtTheCall(String frontEnd, @TempDir Path dir) throws Exception {
        String pattern = "%d{HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n";
        String layout = "<SpoolLayout pattern='" + Log4jRig.xml(pattern) + "'/>";
        String appenders = "<SpoolTestGate name='gate'/>"
                + "<Spool name='writer' render='writer' fileName='" + dir.resolve("writer.log") + "'>" + layout + "</Spool>"
                + "<Spool name='caller' render='caller' fileName='" + dir.resolve("caller.log") + "'>" + layout + "</Spool>"
                + "<Spool name='auto' fileName='" + dir.resolve("auto.log") + "'>" + layout + "</Spool>"
                + "<File name='reference' fileName='" + dir.resolve("reference.log") + "' immediateFlush='false'>"
                + "<PatternLayout pattern='" + Log4jRig.xml(pattern) + "'/></File>";
        String refs = "<AppenderRef ref='gate'/><AppenderRef ref='writer'/><AppenderRef ref='caller'/>"
                + "<AppenderRef ref='auto'/><AppenderRef ref='reference'/>";
        LoggerContext context = switch (frontEnd) {
            case "Async" -> Log4jRig.start(dir, appenders + "<Async name='async' bufferSize='4096'>" + refs + "</Async>",
                    "<Root level='trace'><AppenderRef ref='async'/></Root>", false);
            case "AsyncRoot" -> Log4jRig.start(dir, appenders, "<AsyncRoot level='trace'>" + refs + "</AsyncRoot>", false);
            default -> Log4jRig.start(dir, appenders, "<Root level='trace'>" + refs + "</Root>", frontEnd.equals("allAsync"));
        };
        assertNotNull(((SpoolAppender) context.getConfiguration().getAppender("writer")).getSpoolConfig().renderer());
        if (!frontEnd.equals("sync")) {
            GateAppender.close();
        }
        try {
            Logger web = context.getLogger("com.example.web", ParameterizedMessageFactory.INSTANCE);
            Logger plain = context.getLogger("com.example.plain");
            StringBuilder sb = new StringBuilder();
            StringBuffer buffer = new StringBuffer();
            for (int i = 0; i < 40; i++) {
                sb.setLength(0);
                sb.append("sb-at-call-").append(i);
                buffer.setLength(0);
                buffer.append("buffer-at-call-").append(i);
                web.info("builder {} and buffer {}", sb, buffer);
                plain.info("builder {} and buffer {}", sb, buffer);
                sb.setLength(0);
                sb.append("SB-CHANGED-AFTER-").append(i);
                buffer.setLength(0);
                buffer.append("BUFFER-CHANGED-AFTER-").append(i);
                web.info("unboxed {} and {}", Unbox.box(i), Unbox.box(i * 7L));
                plain.info("unboxed {} and {}", Unbox.box(i), Unbox.box(i * 7L));
                if (i % 8 == 0) {
                    StringBuilder state = new StringBuilder("first-state-").append(i);
                    Message twice = ParameterizedMessageFactory.INSTANCE.newMessage("twice {}", state);
                    web.info(twice);
                    state.setLength(0);
                    state.append("SECOND-STATE-").append(i);
                    web.info(twice);
                }
            }
        } finally {
            GateAppender.open();
            context.stop();
        }
        String expected = Files.readString(dir.resolve("reference.log"));
        assertTrue(expected.contains("builder sb-at-call-0 and buffer buffer-at-call-0"), expected);
        // In web-app mode no MutableLogEvent caches the text at the call: with no front end,
        // PatternLayout formats the message twice logged as it is each time.
        boolean cachedAtCall = !(Constants.IS_WEB_APP && frontEnd.equals("sync"));
        assertTrue(expected.contains("twice first-state-8\n") && expected.contains("SECOND-STATE") != cachedAtCall,
                expected);
        for (String name : new String[] {"writer", "caller", "auto"}) {
            assertEquals(expected, Files.readString(dir.resolve(name + ".log")), frontEnd + ": " + name + " differs");
        }
    }

    /**
     * A placeholder/argument count mismatch makes log4j2 raise a status WARN where it formats the
     * message: on the logging thread, once. A status listener that logs what it hears gets one line
     * per mismatch in every appender — none more from Spool's writer thread formatting the message
     * again, outside log4j2's recursion guard (issue 32). Loggers with {@code
     * ParameterizedMessageFactory} (web-app mode's messages) and the default one.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aCountMismatchWarnsOnceWhereLog4j2FormatsTheMessage(boolean async, @TempDir Path dir) throws Exception {
        // In web-app mode without a front end every appender formats the message itself, each
        // raising the WARN inside its own recursion guard: even two PatternLayouts differ then.
        assumeTrue(async || !Constants.IS_WEB_APP, "web-app mode formats per appender without a front end");
        String pattern = "[%t] %-5level %logger - %msg%n";
        String layout = "<SpoolLayout pattern='" + Log4jRig.xml(pattern) + "'/>";
        String appenders = "<Spool name='writer' render='writer' fileName='" + dir.resolve("writer.log") + "'>" + layout
                + "</Spool><Spool name='caller' render='caller' fileName='" + dir.resolve("caller.log") + "'>" + layout
                + "</Spool><Spool name='auto' fileName='" + dir.resolve("auto.log") + "'>" + layout + "</Spool>"
                + "<File name='reference' fileName='" + dir.resolve("reference.log") + "' immediateFlush='false'>"
                + "<PatternLayout pattern='" + Log4jRig.xml(pattern) + "'/></File>";
        String refs = "<AppenderRef ref='writer'/><AppenderRef ref='caller'/><AppenderRef ref='auto'/>"
                + "<AppenderRef ref='reference'/>";
        LoggerContext context = async
                ? Log4jRig.start(dir, appenders + "<Async name='async' bufferSize='4096'>" + refs + "</Async>",
                        "<Root level='trace'><AppenderRef ref='async'/></Root>", false)
                : Log4jRig.start(dir, appenders, "<Root level='trace'>" + refs + "</Root>", false);
        Logger statusLog = context.getLogger("status");
        StatusListener listener = new StatusListener() {
            @Override
            public void log(StatusData data) {
                String text = data.getMessage().getFormattedMessage();
                if (text.contains("argument placeholders")) {
                    statusLog.warn("heard: {}", text);
                }
            }

            @Override
            public Level getStatusLevel() {
                return Level.WARN;
            }

            @Override
            public void close() {
            }
        };
        StatusLogger.getLogger().registerListener(listener);
        int mismatches = 0;
        try {
            Logger web = context.getLogger("com.example.web", ParameterizedMessageFactory.INSTANCE);
            Logger plain = context.getLogger("com.example.plain");
            for (int i = 0; i < 20; i++) {
                web.info("two {} {} but one", "arg-" + i);
                web.info("one {} but two", "arg-" + i, i);
                plain.info("two {} {} but one", "arg-" + i);
                plain.info("matched {}", i);
                mismatches += 3;
            }
        } finally {
            StatusLogger.getLogger().removeListener(listener);
            context.stop();
        }
        String expected = Files.readString(dir.resolve("reference.log"));
        if (!Constants.IS_WEB_APP) { // there, <Async> formats inside its own guard: the listener's lines go nowhere
            assertEquals(mismatches, expected.split("heard: ", -1).length - 1, expected);
        }
        for (String name : new String[] {"writer", "caller", "auto"}) {
            assertEquals(expected, Files.readString(dir.resolve(name + ".log")), name + " differs");
        }
    }
}
