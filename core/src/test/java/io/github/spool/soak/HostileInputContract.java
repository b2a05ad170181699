package io.github.spool.soak;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input through a framework, the cases both adapters share. Each in-process case is
 * differential: every event goes to a Spool appender with Spool's own layout ({@value #SPOOL}), a
 * Spool appender with the framework's pattern layout ({@value #SPOOL_PATTERN}) and the framework's
 * own file appender with its pattern layout (the oracle, {@value #REFERENCE}), and the three files
 * must be byte-identical — Spool keeps the framework's semantics, whatever they are. Numbered
 * sentinel events before and after each hostile one prove that nothing unrelated is lost. The cases
 * that need a small heap run in forked JVMs ({@link HostileChild}). An adapter's
 * {@code HostileInputTest} extends this with its framework's wiring and the cases whose API or
 * semantics are its own. Test support.
 *
 * @param <R> the adapter's started configuration
 */
public abstract class HostileInputContract<R extends HostileInputContract.Run> {

    /** Output of the Spool appender with Spool's own layout. */
    public static final String SPOOL = "spool.log";
    /** Output of the Spool appender with the framework's pattern layout. */
    public static final String SPOOL_PATTERN = "spool-pattern.log";
    /** Output of the framework's own file appender (the oracle). */
    public static final String REFERENCE = "reference.log";
    /** The escape character that starts ANSI sequences. */
    protected static final String ESC = "\u001b";

    @TempDir
    protected Path dir;

    private int sentinels;

    /**
     * A framework logger's calls that the shared cases make, each the framework's own overload of
     * that shape (handed in as method references, so the adapter writes no delegation).
     */
    public static final class Log {
        private final Consumer<String> info;
        private final BiConsumer<String, Object> infoOne;
        private final HostileInput.Info infoMany;
        private final Consumer<String> warn;
        private final Consumer<String> error;
        private final BiConsumer<String, Throwable> errorThrown;

        /**
         * @param info        {@code info(String)}
         * @param infoOne     {@code info(String, Object)}
         * @param infoMany    {@code info(String, Object...)}
         * @param warn        {@code warn(String)}
         * @param error       {@code error(String)}
         * @param errorThrown {@code error(String, Throwable)}
         */
        public Log(Consumer<String> info, BiConsumer<String, Object> infoOne, HostileInput.Info infoMany,
                Consumer<String> warn, Consumer<String> error, BiConsumer<String, Throwable> errorThrown) {
            this.info = info;
            this.infoOne = infoOne;
            this.infoMany = infoMany;
            this.warn = warn;
            this.error = error;
            this.errorThrown = errorThrown;
        }

        /** @param message logged at INFO as it is */
        public void info(String message) {
            info.accept(message);
        }

        /**
         * @param format the message pattern
         * @param arg    its one argument
         */
        public void info(String format, Object arg) {
            infoOne.accept(format, arg);
        }

        /**
         * @param format the message pattern
         * @param args   its arguments
         */
        public void info(String format, Object... args) {
            infoMany.info(format, args);
        }

        /** @param message logged at WARN */
        public void warn(String message) {
            warn.accept(message);
        }

        /** @param message logged at ERROR */
        public void error(String message) {
            error.accept(message);
        }

        /**
         * @param message logged at ERROR
         * @param t       its throwable
         */
        public void error(String message, Throwable t) {
            errorThrown.accept(message, t);
        }
    }

    /** One started configuration of the framework. */
    public interface Run {
        /**
         * @param name a logger name
         * @return that logger of this configuration
         */
        Log logger(String name);

        /**
         * Sets a value in the framework's context map of the calling thread.
         *
         * @param key   the key
         * @param value the value, maybe {@code null}
         */
        void putMdc(String key, String value);

        /** Clears the calling thread's context map. */
        void clearMdc();

        /**
         * Hands an INFO event straight to the root logger's appenders, as a logger would send it:
         * creating millions of framework loggers would measure the framework, not Spool.
         *
         * @param loggerName the event's logger name
         * @param threadName the event's thread name
         * @param message    the event's message
         */
        void logToRoot(String loggerName, String threadName, String message);

        /** Fails unless the appender {@code spool} renders where the suite's render mode says. */
        void assertRenderMode();

        /** Stops the configuration, draining its appenders. */
        void stop();

        /**
         * Called after the outputs were compared: the Spool appenders must report whatever the
         * framework reports for its own appender, where the framework reports per appender.
         */
        default void assertSameErrors() {
        }
    }

    /**
     * Starts the three appenders of the differential, all with {@code pattern}, the root logger at
     * INFO to all three.
     *
     * @param pattern the pattern of the three layouts
     * @return the started configuration
     * @throws Exception if it cannot be started
     */
    protected abstract R differential(String pattern) throws Exception;

    /** @return the pattern of the in-process cases: thread, level, logger, the whole MDC, message */
    protected abstract String pattern();

    /** @return names of the three outputs for failure messages: Spool's layout, pattern layout, the oracle */
    protected abstract List<String> outputNames();

    /** @return the two layouts (or encoders) the recursion case runs with, as {@link #startRecursion} takes them */
    protected abstract List<String> recursionLayouts();

    /**
     * Starts one Spool appender with {@code layout} and pattern {@code %m%n} (or the framework's
     * spelling) to {@code file}, with an 8 KiB initial and 64 KiB maximum buffer.
     *
     * @param file   the output
     * @param layout one of {@link #recursionLayouts()}
     * @return the started configuration
     * @throws Exception if it cannot be started
     */
    protected abstract R startRecursion(Path file, String layout) throws Exception;

    /** @return the adapter's forked program: it runs a {@link HostileChild} */
    protected abstract Class<?> hostileMain();

    /** @return the render mode the suite runs with ({@code -Dspool.it.render}) */
    protected abstract String render();

    /**
     * @return the line the {@code loggers} mode writes for event {@code i}, in both Spool outputs
     */
    protected abstract IntFunction<String> loggersLine();

    /**
     * @return whether the framework itself throws a hostile throwable's exception to the caller
     *         (before any appender sees the event); if not, any exception fails the case
     */
    protected abstract boolean frameworkThrowsForHostileThrowables();

    @Test
    @Timeout(60)
    void crLfAndAnsiEscapesArePrintedExactlyAsTheFrameworksPatternLayoutPrintsThem() throws Exception {
        R run = differential(pattern());
        run.assertRenderMode();
        String threadName = Thread.currentThread().getName();
        try {
            Log log = run.logger("app.Service");
            sentinel(log);
            log.info("user logged in\r\n[main] INFO  app.Service - forged admin login");
            sentinel(log);
            log.warn("lone CR\rand lone LF\nand CRLF\r\nend");
            sentinel(log);
            log.info("user={} action={}", "eve\r\n[main] ERROR app.Service - forged", ESC + "[2J" + ESC + "[31mred" + ESC + "[0m");
            sentinel(log);
            log.error(ESC + "]0;window title" + '\u0007' + ESC + "[1A" + ESC + "[K overwritten previous line");
            sentinel(log);
            run.putMdc("user", "bob\r\nforged mdc line " + ESC + "[5m");
            log.info("with a hostile MDC value");
            run.clearMdc();
            sentinel(log);
            log.error("failure", new IllegalStateException("bad input\r\n\tat forged.Frame(Forged.java:1)" + ESC + "[0m"));
            sentinel(log);
            Thread.currentThread().setName("worker\r\n" + ESC + "[31m");
            log.info("hostile thread name");
            Thread.currentThread().setName(threadName);
            sentinel(log);
            // Ends in a dot-separated part so that an abbreviating converter has something to cut.
            run.logger("evil\r\nlogger" + ESC + "[0m.Name").info("hostile logger name");
            sentinel(log);
            log.info("C1 controls and NUL: \u0085 \u009b31m \u0000 \u2028 \u2029 end");
            sentinel(log);
        } finally {
            Thread.currentThread().setName(threadName);
            run.stop();
        }
        String reference = assertDifferential(run);
        assertTrue(reference.contains("user logged in\r\n[main] INFO  app.Service - forged admin login"),
                "the framework's pattern layout keeps CR/LF, and so must Spool:\n" + reference);
        assertTrue(reference.contains(ESC + "[2J"), "the framework's pattern layout keeps ESC");
    }

    /**
     * A throwable whose {@code getMessage()}/{@code toString()} throws: whatever the framework does
     * with it (log4j2's PatternLayout renderer throws and its appender control reports and drops
     * the event; logback may throw to the caller before any appender), Spool does the same, and
     * every sentinel around it is written.
     */
    @Test
    @Timeout(60)
    void throwableWhoseMessageThrowsBehavesAsInTheFrameworkAndLosesNothingElse() throws Exception {
        R run = differential(pattern());
        List<String> thrown = new ArrayList<>();
        try {
            Log log = run.logger("app.Service");
            Throwable[] hostile = {new HostileInput.HostileThrowable(true), new HostileInput.HostileThrowable(false),
                new RuntimeException("outer", new HostileInput.HostileThrowable(true)), new RuntimeException((String) null)};
            String[] messages = {"hostile throwable", "hostile toString only", "cause is hostile", "null message"};
            for (int i = 0; i < hostile.length; i++) {
                sentinel(log);
                try {
                    log.error(messages[i], hostile[i]);
                } catch (RuntimeException e) {
                    if (!frameworkThrowsForHostileThrowables()) {
                        throw e;
                    }
                    thrown.add(e.toString()); // the framework's own behaviour, before any appender
                }
            }
            sentinel(log);
        } finally {
            run.stop();
        }
        assertDifferential(run);
        if (!thrown.isEmpty()) {
            System.out.println("the framework threw to the caller for hostile throwables: " + thrown);
        }
    }

    /**
     * Arguments whose toString() logs through the same logger (one and two levels deep), from four
     * threads at once, with Spool's layout and with the framework's: no deadlock (every thread ends
     * within the timeout), the inner events come first (they are logged while the outer message is
     * formatted), and no event of any thread is lost or torn.
     */
    @Test
    @Timeout(60)
    void argumentWhoseToStringLogsNeitherDeadlocksNorLosesEvents() throws Exception {
        int threads = 4;
        int perThread = 2_000;
        for (String layout : recursionLayouts()) {
            Path file = dir.resolve("recursion-" + layout + ".log");
            R run = startRecursion(file, layout);
            try {
                Log log = run.logger("app.Recursive");
                HostileInput.logRecursively(log::info, threads, perThread);
            } finally {
                run.stop();
            }
            HostileInput.verifyRecursion(file, threads, perThread);
        }
    }

    /** The 10 MiB message, in a forked JVM with a 128 MiB heap. */
    @Test
    @Timeout(120)
    void tenMebibyteMessageIsWrittenWholeBetweenIntactNeighbours() throws Exception {
        HostileInput.verifyBig(dir, fork("big"), SPOOL, SPOOL_PATTERN, REFERENCE);
    }

    /** Two million distinct logger names, in a forked JVM with a 128 MiB heap. */
    @Test
    @Timeout(120)
    void twoMillionDistinctLoggerNamesNeedNoMemory() throws Exception {
        HostileInput.verifyLoggers(dir, fork("loggers"), loggersLine(), SPOOL, SPOOL_PATTERN);
    }

    /**
     * Runs {@code mode} of the adapter's {@link #hostileMain()} in a forked JVM.
     *
     * @param mode the child's mode
     * @return its figures
     * @throws IOException          if its output cannot be read
     * @throws InterruptedException if interrupted while waiting
     */
    protected final List<String> fork(String mode) throws IOException, InterruptedException {
        return HostileInput.fork(dir, hostileMain(), mode, render());
    }

    /** @return the next sentinel's number, counted for {@link #assertDifferential} */
    protected final int nextSentinel() {
        return sentinels++;
    }

    private void sentinel(Log log) {
        log.info("sentinel seq={}", nextSentinel());
    }

    /**
     * Asserts that the three outputs are byte-identical, that every sentinel is there, in order,
     * and that the framework reported the same errors for each ({@link Run#assertSameErrors}).
     *
     * @param run the stopped configuration
     * @return the reference output
     * @throws IOException if an output cannot be read
     */
    protected final String assertDifferential(R run) throws IOException {
        byte[] reference = Files.readAllBytes(dir.resolve(REFERENCE));
        byte[] spool = Files.readAllBytes(dir.resolve(SPOOL));
        byte[] spoolPattern = Files.readAllBytes(dir.resolve(SPOOL_PATTERN));
        List<String> names = outputNames();
        String text = new String(reference, StandardCharsets.UTF_8);
        HostileInput.assertSameLines(text, new String(spool, StandardCharsets.UTF_8), names.get(0) + " vs " + names.get(2));
        assertArrayEquals(reference, spool, names.get(0) + " vs " + names.get(2) + " (bytes)");
        assertArrayEquals(reference, spoolPattern, names.get(1) + " vs " + names.get(2));
        HostileInput.assertSentinels(text, sentinels);
        run.assertSameErrors();
        return text;
    }
}
