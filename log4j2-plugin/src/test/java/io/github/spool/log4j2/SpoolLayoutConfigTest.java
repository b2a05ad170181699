package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Unsupported patterns and settings are configuration errors that name the problem. */
class SpoolLayoutConfigTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "%l|%l",
        "%le %m|%l",
        "%xEx|%xEx",
        "%rEx|%rEx",
        "%highlight{%p}|%highlight",
        "%style{%m}{red}|%style",
        "%C.%M:%L|%C",
        "%tid|%tid",
        "%T|%T",
        "%sn %m|%sn",
        "%marker|%marker",
        "%notEmpty{%X{a}}|%notEmpty",
        "%m{ansi}|option {ansi}",
        "%bogus|%bogus",
        "%d{G yyyy}|G",
        "%d{HH:mm:ss.nnn}|%d{HH:mm:ss.nnn}",
        "abc %-5|unfinished",
        "%5.x|expected a digit",
        "x${ctx:user}|lookups",
    })
    void rejectsUnsupportedConversionsNamingThem(String pattern, String named) {
        // A configuration, as in a real log4j2.xml (log4j2 resolves ${...} in literals only with one).
        Configuration config = new DefaultConfiguration();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SpoolLayout.newLayout(pattern, null, true, config));
        assertTrue(e.getMessage().contains(named), e.getMessage());
        assertNull(SpoolLayout.createLayout(pattern, null, true, config), "plugin creation fails");
    }

    @Test
    void rejectsCharsetsOtherThanUtf8() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SpoolLayout.newLayout("%m%n", "ISO-8859-1", true, null));
        assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
        assertNotNull(SpoolLayout.newLayout("%m%n", "utf8", true, null));
    }

    @Test
    void alwaysWriteExceptionsAppendsTheTraceLikePatternLayout() {
        LogEvent event = Log4jLogEvent.newBuilder().setLoggerName("a.b").setLevel(Level.ERROR)
                .setMessage(new SimpleMessage("boom")).setThrown(new IllegalStateException("x")).build();
        for (String pattern : new String[] {"%m", "%m%n", "%m%ex%n"}) {
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
}
