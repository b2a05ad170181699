package io.github.spool.log4j2.it;

import io.github.spool.log4j2.SpoolAppender;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.util.Unbox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
