package io.github.spool.logback.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code <render>writer</render>} end to end: a real configuration, events of every kind the
 * capture takes or declines (formats with each argument type, arrays and mutable arguments,
 * throwables, key-value pairs, long texts (text records, passed through from the ring above 32 KiB)
 * and non-ASCII ones with lone surrogates, the MDC printed by key and whole, the pattern header),
 * and the file must equal logback's own {@code FileAppender} with {@code PatternLayoutEncoder} byte
 * for byte — and the same configuration with {@code <render>caller</render>} too.
 */
class RenderOnWriterAppenderTest {

    private static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} %X{user} - %msg %X%n";

    /** An argument of a type the capture does not take: formatted on the caller. */
    private static final class Mutable {
        private int calls;

        @Override
        public String toString() {
            return "mutable#" + (++calls);
        }
    }

    private static String appender(String name, Path file, String render) {
        return LogbackRig.spool(name, file, "io.github.spool.logback.SpoolEncoder", PATTERN,
                "<render>" + render + "</render>").replace("<charset>", "<outputPatternAsHeader>true</outputPatternAsHeader><charset>");
    }

    @Test
    void writerAndCallerRenderingPrintWhatPatternLayoutEncoderPrints(@TempDir Path dir) throws Exception {
        LoggerContext lc = LogbackRig.configure(appender("writer", dir.resolve("writer.log"), "writer")
                + appender("caller", dir.resolve("caller.log"), "caller")
                + "<appender name='reference' class='ch.qos.logback.core.FileAppender'><file>" + dir.resolve("reference.log")
                + "</file><immediateFlush>false</immediateFlush><encoder class='ch.qos.logback.classic.encoder.PatternLayoutEncoder'>"
                + "<pattern>" + LogbackRig.xml(PATTERN) + "</pattern><outputPatternAsHeader>true</outputPatternAsHeader>"
                + "<charset>UTF-8</charset></encoder></appender>",
                "writer", "caller", "reference");
        assertEquals(List.of(), LogbackRig.errors(lc));
        assertTrue(LogbackRig.rendersOnWriter(lc, "writer"), "<render>writer</render> renders on the writer");
        assertTrue(!LogbackRig.rendersOnWriter(lc, "caller"));
        try {
            SplittableRandom r = new SplittableRandom(0x5EED_17BL);
            Mutable mutable = new Mutable();
            for (int i = 0; i < 2_000; i++) {
                Logger log = lc.getLogger("com.example.render.Service" + r.nextInt(5));
                switch (r.nextInt(6)) {
                    case 0 -> lc.getMDCAdapter().put("user", "user-" + r.nextInt(50));
                    case 1 -> lc.getMDCAdapter().put("request", Integer.toHexString(r.nextInt()));
                    case 2 -> lc.getMDCAdapter().remove("user");
                    case 3 -> lc.getMDCAdapter().put("zone", "Zürich 😀");
                    case 4 -> lc.getMDCAdapter().clear();
                    default -> { }
                }
                switch (r.nextInt(12)) {
                    case 0 -> log.info("order {} for {} at {} ok={} grade={}", i, "customer-" + r.nextInt(100),
                            r.nextDouble(), r.nextBoolean(), (char) ('A' + r.nextInt(5)));
                    case 1 -> log.warn("bytes={} short={} float={} long={}", (byte) r.nextInt(), (short) r.nextInt(),
                            (float) r.nextDouble(), r.nextLong());
                    case 2 -> log.info("array {} and builder {}", new int[] {i, 2}, new StringBuilder("sb").append(i));
                    case 3 -> log.info("mutable {}", mutable);
                    case 4 -> log.error("failed " + i, new IllegalStateException("boom " + i));
                    case 5 -> log.info("x".repeat(r.nextBoolean() ? 17_000 : 33_000 + r.nextInt(10_000)) + " long " + i);
                    case 6 -> log.info("grüße {} – 日本 {} 😀", "naïve", "\uD83D\uDE00");
                    case 7 -> log.info("lone \uD800 inside {} and at the end \uDC00", "\uDBFF");
                    case 8 -> log.atInfo().addKeyValue("k", i).log("with a key-value pair");
                    case 9 -> log.info("null arg {} and {} and escaped \\{}", null, "{}");
                    case 10 -> log.debug("no arguments {} here");
                    default -> log.info("plain message " + i);
                }
            }
        } finally {
            lc.getMDCAdapter().clear();
            lc.stop();
        }
        byte[] expected = Files.readAllBytes(dir.resolve("reference.log"));
        assertTrue(expected.length > 100_000, "reference written");
        assertArrayEquals(expected, Files.readAllBytes(dir.resolve("writer.log")), "<render>writer</render> differs");
        assertArrayEquals(expected, Files.readAllBytes(dir.resolve("caller.log")), "<render>caller</render> differs");
    }

    /**
     * An {@code AsyncAppender} before Spool: logback formats the message on the logging thread
     * ({@code prepareForDeferredProcessing} caches {@code getFormattedMessage()}) and its own
     * encoder prints that text, whatever a {@code StringBuilder}/{@code StringBuffer} argument holds
     * by the time the worker appends. Every {@code render} mode must print it too (issue 32).
     * {@link GateAppender} holds the worker until the calls are done; without a front end the same
     * events print the same lines.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void anAsyncAppenderBeforeSpoolPrintsTheMessageAsFormattedAtTheCall(boolean async, @TempDir Path dir)
            throws Exception {
        String pattern = "%d{HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n";
        String spool = "";
        for (String render : new String[] {"writer", "caller", "auto"}) {
            spool += LogbackRig.spool(render, dir.resolve(render + ".log"), "io.github.spool.logback.SpoolEncoder", pattern,
                    "<render>" + render + "</render>");
        }
        String refs = "<appender-ref ref='writer'/><appender-ref ref='caller'/><appender-ref ref='auto'/>"
                + "<appender-ref ref='reference'/>";
        String appenders = "<appender name='reference' class='ch.qos.logback.core.FileAppender'><file>" + dir.resolve("reference.log")
                + "</file><immediateFlush>false</immediateFlush><encoder class='ch.qos.logback.classic.encoder.PatternLayoutEncoder'>"
                + "<pattern>" + LogbackRig.xml(pattern) + "</pattern><charset>UTF-8</charset></encoder></appender>"
                // maxFlushTime: stop() waits for the worker, which also stops the appenders behind it
                // (the Spool ones drain then); logback's 1 s default can end the wait before that
                + "<appender name='async' class='ch.qos.logback.classic.AsyncAppender'><queueSize>4096</queueSize>"
                + "<maxFlushTime>60000</maxFlushTime>"
                + "<discardingThreshold>0</discardingThreshold><appender-ref ref='gate'/></appender>";
        LoggerContext lc = LogbackRig.configure(spool + "<appender name='gate' class='" + GateAppender.class.getName()
                + "'>" + refs + "</appender>" + appenders, async ? "async" : "gate");
        assertEquals(List.of(), LogbackRig.errors(lc));
        if (async) {
            GateAppender.close();
        }
        try {
            Logger log = lc.getLogger("com.example.async");
            StringBuilder sb = new StringBuilder();
            StringBuffer buffer = new StringBuffer();
            for (int i = 0; i < 40; i++) {
                sb.setLength(0);
                sb.append("sb-at-call-").append(i);
                buffer.setLength(0);
                buffer.append("buffer-at-call-").append(i);
                log.info("builder {} and buffer {} at {}", sb, buffer, i);
                sb.setLength(0);
                sb.append("SB-CHANGED-AFTER-").append(i);
                buffer.setLength(0);
                buffer.append("BUFFER-CHANGED-AFTER-").append(i);
            }
        } finally {
            GateAppender.open();
            if (async) { // returns once its worker has drained the queue and stopped the appenders behind it
                lc.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("async").stop();
            }
            lc.stop();
        }
        String expected = Files.readString(dir.resolve("reference.log"));
        assertTrue(expected.contains("builder sb-at-call-0 and buffer buffer-at-call-0 at 0") && !expected.contains("CHANGED"),
                expected);
        for (String name : new String[] {"writer", "caller", "auto"}) {
            assertEquals(expected, Files.readString(dir.resolve(name + ".log")), (async ? "async: " : "") + name + " differs");
        }
    }
}
