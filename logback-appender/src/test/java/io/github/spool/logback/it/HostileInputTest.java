package io.github.spool.logback.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.github.spool.soak.HostileInput;
import io.github.spool.soak.HostileInputContract;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile input through {@code SpoolAppender} (issue 6, part 5): the shared cases of
 * {@link HostileInputContract} with SpoolAppender + SpoolEncoder, SpoolAppender +
 * PatternLayoutEncoder and logback's own FileAppender + PatternLayoutEncoder (the oracle), and the
 * cases whose API or semantics are logback's own. The cases that need a small heap (a 10 MiB
 * message, two million logger names, long names) run in forked JVMs ({@link HostileMain}).
 */
class HostileInputTest extends HostileInputContract<LogbackRun> {

    /** Thread, level, logger (whole and abbreviated), the whole MDC, message; logback adds %ex. */
    private static final String PATTERN = "[%thread] %-5level %logger %logger{10} {%mdc} - %msg%n";
    private static final String SPOOL_ENCODER = "io.github.spool.logback.SpoolEncoder";
    private static final String PATTERN_ENCODER = "ch.qos.logback.classic.encoder.PatternLayoutEncoder";

    @Override
    protected LogbackRun differential(String pattern) throws Exception {
        return new LogbackRun(LogbackRig.differential(dir, pattern));
    }

    @Override
    protected String pattern() {
        return PATTERN;
    }

    @Override
    protected List<String> outputNames() {
        return List.of("SpoolAppender + SpoolEncoder", "SpoolAppender + PatternLayoutEncoder",
                "FileAppender + PatternLayoutEncoder");
    }

    @Override
    protected List<String> recursionLayouts() {
        return List.of(SPOOL_ENCODER, PATTERN_ENCODER);
    }

    @Override
    protected LogbackRun startRecursion(Path file, String layout) throws Exception {
        return new LogbackRun(LogbackRig.configure(LogbackRig.spool("spool", file, layout, "%msg%n",
                "<bufferSize>8KB</bufferSize><maxBufferSize>64KB</maxBufferSize>"), "spool"));
    }

    @Override
    protected Class<?> hostileMain() {
        return HostileMain.class;
    }

    @Override
    protected String render() {
        return LogbackRig.RENDER;
    }

    @Override
    protected IntFunction<String> loggersLine() {
        return i -> "p.s.N" + i + " pkg.sub.N" + i + " " + i;
    }

    /** logback formats the message (and so the throwable's text) before any appender sees it. */
    @Override
    protected boolean frameworkThrowsForHostileThrowables() {
        return true;
    }

    /**
     * Log forging: logback's own {@code %replace} neutralises CR/LF, through SpoolEncoder (which
     * lets logback's converter render it) and through PatternLayoutEncoder inside SpoolAppender,
     * both exactly as logback's FileAppender writes it, one line per event.
     */
    @Test
    @Timeout(60)
    void replaceNeutralisesForgingThroughSpoolEncoderAndPatternLayoutEncoder() throws Exception {
        String pattern = "%-5level %logger - %replace(%msg){'[\\r\\n]', '_'}%n";
        LoggerContext lc = LogbackRig.configure(
                LogbackRig.spool("spool", dir.resolve(LogbackRig.SPOOL), SPOOL_ENCODER, pattern, "")
                        + LogbackRig.spool("spoolPattern", dir.resolve(LogbackRig.SPOOL_PATTERN),
                                PATTERN_ENCODER, pattern, "")
                        + "<appender name='reference' class='ch.qos.logback.core.FileAppender'><file>" + dir.resolve(LogbackRig.REFERENCE)
                        + "</file><encoder><pattern>" + LogbackRig.xml(pattern) + "</pattern><charset>UTF-8</charset></encoder></appender>",
                "spool", "spoolPattern", "reference");
        int events = 0;
        try {
            Logger log = lc.getLogger("app.Service");
            for (String m : new String[] {"ok", "a\r\nINFO  app.Service - forged", "b\nc\rd", "arg {}", ESC + "[31m\r\n"}) {
                log.info(m, "x\r\ny");
                events++;
            }
        } finally {
            lc.stop();
        }
        assertEquals(List.of(), LogbackRig.errors(lc));
        byte[] reference = Files.readAllBytes(dir.resolve(LogbackRig.REFERENCE));
        assertArrayEquals(reference, Files.readAllBytes(dir.resolve(LogbackRig.SPOOL)));
        assertArrayEquals(reference, Files.readAllBytes(dir.resolve(LogbackRig.SPOOL_PATTERN)));
        String text = new String(reference, StandardCharsets.UTF_8);
        assertEquals(events + 1, text.split("\n", -1).length, "one line per event (and the empty rest): " + text);
        assertTrue(text.contains("INFO  app.Service - a__INFO  app.Service - forged\n"), text);
        assertFalse(text.contains("\r"), "no CR left: " + text);
    }

