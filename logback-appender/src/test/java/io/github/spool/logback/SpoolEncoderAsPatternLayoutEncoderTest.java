package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.pattern.PatternLayoutEncoderBase;
import ch.qos.logback.core.status.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.MarkerFactory;

/**
 * SpoolEncoder where a user swaps it for {@code PatternLayoutEncoder}: invalid and odd patterns and
 * encoder settings give the same status messages, the same exception from {@code start()}, the
 * same header, lines and footer; configured through Joran, logging through real loggers (caller
 * data captured at the call site) and through {@link SpoolAppender}, the file holds what logback's
 * {@code FileAppender} with {@code PatternLayoutEncoder} writes. The oracle is always logback's.
 */
class SpoolEncoderAsPatternLayoutEncoderTest {

    @TempDir
    Path dir;

    /** Patterns logback rejects, half-accepts or renders as errors, and settings users copy. */
    static final String[] ODD = {
        "%nosuchword %msg%n", "%d{HH:mm}%", "100%% done %msg%n", "%highlight(%level", "%(", "%)", "%-", "%.", "%{}", "%",
        "%replace(%msg){'a'}", "%d{HH:mm, Mars/Olympus} %msg", "%d{yyyy G} %msg", "%clr(%m){nosuch}", "%X{", "%logger{x} %msg",
        "%caller{x} %msg", "%nosuch(%msg)", "%msg(", "\\", "%-5.-3level %msg", "%d{'unterminated} %m", "%ex{x} %m", "%property %m",
        "%sn %m", "%prefix(%nosuch) %m", "%kvp{WRONG} %m", "%maskedKvp{SINGLE, DOUBLE} %m", "%n%n", "%boldRed %m", "%replace %m",
    };

