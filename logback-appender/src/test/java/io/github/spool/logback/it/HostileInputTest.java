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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input through {@code SpoolAppender} (issue 6, part 5). Each in-process case is
 * differential: every event goes to SpoolAppender with SpoolEncoder, SpoolAppender with
 * PatternLayoutEncoder and logback's own FileAppender with PatternLayoutEncoder (the oracle), and
 * the three files must be byte-identical — Spool keeps logback's semantics, whatever they are.
 * Numbered sentinel events before and after each hostile one prove that nothing unrelated is lost.
 * The cases that need a small heap (a 10 MiB message, two million logger names, long names) run in
 * forked JVMs ({@link HostileMain}).
 */
class HostileInputTest {

    /** Thread, level, logger (whole and abbreviated), the whole MDC, message; logback adds %ex. */
    private static final String PATTERN = "[%thread] %-5level %logger %logger{10} {%mdc} - %msg%n";
    private static final String ESC = "\u001b";

    @TempDir
    Path dir;

    private int sentinels;

    @Test
    @Timeout(60)
    void crLfAndAnsiEscapesArePrintedExactlyAsPatternLayoutEncoderPrintsThem() throws Exception {
        LoggerContext lc = LogbackRig.differential(dir, PATTERN);
        LogbackRig.assertRenderMode(lc, "spool");
        String threadName = Thread.currentThread().getName();
        try {
            Logger log = lc.getLogger("app.Service");
            sentinel(log);
            log.info("user logged in\r\n[main] INFO  app.Service - forged admin login");
            sentinel(log);
            log.warn("lone CR\rand lone LF\nand CRLF\r\nend");
            sentinel(log);
            log.info("user={} action={}", "eve\r\n[main] ERROR app.Service - forged", ESC + "[2J" + ESC + "[31mred" + ESC + "[0m");
            sentinel(log);
            log.error(ESC + "]0;window title" + '\u0007' + ESC + "[1A" + ESC + "[K overwritten previous line");
            sentinel(log);
            lc.getMDCAdapter().put("user", "bob\r\nforged mdc line " + ESC + "[5m");
            log.info("with a hostile MDC value");
            lc.getMDCAdapter().clear();
            sentinel(log);
            log.error("failure", new IllegalStateException("bad input\r\n\tat forged.Frame(Forged.java:1)" + ESC + "[0m"));
            sentinel(log);
            Thread.currentThread().setName("worker\r\n" + ESC + "[31m");
            log.info("hostile thread name");
            Thread.currentThread().setName(threadName);
            sentinel(log);
            lc.getLogger("evil\r\nlogger" + ESC + "[0m.Name").info("hostile logger name");
            sentinel(log);
            log.info("C1 controls and NUL: \u0085 \u009b31m \u0000 \u2028 \u2029 end");
            sentinel(log);
        } finally {
            Thread.currentThread().setName(threadName);
            lc.stop();
        }
        String reference = assertDifferential(lc);
        assertTrue(reference.contains("user logged in\r\n[main] INFO  app.Service - forged admin login"),
                "PatternLayoutEncoder keeps CR/LF, and so must Spool:\n" + reference);
        assertTrue(reference.contains(ESC + "[2J"), "PatternLayoutEncoder keeps ESC");
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
                LogbackRig.spool("spool", dir.resolve(LogbackRig.SPOOL), "io.github.spool.logback.SpoolEncoder", pattern, "")
                        + LogbackRig.spool("spoolPattern", dir.resolve(LogbackRig.SPOOL_PATTERN),
                                "ch.qos.logback.classic.encoder.PatternLayoutEncoder", pattern, "")
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
        LoggerContext lc = LogbackRig.differential(dir, PATTERN);
        Object bomb = new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("boom\r\nforged");
            }
        };
        Object returnsNull = new Object() {
            @Override
            public String toString() {
                return null;
            }
        };
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
        String reference = assertDifferential(lc);
        assertTrue(reference.contains("value [FAILED toString()] end"), reference);
        assertTrue(reference.contains("values [FAILED toString()] null [FAILED toString()]"), reference);
    }

    /**
     * A throwable whose {@code getMessage()}/{@code toString()} throws: whatever logback does with
     * it, Spool does the same, and every sentinel around it is written.
     */
    @Test
    @Timeout(60)
    void throwableWhoseMessageThrowsBehavesAsInLogbackAndLosesNothingElse() throws Exception {
        LoggerContext lc = LogbackRig.differential(dir, PATTERN);
        List<String> thrown = new ArrayList<>();
        try {
            Logger log = lc.getLogger("app.Service");
            Throwable[] hostile = {new HostileInput.HostileThrowable(true), new HostileInput.HostileThrowable(false),
                new RuntimeException("outer", new HostileInput.HostileThrowable(true)), new RuntimeException((String) null)};
            for (Throwable t : hostile) {
                sentinel(log);
                try {
                    log.error("hostile throwable", t);
                } catch (RuntimeException e) {
                    thrown.add(e.toString()); // logback's own behaviour, before any appender
                }
            }
            sentinel(log);
        } finally {
            lc.stop();
        }
        assertDifferential(lc);
        System.out.println("logback threw to the caller for hostile throwables: " + thrown);
    }

    @Test
    @Timeout(60)
    void nullEverythingIsPrintedAsPatternLayoutEncoderPrintsIt() throws Exception {
        LoggerContext lc = LogbackRig.differential(dir, PATTERN.replace("%n", " %X{k} %X{absent:-dflt}%n"));
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
        assertDifferential(lc);
    }

    /**
     * Arguments whose toString() logs through the same logger (one and two levels deep), from four
     * threads at once, with SpoolEncoder and with PatternLayoutEncoder: no deadlock (every thread
     * ends within the timeout), the inner events come first (they are logged while the outer event
     * is encoded), and no event of any thread is lost or torn.
     */
    @Test
    @Timeout(60)
    void argumentWhoseToStringLogsNeitherDeadlocksNorLosesEvents() throws Exception {
        for (String encoder : new String[] {"io.github.spool.logback.SpoolEncoder", "ch.qos.logback.classic.encoder.PatternLayoutEncoder"}) {
            Path file = dir.resolve("recursion-" + encoder + ".log");
            LoggerContext lc = LogbackRig.configure(LogbackRig.spool("spool", file, encoder, "%msg%n",
                    "<bufferSize>8KB</bufferSize><maxBufferSize>64KB</maxBufferSize>"), "spool");
            int threads = 4;
            int perThread = 2_000;
            try {
                Logger log = lc.getLogger("app.Recursive");
                HostileInput.logRecursively(log::info, threads, perThread);
            } finally {
                lc.stop();
            }
            HostileInput.verifyRecursion(file, threads, perThread);
        }
    }

    /** The 10 MiB message, in a forked JVM with a 128 MiB heap. */
    @Test
    @Timeout(120)
    void tenMebibyteMessageIsWrittenWholeBetweenIntactNeighbours() throws Exception {
        HostileMain.verifyBig(dir, HostileMain.fork(dir, "big"));
    }

    /** Two million distinct logger names, in a forked JVM with a 128 MiB heap. */
    @Test
    @Timeout(120)
    void twoMillionDistinctLoggerNamesNeedNoMemory() throws Exception {
        HostileMain.verifyLoggers(dir, HostileMain.fork(dir, "loggers"));
    }

    /** Thousands of distinct 16 KiB logger and thread names, in a forked JVM with a 128 MiB heap. */
    @Test
    @Timeout(120)
    void longDistinctNamesAreNotCachedWithoutBound() throws Exception {
        HostileMain.verifyLongNames(dir, HostileMain.fork(dir, "longnames"));
    }

    private void sentinel(Logger log) {
        log.info("sentinel seq={}", sentinels++);
    }

    /**
     * Asserts that the three outputs are byte-identical and that every sentinel is there, in order.
     *
     * @return the reference output
     */
    private String assertDifferential(LoggerContext lc) throws IOException {
        byte[] reference = Files.readAllBytes(dir.resolve(LogbackRig.REFERENCE));
        byte[] spool = Files.readAllBytes(dir.resolve(LogbackRig.SPOOL));
        byte[] spoolPattern = Files.readAllBytes(dir.resolve(LogbackRig.SPOOL_PATTERN));
        String text = new String(reference, StandardCharsets.UTF_8);
        HostileInput.assertSameLines(text, new String(spool, StandardCharsets.UTF_8), "SpoolAppender + SpoolEncoder vs FileAppender + PatternLayoutEncoder");
        assertArrayEquals(reference, spool, "SpoolAppender + SpoolEncoder vs FileAppender + PatternLayoutEncoder (bytes)");
        assertArrayEquals(reference, spoolPattern, "SpoolAppender + PatternLayoutEncoder vs FileAppender + PatternLayoutEncoder");
        HostileInput.assertSentinels(text, sentinels);
        // Where logback reports an error for its own appender (e.g. an abbreviator refusing a
        // null logger name), the Spool appenders report the same one, and no other.
        List<String> errors = LogbackRig.errors(lc);
        List<String> expected = errorsOf(errors, "reference");
        assertEquals(expected, errorsOf(errors, "spool"), "SpoolAppender + SpoolEncoder errors");
        assertEquals(expected, errorsOf(errors, "spoolPattern"), "SpoolAppender + PatternLayoutEncoder errors");
        return text;
    }

    private static List<String> errorsOf(List<String> errors, String appender) {
        String tag = "[" + appender + "]";
        return errors.stream().filter(e -> e.contains(tag)).map(e -> e.replace(tag, "[appender]")).collect(Collectors.toList());
    }
}