    /** logback (through SLF4J's MessageFormatter) prints {@code [FAILED toString()]}. */
    @Test
    @Timeout(60)
    void argumentWhoseToStringThrowsIsPrintedAsLogbackPrintsIt() throws Exception {
        LogbackRun run = differential(PATTERN);
        LoggerContext lc = run.lc;
        Object bomb = HostileInput.toStringThrows(() -> new IllegalStateException("boom\r\nforged"));
        Object returnsNull = HostileInput.toStringReturnsNull();
        try {
            Logger log = lc.getLogger("app.Service");
            sentinel(log);
            log.info("value {} end", bomb);
            sentinel(log);
            log.info("values {} {} {}", bomb, returnsNull, bomb);
            sentinel(log);
            log.info("array {}", (Object) new Object[] {bomb, 1});
            sentinel(log);
        } finally {
            lc.stop();
        }
        String reference = assertDifferential(run);
        assertTrue(reference.contains("value [FAILED toString()] end"), reference);
        assertTrue(reference.contains("values [FAILED toString()] null [FAILED toString()]"), reference);
    }

    @Test
    @Timeout(60)
    void nullEverythingIsPrintedAsPatternLayoutEncoderPrintsIt() throws Exception {
        LogbackRun run = differential(PATTERN.replace("%n", " %X{k} %X{absent:-dflt}%n"));
        LoggerContext lc = run.lc;
        String threadName = Thread.currentThread().getName();
        try {
            Logger log = lc.getLogger("app.Service");
            sentinel(log);
            log.info((String) null);
            sentinel(log);
            log.info(null, (Object[]) null);
            sentinel(log);
            log.info(null, 1, null);
            sentinel(log);
            log.info("a {} b {}", null, null);
            sentinel(log);
            log.info("args {}", (Object[]) null);
            sentinel(log);
            log.info("null throwable", (Throwable) null);
            sentinel(log);
            log.info(null, (Throwable) null);
            sentinel(log);
            log.error("null message in throwable", new RuntimeException((String) null, new Error((String) null)));
            sentinel(log);
            lc.getMDCAdapter().put("k", null);
            log.info("null MDC value"); // a null key is rejected by MDC.put itself
            lc.getMDCAdapter().clear();
            sentinel(log);
            Thread.currentThread().setName("");
            log.info("empty thread name");
            Thread.currentThread().setName(threadName);
            sentinel(log);
            // LoggerContext.getLogger(null) throws; a bridge or a custom event can carry a null
            // logger name (and a null message), so hand such an event to the root's appenders.
            LoggingEvent nameless = new LoggingEvent();
            nameless.setLoggerContext(lc);
            nameless.setLevel(Level.INFO);
            nameless.setLoggerName(null);
            nameless.setMessage(null);
            nameless.setThreadName("t");
            nameless.setTimeStamp(0);
            lc.getLogger(Logger.ROOT_LOGGER_NAME).callAppenders(nameless);
            sentinel(log);
        } finally {
            Thread.currentThread().setName(threadName);
            lc.stop();
        }
        assertDifferential(run);
    }

    /** Thousands of distinct 16 KiB logger and thread names, in a forked JVM with a 128 MiB heap. */
    @Test
    @Timeout(120)
    void longDistinctNamesAreNotCachedWithoutBound() throws Exception {
        HostileMain.verifyLongNames(dir, fork("longnames"));
    }

    private void sentinel(Logger log) {
        log.info("sentinel seq={}", nextSentinel());
    }
}
