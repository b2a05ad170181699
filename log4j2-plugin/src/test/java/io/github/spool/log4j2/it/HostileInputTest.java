package io.github.spool.log4j2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.soak.HostileInput;
import io.github.spool.soak.HostileInputContract;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntFunction;
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

/**
 * Hostile input through the {@code <Spool>} appender (issue 6, part 5): the shared cases of
 * {@link HostileInputContract} with Spool + SpoolLayout, Spool + PatternLayout and log4j2's own
 * File appender + PatternLayout (the oracle), and the cases whose API is log4j2's own. The cases
 * that need a small heap (a 10 MiB message, two million logger names) run in forked JVMs
 * ({@link HostileMain}).
 */
class HostileInputTest extends HostileInputContract<Log4jRun> {

    /** Thread, level, logger, the whole MDC, message; alwaysWriteExceptions adds the stack trace. */
    private static final String PATTERN = "[%t] %-5level %c %X - %m%n";

    @AfterEach
    void clearThreadContext() {
        ThreadContext.clearMap();
    }

    @Override
    protected Log4jRun differential(String pattern) throws Exception {
        return new Log4jRun(Log4jRig.differential(dir, pattern));
    }

    @Override
    protected String pattern() {
        return PATTERN;
    }

    @Override
    protected List<String> outputNames() {
        return List.of("Spool + SpoolLayout", "Spool + PatternLayout", "File + PatternLayout");
    }

    @Override
    protected List<String> recursionLayouts() {
        return List.of("SpoolLayout", "PatternLayout");
    }

    @Override
    protected Log4jRun startRecursion(Path file, String layout) throws Exception {
        return new Log4jRun(Log4jRig.start(dir, "<Spool name='spool' fileName='" + file
                + "' bufferSize='8 KiB' maxBufferSize='64 KiB'" + Log4jRig.render() + "><" + layout
                + " pattern='%m%n'/></Spool>", "spool"));
    }

    @Override
    protected Class<?> hostileMain() {
        return HostileMain.class;
    }

    @Override
    protected String render() {
        return Log4jRig.RENDER;
    }

    @Override
    protected IntFunction<String> loggersLine() {
        return i -> (HostileMain.WRITER ? "pkg.sub.N" : "p.s.N") + i + " N" + i + " " + i;
    }

    @Override
    protected boolean frameworkThrowsForHostileThrowables() {
        return false;
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
        Log4jRun run = differential(pattern);
        LoggerContext context = run.context;
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
        String text = assertDifferential(run);
        String[] lines = text.split("\n", -1);
        assertEquals(events + 1, lines.length, "one line per event (and the empty rest): " + text);
        assertTrue(text.contains("INFO  app.Service - a\\r\\nINFO  app.Service - forged\n"), text);
        assertTrue(!text.contains("\r"), "no CR left: " + text);
    }

    /** log4j2 prints {@code [!!!Class@hash=>Exception:message!!!]} for a failing toString(). */
    @Test
    @Timeout(60)
    void argumentWhoseToStringThrowsIsPrintedAsLog4j2PrintsIt() throws Exception {
        Log4jRun run = differential(PATTERN);
        LoggerContext context = run.context;
        Object bomb = HostileInput.toStringThrows(() -> new IllegalStateException("boom\r\nforged"));
        Object nullMessage = HostileInput.toStringThrows(UnsupportedOperationException::new);
        Object returnsNull = HostileInput.toStringReturnsNull();
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
        String reference = assertDifferential(run);
        assertTrue(reference.contains("=>java.lang.IllegalStateException:boom\r\nforged!!!]"), reference);
        assertTrue(reference.contains("=>java.lang.UnsupportedOperationException:null!!!]"), reference);
    }

    @Test
    @Timeout(60)
    void nullEverythingIsPrintedAsPatternLayoutPrintsIt() throws Exception {
        Log4jRun run = differential(PATTERN + "%c{1.} %c{-1} %X{absent}%n");
        LoggerContext context = run.context;
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
        assertDifferential(run);
    }

    private void sentinel(Logger log) {
        log.info("sentinel seq={}", nextSentinel());
    }
}
