package io.github.spool.log4j2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.soak.HostileInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input through the {@code <Spool>} appender (issue 6, part 5). Each in-process case is
 * differential: every event goes to Spool with SpoolLayout, Spool with PatternLayout and log4j2's
 * own File appender with PatternLayout (the oracle), and the three files must be byte-identical —
 * Spool keeps log4j2's semantics, whatever they are. Numbered sentinel events before and after each
 * hostile one prove that nothing unrelated is lost. The cases that need a small heap (a 10 MiB
 * message, two million logger names) run in forked JVMs ({@link HostileMain}).
 */
class HostileInputTest {

    /** Thread, level, logger, the whole MDC, message; alwaysWriteExceptions adds the stack trace. */
    private static final String PATTERN = "[%t] %-5level %c %X - %m%n";
    private static final String ESC = "\u001b";

    @TempDir
    Path dir;

    private int sentinels;

    @AfterEach
    void clearThreadContext() {
        ThreadContext.clearMap();
    }

    @Test
    @Timeout(60)
    void crLfAndAnsiEscapesArePrintedExactlyAsPatternLayoutPrintsThem() throws Exception {
        LoggerContext context = Log4jRig.differential(dir, PATTERN);
        Log4jRig.assertRenderMode(context, "spool");
        String threadName = Thread.currentThread().getName();
        try {
            Logger log = context.getLogger("app.Service");
            sentinel(log);
            log.info("user logged in\r\n[main] INFO  app.Service - forged admin login");
            sentinel(log);
            log.warn("lone CR\rand lone LF\nand CRLF\r\nend");
            sentinel(log);
            log.info("user={} action={}", "eve\r\n[main] ERROR app.Service - forged", ESC + "[2J" + ESC + "[31mred" + ESC + "[0m");
            sentinel(log);
            log.error(ESC + "]0;window title" + '\u0007' + ESC + "[1A" + ESC + "[K overwritten previous line");
            sentinel(log);
            ThreadContext.put("user", "bob\r\nforged mdc line " + ESC + "[5m");
            log.info("with a hostile MDC value");
            ThreadContext.clearMap();
            sentinel(log);
            log.error("failure", new IllegalStateException("bad input\r\n\tat forged.Frame(Forged.java:1)" + ESC + "[0m"));
            sentinel(log);
            Thread.currentThread().setName("worker\r\n" + ESC + "[31m");
            log.info("hostile thread name");
            Thread.currentThread().setName(threadName);
            sentinel(log);
            context.getLogger("evil\r\nlogger" + ESC + "[0m").info("hostile logger name");
            sentinel(log);
            log.info("C1 controls and NUL: \u0085 \u009b31m \u0000 \u2028 \u2029 end");
            sentinel(log);
        } finally {
            Thread.currentThread().setName(threadName);
            context.stop();
        }
        String reference = assertDifferential();
        assertTrue(reference.contains("user logged in\r\n[main] INFO  app.Service - forged admin login"),
                "PatternLayout keeps CR/LF, and so must Spool:\n" + reference);
        assertTrue(reference.contains(ESC + "[2J"), "PatternLayout keeps ESC");
    }

    /**
     * {@code %enc{%m}{CRLF}} is log4j2's neutraliser for log forging. SpoolLayout renders it through
     * log4j2's own converter: Spool with SpoolLayout, Spool with PatternLayout and log4j2's File
     * appender print the same bytes, one line per event, CR and LF printed as {@code \r} {@code \n}.
     */
    @Test
    @Timeout(60)
    void encCrLfNeutralisesForgingThroughSpoolLayoutAsThroughPatternLayout() throws Exception {
        String pattern = "%-5level %c - %enc{%m}{CRLF}%n";
        LoggerContext context = Log4jRig.differential(dir, pattern);
        int events = 0;
        try {
            Logger log = context.getLogger("app.Service");
            for (String m : new String[] {"ok", "a\r\nINFO  app.Service - forged", "b\nc\rd", "arg {}", ESC + "[31m\r\n"}) {
                log.info(m, "x\r\ny");
                events++;
            }
        } finally {
            context.stop();
        }
        String text = assertDifferential();
        String[] lines = text.split("\n", -1);
        assertEquals(events + 1, lines.length, "one line per event (and the empty rest): " + text);
        assertTrue(text.contains("INFO  app.Service - a\\r\\nINFO  app.Service - forged\n"), text);
        assertTrue(!text.contains("\r"), "no CR left: " + text);
    }

