package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.status.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test: seeded events ({@link SpoolJsonEncoderDifferentialTest.Gen}, some with a
 * sequence number) through logback's own {@code JsonEncoder} and through {@link SpoolJsonEncoder}
 * with format {@code logback-json}, with the same {@code with*} settings, must give identical
 * bytes — from {@code encode}, from the writer's path ({@link ViaWriter}) and through a
 * {@link SpoolAppender} in {@code caller} and {@code writer} modes — for the default settings and
 * for a dozen combinations of them.
 */
class LogbackJsonDifferentialTest {

    private static final int EVENTS = 800;
    private static final String[] NAMES = {"SequenceNumber", "Timestamp", "Nanoseconds", "Level", "ThreadName",
        "LoggerName", "Context", "Markers", "MDC", "KVPList", "Message", "Arguments", "Throwable", "FormattedMessage"};

    /** Settings: bit i set flips setting {@code NAMES[i]} from logback's default. */
    static Stream<Arguments> settings() {
        long base = Long.getLong("spool.test.seed", 0x10_6B_ACL);
        int[] flips = {0, 1 << 13, 1, 0b111, 1 << 6, 1 << 3 | 1 << 4 | 1 << 5, 0b111111, 1 << 7 | 1 << 8 | 1 << 9,
            1 << 10 | 1 << 11, 1 << 12, (1 << 14) - 1, 0b10101010101010, 0b01010101010101};
        List<Arguments> out = new ArrayList<>();
        for (int i = 0; i < flips.length; i++) {
            out.add(Arguments.of(flips[i], base + i));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "flips {0}")
    @MethodSource("settings")
    void encodesWhatJsonEncoderEncodes(int flips, long seed) throws IOException {
        LoggerContext lc = context(seed);
        JsonEncoder reference = new JsonEncoder();
        SpoolJsonEncoder spool = spool();
        apply(flips, reference, spool);
        start(lc, reference, spool);
        ViaWriter writer = new ViaWriter(LineEncoder.of(spool));
        Random rnd = new Random(seed);
        for (int i = 0; i < EVENTS; i++) {
            LoggingEvent event = event(rnd, lc);
            String where = "flips " + flips + ", seed " + seed + ", event " + i;
            byte[] expected = reference.encode(event);
            assertSame(expected, spool.encode(event), where + " (encode)");
            assertSame(expected, writer.render(event), where + " (render on the writer)");
        }
        System.out.println("LogbackJsonDifferentialTest flips " + flips + ": captured=" + writer.captured
                + " text records=" + writer.textRecords);
        assertTrue(writer.captured > EVENTS / 5 && writer.textRecords > EVENTS / 10,
                "both writer paths taken: captured " + writer.captured + ", text records " + writer.textRecords);
    }

    @Test
    void appenderWritesWhatJsonEncoderEncodes(@TempDir Path dir) throws IOException {
        for (String render : new String[] {"caller", "writer"}) {
            LoggerContext lc = context(11);
            JsonEncoder reference = new JsonEncoder();
            SpoolJsonEncoder spool = spool();
            start(lc, reference, spool);
            Path file = dir.resolve(render + ".json");
            SpoolAppender appender = new SpoolAppender();
            appender.setContext(lc);
            appender.setName("logback-json-" + render);
            appender.setFile(file.toString());
            appender.setRender(render);
            appender.setEncoder(spool);
            appender.start();
            assertTrue(appender.isStarted(), () -> SpoolJsonEncoderDifferentialTest.statuses(lc));
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            Random rnd = new Random(11);
            for (int i = 0; i < EVENTS / 3; i++) {
                LoggingEvent event = event(rnd, lc);
                appender.doAppend(event);
                expected.write(reference.encode(event));
            }
            appender.stop();
            for (Status s : lc.getStatusManager().getCopyOfStatusList()) {
                assertTrue(s.getLevel() < Status.WARN, () -> SpoolJsonEncoderDifferentialTest.statuses(lc));
            }
            assertSame(expected.toByteArray(), Files.readAllBytes(file), "render " + render);
        }
    }

    private static LoggingEvent event(Random rnd, LoggerContext lc) {
        LoggingEvent e = SpoolJsonEncoderDifferentialTest.Gen.event(rnd, lc);
        if (rnd.nextInt(10) == 0) {
            e.setSequenceNumber(rnd.nextLong());
        }
        if (rnd.nextInt(10) != 0) { // as a logger's event has it; the rest print "context":null
            e.setLoggerContextRemoteView(lc.getLoggerContextRemoteView());
        }
        return e;
    }

    private static SpoolJsonEncoder spool() {
        SpoolJsonEncoder spool = new SpoolJsonEncoder();
        spool.setFormat("logback-json");
        return spool;
    }

    @SuppressWarnings("unchecked")
    private static void apply(int flips, JsonEncoder reference, SpoolJsonEncoder spool) {
        for (int i = 0; i < NAMES.length; i++) {
            boolean value = (flips & (1 << i)) == 0 ? !NAMES[i].equals("FormattedMessage") : NAMES[i].equals("FormattedMessage");
            for (Object target : new Object[] {reference, spool}) {
                try {
                    target.getClass().getMethod("setWith" + NAMES[i], boolean.class).invoke(target, value);
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(target.getClass().getSimpleName() + " has no setWith" + NAMES[i], e);
                }
            }
        }
    }

    private static LoggerContext context(long seed) {
        LoggerContext lc = new LoggerContext();
        lc.setName("ctx-\"" + seed + "\"");
        lc.setMDCAdapter(new LogbackMDCAdapter());
        lc.putProperty("service", "spool \"json\"\t✓/");
        lc.putProperty("region", "eu/west-1");
        return lc;
    }

    private static void start(LoggerContext lc, JsonEncoder reference, SpoolJsonEncoder spool) {
        reference.setContext(lc);
        reference.start();
        spool.setContext(lc);
        spool.start();
        assertTrue(reference.isStarted() && spool.isStarted(), () -> SpoolJsonEncoderDifferentialTest.statuses(lc));
    }

    private static void assertSame(byte[] expected, byte[] actual, String where) {
        assertArrayEquals(expected, actual, () -> where + "\nexpected " + show(expected) + "\nactual   " + show(actual));
    }

    private static String show(byte[] b) {
        String s = new String(b, StandardCharsets.UTF_8);
        return s.length() > 3000 ? s.substring(0, 3000) + "...(" + s.length() + " chars)" : s;
    }

}
