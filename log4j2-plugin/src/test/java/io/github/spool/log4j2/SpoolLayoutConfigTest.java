package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.message.SimpleMessage;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Configuration-time behaviour against PatternLayout: invalid patterns (same status messages, same
 * rendering of the error), {@code requiresLocation()}, {@code alwaysWriteExceptions}, and which
 * conversions stay on the garbage-free byte path.
 */
class SpoolLayoutConfigTest {

    private static final LogEvent EVENT = Log4jLogEvent.newBuilder().setLoggerName("a.b.C").setLevel(Level.WARN)
            .setThreadName("main").setMessage(new SimpleMessage("hello")).setTimeMillis(1_763_775_146_721L).build();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "%bogus %m", "abc %-5", "%5.x %m", "%d{", "%", "%{x}", "%m{", "%c{abc}", "%notEmpty", "%maxLen{%m}{x}",
        "%equals{%m}", "%replace{%m}", "%replace{%m}{[}{x}", "%X{", "%highlight{%m}{FATAL=nonsense}", "%style{%m}",
        "%enc{%m}{BOGUS}", "%-", "%.", "%ex{bogus}", "%repeat{x}", "%pid{}", "%d{qqq yyyy}", "%-5.-3..m", "%é",
        "%msgx %dates", "%%%", "a\\", "%level{length=x}", "%C{1.}.%M:%L %bogus{a}{b} %n",
    })
    void invalidPatternsLogAndPrintWhatPatternLayoutLogsAndPrints(String pattern) {
        Configuration config = new DefaultConfiguration();
        // The parser and plugin lists are built once per configuration; build them outside the capture.
        PatternLayout.newBuilder().setConfiguration(config).build();
        SpoolLayout.newBuilder().setConfiguration(config).build();
        List<String> referenceStatus = new ArrayList<>();
        Object reference = statusDuring(referenceStatus,
                () -> PatternLayout.newBuilder().setPattern(pattern).setConfiguration(config).build());
        List<String> spoolStatus = new ArrayList<>();
        Object spool = statusDuring(spoolStatus,
                () -> SpoolLayout.newBuilder().setPattern(pattern).setConfiguration(config).build());
        assertEquals(referenceStatus, spoolStatus, "status messages");
        if (reference instanceof Throwable) {
            // log4j2 fails on some patterns (a trailing backslash): the same exception, same message
            assertEquals(reference.toString(), String.valueOf(spool));
            assertEquals(String.valueOf(((Throwable) reference).getCause()), String.valueOf(((Throwable) spool).getCause()));
            return;
        }
        assertRendersAlike((PatternLayout) reference, (SpoolLayout) spool);
    }

    private static void assertRendersAlike(PatternLayout reference, SpoolLayout spool) {
        assertArrayEquals(reference.toByteArray(EVENT), spool.toByteArray(EVENT),
                () -> new String(reference.toByteArray(EVENT), StandardCharsets.UTF_8));
        assertEquals(reference.toSerializable(EVENT), spool.toSerializable(EVENT));
    }

    @Test
    void someInvalidPatternsReallyLogErrors() {
        Configuration config = new DefaultConfiguration();
        List<String> status = new ArrayList<>();
        statusDuring(status, () -> SpoolLayout.newBuilder().setPattern("%bogus %5.x").setConfiguration(config).build());
        assertTrue(status.stream().anyMatch(s -> s.startsWith("ERROR Unrecognized format specifier [bogus]")), "" + status);
        assertTrue(status.stream().anyMatch(s -> s.contains("Was expecting digit")), "" + status);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"%m%n", "%d %p %c{1.} [%t] %X{a} %m %ex%n", "%l", "%L", "%C", "%M", "%F", "%location",
        "%line", "%class{1.}", "%method", "%file", "%highlight{%L}", "%notEmpty{%M}", "%maxLen{%l}{5}",
        "%style{%C}{red}", "%xEx", "%m%rEx{short.lineNumber}", "%ex{short.fileName}", "%spoolTest{x}",
        "%spoolTest{x}{location}", "%enc{%F}", "%equals{%M}{x}{y}", "%replace{%L}{1}{2}", "%m%n%L"})
    void requiresLocationExactlyWhenPatternLayoutDoes(String pattern) {
        Configuration config = new DefaultConfiguration();
        for (boolean always : new boolean[] {true, false}) {
            PatternLayout reference = PatternLayout.newBuilder().setPattern(pattern).setConfiguration(config)
                    .setAlwaysWriteExceptions(always).build();
            SpoolLayout spool = SpoolLayout.newBuilder().setPattern(pattern).setConfiguration(config)
                    .setAlwaysWriteExceptions(always).build();
            assertEquals(reference.requiresLocation(), spool.requiresLocation(), pattern + " always=" + always);
        }
    }

    @Test
    void locationConversionsRequireLocation() {
        // A non-vacuous anchor for the comparison above: both layouts do say true here.
        for (String pattern : new String[] {"%L", "%C", "%M", "%F", "%l", "%location", "%spoolTest{x}{location}"}) {
            assertTrue(SpoolLayout.newLayout(pattern, null, true, null).requiresLocation(), pattern);
        }
        assertFalse(SpoolLayout.newLayout("%d %p %c %m%n", null, true, null).requiresLocation());
    }

    @Test
    void customConverterPluginsRenderAsInPatternLayout() {
        Configuration config = new DefaultConfiguration();
        String pattern = "%-12spoolTest{pre:} %spoolTestConverter{}{location} %m%n";
        LogEvent event = Log4jLogEvent.newBuilder().setLevel(Level.INFO).setMessage(new SimpleMessage("abc"))
                .setSource(new StackTraceElement("a.B", "run", "B.java", 42)).build();
        Layout<?> reference = PatternLayout.newBuilder().setPattern(pattern).setConfiguration(config).build();
        SpoolLayout spool = SpoolLayout.newBuilder().setPattern(pattern).setConfiguration(config).build();
        assertEquals("pre:INFO/3   INFO/3@42 abc" + System.lineSeparator(),
                new String(spool.toByteArray(event), StandardCharsets.UTF_8));
        assertArrayEquals(reference.toByteArray(event), spool.toByteArray(event));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n",
        "%d{ISO8601_OFFSET_DATE_TIME_HHCMM}{UTC} %-5p [%-10.10t] %c{1.} %X{user} %X %.-20m%%%n",
        "%date{DEFAULT_MICROS} %level{length=1} %thread %c{-1} %c{1.1*} %mdc{user,request} %msg %ex%n",
        "%d %p %c{1.} [%t] %m%n",
    })
    void commonPatternsStayOnTheBytePath(String pattern) {
        // %level{length=1} and %c{1.} are log4j2's own converters, garbage-free as they are: not "byte
        // path" by this definition, so only the patterns without them are checked for it.
        SpoolLayout layout = SpoolLayout.newLayout(pattern, "UTF-8", true, null);
        boolean expectBytePath = !pattern.contains("{length=1}") && !pattern.contains("{1.}");
        assertEquals(expectBytePath, layout.isBytePathOnly(), layout.describe());
    }

    @Test
    void delegatedConversionsAreNamedInTheDescription() {
        SpoolLayout layout = SpoolLayout.newLayout("%d %highlight{%p} %m%n", "UTF-8", true, null);
        assertFalse(layout.isBytePathOnly());
        assertTrue(layout.describe().contains("delegated HighlightConverter"), layout.describe());
        assertTrue(SpoolLayout.newLayout("%m%n", "ISO-8859-1", true, null).describe().contains("whole line"));
    }

    @Test
    void alwaysWriteExceptionsAppendsTheTraceLikePatternLayout() {
        LogEvent event = Log4jLogEvent.newBuilder().setLoggerName("a.b").setLevel(Level.ERROR)
                .setMessage(new SimpleMessage("boom")).setThrown(new IllegalStateException("x")).build();
        for (String pattern : new String[] {"%m", "%m%n", "%m%ex%n", "%-5n", "%m%xEx", "%notEmpty{%ex}"}) {
            for (boolean always : new boolean[] {true, false}) {
                PatternLayout reference = PatternLayout.newBuilder().setPattern(pattern)
                        .setAlwaysWriteExceptions(always).setCharset(StandardCharsets.UTF_8).build();
                SpoolLayout spool = SpoolLayout.newLayout(pattern, null, always, null);
                assertEquals(new String(reference.toByteArray(event), StandardCharsets.UTF_8),
                        new String(SpoolLayoutDifferentialTest.encode(spool, event), StandardCharsets.UTF_8),
                        pattern + " alwaysWriteExceptions=" + always);
            }
        }
    }

    /** @return what the action returned, or what it threw */
    private static Object statusDuring(List<String> sink, Supplier<?> action) {
        StatusListener listener = new StatusListener() {
            @Override
            public void log(StatusData data) {
                sink.add(data.getLevel() + " " + data.getMessage().getFormattedMessage()
                        + (data.getThrowable() == null ? "" : " " + data.getThrowable()));
            }

            @Override
            public Level getStatusLevel() {
                return Level.TRACE;
            }

            @Override
            public void close() {
            }
        };
        StatusLogger.getLogger().registerListener(listener);
        try {
            return action.get();
        } catch (RuntimeException e) {
            return e;
        } finally {
            StatusLogger.getLogger().removeListener(listener);
        }
    }
}