    /** log4j2 prints {@code [!!!Class@hash=>Exception:message!!!]} for a failing toString(). */
    @Test
    @Timeout(60)
    void argumentWhoseToStringThrowsIsPrintedAsLog4j2PrintsIt() throws Exception {
        LoggerContext context = Log4jRig.differential(dir, PATTERN);
        Object bomb = new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("boom\r\nforged");
            }
        };
        Object nullMessage = new Object() {
            @Override
            public String toString() {
                throw new UnsupportedOperationException();
            }
        };
        Object returnsNull = new Object() {
            @Override
            public String toString() {
                return null;
            }
        };
        try {
            Logger log = context.getLogger("app.Service");
            sentinel(log);
            log.info("value {} end", bomb);
            sentinel(log);
            log.info("values {} {} {}", nullMessage, returnsNull, bomb);
            sentinel(log);
            log.info("array {}", (Object) new Object[] {bomb, 1});
            sentinel(log);
            log.info(bomb); // the object is the message: ObjectMessage
            sentinel(log);
        } finally {
            context.stop();
        }
        String reference = assertDifferential();
        assertTrue(reference.contains("=>java.lang.IllegalStateException:boom\r\nforged!!!]"), reference);
        assertTrue(reference.contains("=>java.lang.UnsupportedOperationException:null!!!]"), reference);
    }

    /**
     * A throwable whose {@code getMessage()}/{@code toString()} throws: whatever log4j2 does with it
     * (here PatternLayout's renderer throws and log4j2's appender control reports and drops the
     * event), Spool does the same, and every sentinel around it is written.
     */
    @Test
    @Timeout(60)
    void throwableWhoseMessageThrowsBehavesAsInLog4j2AndLosesNothingElse() throws Exception {
        LoggerContext context = Log4jRig.differential(dir, PATTERN);
        try {
            Logger log = context.getLogger("app.Service");
            sentinel(log);
            log.error("hostile throwable", new HostileInput.HostileThrowable(true));
            sentinel(log);
            log.error("hostile toString only", new HostileInput.HostileThrowable(false));
            sentinel(log);
            log.error("cause is hostile", new RuntimeException("outer", new HostileInput.HostileThrowable(true)));
            sentinel(log);
            log.error("null message", new RuntimeException((String) null));
            sentinel(log);
        } finally {
            context.stop();
        }
        assertDifferential();
    }

    @Test
    @Timeout(60)
    void nullEverythingIsPrintedAsPatternLayoutPrintsIt() throws Exception {
        LoggerContext context = Log4jRig.differential(dir, PATTERN + "%c{1.} %c{-1} %X{absent}%n");
        String threadName = Thread.currentThread().getName();
        try {
            Logger log = context.getLogger("app.Service");
            sentinel(log);
            log.info((String) null);
            sentinel(log);
            log.info((Object) null);
            sentinel(log);
            log.info((Message) null);
            sentinel(log);
            log.info((String) null, 1, null);
            sentinel(log);
            log.info("a {} b {}", null, null);
            sentinel(log);
            log.info("args {}", (Object[]) null);
            sentinel(log);
            log.info((CharSequence) null);
            sentinel(log);
            log.info("null throwable", (Throwable) null);
            sentinel(log);
            log.info((String) null, (Throwable) null);
            sentinel(log);
            log.error("null message in throwable", new RuntimeException((String) null, new Error((String) null)));
            sentinel(log);
            ThreadContext.put("k", null);
            log.info("null MDC value"); // a null key is rejected by ThreadContext.put itself
            ThreadContext.clearMap();
            sentinel(log);
            Thread.currentThread().setName("");
            log.info("empty thread name");
            Thread.currentThread().setName(threadName);
            sentinel(log);
            context.getLogger("").info("empty logger name");
            sentinel(log);
            // A null logger name is not reachable through the Logger API (it uses the caller's class
            // name); a bridge or a custom event can carry one, so hand such an event to the root.
            context.getConfiguration().getRootLogger().log(Log4jLogEvent.newBuilder().setLoggerName(null)
                    .setLevel(Level.INFO).setMessage(new SimpleMessage("null logger name"))
                    .setThreadName(null).setTimeMillis(0).build());
            sentinel(log);
        } finally {
            Thread.currentThread().setName(threadName);
            context.stop();
        }
        assertDifferential();
    }

    /**
     * Arguments whose toString() logs through the same logger (one and two levels deep), from four
     * threads at once, with SpoolLayout and with PatternLayout: no deadlock (every thread ends within
     * the timeout), the inner events come first (they are logged while the outer message is
     * formatted), and no event of any thread is lost or torn.
     */
    @Test
    @Timeout(60)
    void argumentWhoseToStringLogsNeitherDeadlocksNorLosesEvents() throws Exception {
        for (String layout : new String[] {"SpoolLayout", "PatternLayout"}) {
            Path file = dir.resolve("recursion-" + layout + ".log");
            LoggerContext context = Log4jRig.start(dir, "<Spool name='spool' fileName='" + file
                    + "' bufferSize='8 KiB' maxBufferSize='64 KiB'" + Log4jRig.render() + "><" + layout
                    + " pattern='%m%n'/></Spool>", "spool");
            int threads = 4;
            int perThread = 2_000;
            try {
                Logger log = context.getLogger("app.Recursive");
                HostileInput.logRecursively(log::info, threads, perThread);
            } finally {
                context.stop();
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

    private void sentinel(Logger log) {
        log.info("sentinel seq={}", sentinels++);
    }

    /**
     * Asserts that the three outputs are byte-identical and that every sentinel is there, in order.
     *
     * @return the reference output
     */
    private String assertDifferential() throws IOException {
        byte[] reference = Files.readAllBytes(dir.resolve(Log4jRig.REFERENCE));
        byte[] spool = Files.readAllBytes(dir.resolve(Log4jRig.SPOOL));
        byte[] spoolPattern = Files.readAllBytes(dir.resolve(Log4jRig.SPOOL_PATTERN));
        String text = new String(reference, StandardCharsets.UTF_8);
        HostileInput.assertSameLines(text, new String(spool, StandardCharsets.UTF_8), "Spool + SpoolLayout vs File + PatternLayout");
        assertArrayEquals(reference, spool, "Spool + SpoolLayout vs File + PatternLayout (bytes)");
        assertArrayEquals(reference, spoolPattern, "Spool + PatternLayout vs File + PatternLayout");
        HostileInput.assertSentinels(text, sentinels);
        return text;
    }
}