    @Test
    void oddPatternsGiveTheSameStatusesExceptionsAndBytes() {
        List<String> differences = new ArrayList<>();
        List<String[]> cases = new ArrayList<>();
        for (String p : ODD) {
            cases.add(new String[] {p, null, "false"});
        }
        cases.add(new String[] {null, null, "false"});
        cases.add(new String[] {"", null, "false"});
        cases.add(new String[] {"%d %level %m%n", null, "true"});
        cases.add(new String[] {"%d %level %m%n", "ISO-8859-1", "true"});
        cases.add(new String[] {"%nosuch %m%n", "UTF-16", "true"});
        LoggerContext eventContext = new LoggerContext();
        eventContext.setName("odd");
        Random rnd = new Random(7);
        List<LoggingEvent> events = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            events.add(AllConvertersDifferentialTest.event(rnd, eventContext));
        }
        for (String[] c : cases) {
            Outcome want = run(PatternLayoutEncoder::new, c, events);
            Outcome got = run(SpoolEncoder::new, c, events);
            if (!want.equals(got)) {
                differences.add(Arrays.toString(c) + ": " + want.firstDifference(got));
            }
        }
        assertEquals(List.of(), differences);
    }

    /** What a user sees of an encoder: statuses, a thrown exception, header, lines and footer. */
    private record Outcome(List<String> statuses, String thrown, boolean started, String header, List<String> lines, String footer) {
        String firstDifference(Outcome o) {
            if (!statuses.equals(o.statuses)) {
                return "statuses\n  logback: " + String.join("\n           ", statuses) + "\n  spool:   " + String.join("\n           ", o.statuses);
            }
            if (!java.util.Objects.equals(thrown, o.thrown) || started != o.started) {
                return "start: logback " + thrown + "/" + started + ", spool " + o.thrown + "/" + o.started;
            }
            if (!java.util.Objects.equals(header, o.header) || !java.util.Objects.equals(footer, o.footer)) {
                return "header/footer: logback " + header + "/" + footer + ", spool " + o.header + "/" + o.footer;
            }
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).equals(o.lines.get(i))) {
                    return "line " + i + "\n  logback: " + lines.get(i) + "\n  spool:   " + o.lines.get(i);
                }
            }
            return "?";
        }
    }

    private static Outcome run(Supplier<PatternLayoutEncoderBase<ch.qos.logback.classic.spi.ILoggingEvent>> make, String[] c,
            List<LoggingEvent> events) {
        LoggerContext lc = new LoggerContext();
        lc.setName("odd");
        PatternLayoutEncoderBase<ch.qos.logback.classic.spi.ILoggingEvent> enc = make.get();
        enc.setContext(lc);
        enc.setPattern(c[0]);
        if (c[1] != null) {
            enc.setCharset(java.nio.charset.Charset.forName(c[1]));
        }
        enc.setOutputPatternAsHeader(Boolean.parseBoolean(c[2]));
        String thrown = null;
        try {
            enc.start();
        } catch (RuntimeException e) {
            thrown = e.toString();
        }
        List<String> lines = new ArrayList<>();
        String header = null;
        String footer = null;
        if (thrown == null) {
            header = hex(enc.headerBytes());
            for (LoggingEvent e : events) {
                try {
                    lines.add(hex(enc.encode(e)));
                } catch (RuntimeException ex) {
                    lines.add(ex.toString());
                }
            }
            footer = hex(enc.footerBytes());
        }
        List<String> statuses = new ArrayList<>();
        for (Status s : lc.getStatusManager().getCopyOfStatusList()) {
            statuses.add(describe(s, enc));
        }
        return new Outcome(statuses, thrown, enc.isStarted(), header, lines, footer);
    }

    /** Level, origin and message; the encoder itself and identity hashes in origins normalised. */
    private static String describe(Status s, Object encoder) {
        String origin = s.getOrigin() == encoder ? "<encoder>" : String.valueOf(s.getOrigin()).replaceAll("@[0-9a-f]+", "@");
        StringBuilder sb = new StringBuilder().append(s.getLevel()).append(' ').append(origin).append(" - ").append(s.getMessage());
        if (s.getThrowable() != null) {
            sb.append(" / ").append(s.getThrowable());
        }
        return sb.toString();
    }

    private static String hex(byte[] b) {
        return b == null ? "null" : new String(b, StandardCharsets.ISO_8859_1); // bytes, one char each
    }

    /**
     * The same odd patterns configured through Joran into a {@link SpoolAppender} and into a
     * {@code FileAppender} with {@code PatternLayoutEncoder}: the appender starts when logback's
     * would, and the files are equal (empty when logback prints "" for a rejected pattern).
     */
    @ParameterizedTest
    @ValueSource(strings = {"%nosuchword %msg%n", "%highlight(%level %msg%n", "100%% done %msg%n", "%d{yyyy G} %msg%n",
        "%caller{2}%msg%n", "%replace(%msg){'a', 'b'}%n", "%-5marker|%sn|%r|%cn|%property{p}%n"})
    void joranConfiguredSpoolAppenderWritesWhatFileAppenderWrites(String pattern) throws Exception {
        String escaped = pattern.replace("&", "&amp;").replace("<", "&lt;");
        Path spoolFile = dir.resolve("spool.log");
        Path referenceFile = dir.resolve("reference.log");
        String xml = "<configuration>\n<property name='p' value='vålue'/>\n"
                + "<appender name='SPOOL' class='io.github.spool.logback.SpoolAppender'><file>" + spoolFile + "</file>"
                + "<encoder class='io.github.spool.logback.SpoolEncoder'><pattern>" + escaped + "</pattern></encoder></appender>\n"
                + "<appender name='REF' class='ch.qos.logback.core.FileAppender'><file>" + referenceFile + "</file>"
                + "<encoder><pattern>" + escaped + "</pattern></encoder></appender>\n"
                + "<root level='DEBUG'><appender-ref ref='SPOOL'/><appender-ref ref='REF'/></root>\n</configuration>";
        LoggerContext lc = LogbackConfigured.newContext();
        try {
            LogbackConfigured.configure(lc, xml);
        } catch (ch.qos.logback.core.joran.spi.JoranException | RuntimeException e) {
            // "%%" makes logback's parser throw out of doConfigure: then neither appender exists;
            // otherwise reported in the status list. Both appenders are judged below all the same.
        }
        ch.qos.logback.core.Appender<?> spool = lc.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("SPOOL");
        ch.qos.logback.core.Appender<?> ref = lc.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("REF");
        assertEquals(ref != null && ref.isStarted(), spool != null && spool.isStarted(), () -> SpoolEncoderDifferentialTest.statuses(lc));
        Logger log = lc.getLogger("com.example.Orders");
        log.info(MarkerFactory.getMarker("AUDIT"), "order {} shipped", 42);
        log.warn("failed", new IllegalStateException("boom", new java.io.IOException((String) null)));
        lc.stop();
        byte[] want = Files.exists(referenceFile) ? Files.readAllBytes(referenceFile) : new byte[0];
        byte[] got = Files.exists(spoolFile) ? Files.readAllBytes(spoolFile) : new byte[0];
        assertEquals(new String(want, StandardCharsets.UTF_8), new String(got, StandardCharsets.UTF_8));
    }

    /**
     * Caller data is captured lazily by logback on the logging thread when a converter asks for it;
     * SpoolAppender encodes on that thread, inside {@code append}, so {@code %caller %C %M %L %F}
     * name this method, exactly as a synchronous logback appender does.
     */
    @Test
    void callerDataIsCapturedAtTheCallSite() throws Exception {
        String pattern = "%caller{1}|%C|%class{0}|%M|%method|%L|%line|%F|%file|%marker|%msg%n";
        LoggerContext lc = new LoggerContext();
        lc.setMDCAdapter(new LogbackMDCAdapter());
        Path spoolFile = dir.resolve("caller-spool.log");
        Path referenceFile = dir.resolve("caller-ref.log");
        SpoolAppender spool = new SpoolAppender();
        spool.setContext(lc);
        spool.setName("SPOOL");
        spool.setFile(spoolFile.toString());
        spool.setEncoder(encoder(new SpoolEncoder(), lc, pattern));
        spool.start();
        ch.qos.logback.core.FileAppender<ch.qos.logback.classic.spi.ILoggingEvent> ref = new ch.qos.logback.core.FileAppender<>();
        ref.setContext(lc);
        ref.setName("REF");
        ref.setFile(referenceFile.toString());
        ref.setEncoder(encoder(new PatternLayoutEncoder(), lc, pattern));
        ref.start();
        ch.qos.logback.classic.Logger root = lc.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(spool); // Spool first: it asks for the caller data, so it is extracted while Spool encodes
        root.addAppender(ref);
        Logger log = lc.getLogger("com.example.Caller");
        for (int i = 0; i < 3; i++) {
            log.info(MarkerFactory.getMarker("M" + i), "call {}", i);
        }
        lc.stop();
        String want = Files.readString(referenceFile);
        assertEquals(want, Files.readString(spoolFile));
        assertTrue(want.contains("|callerDataIsCapturedAtTheCallSite|") && want.contains(getClass().getName()), want);
    }

    private static <T extends PatternLayoutEncoderBase<ch.qos.logback.classic.spi.ILoggingEvent>> Encoder<ch.qos.logback.classic.spi.ILoggingEvent> encoder(
            T e, LoggerContext lc, String pattern) {
        e.setContext(lc);
        e.setPattern(pattern);
        e.setCharset(StandardCharsets.UTF_8);
        e.start();
        return e;
    }

    @Test
    void headerIsWrittenBySpoolAppenderAsByFileAppender() throws Exception {
        LoggerContext lc = new LoggerContext();
        SpoolEncoder enc = new SpoolEncoder();
        enc.setContext(lc);
        enc.setPattern("%level %msg%n");
        enc.setOutputPatternAsHeader(true);
        enc.start();
        PatternLayoutEncoder ref = new PatternLayoutEncoder();
        ref.setContext(lc);
        ref.setPattern("%level %msg%n");
        ref.setOutputPatternAsHeader(true);
        ref.start();
        assertArrayEquals(ref.headerBytes(), enc.headerBytes());
        assertArrayEquals(ref.footerBytes(), enc.footerBytes());
    }
}
