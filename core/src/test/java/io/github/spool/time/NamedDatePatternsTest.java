package io.github.spool.time;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Spot checks of the name tables against the frameworks' documented spellings. */
class NamedDatePatternsTest {

    @Test
    void resolvesLog4j2Names() {
        assertEquals("yyyy-MM-dd HH:mm:ss,SSS", NamedDatePatterns.log4j2("DEFAULT"));
        assertEquals("yyyy-MM-dd'T'HH:mm:ss,SSS", NamedDatePatterns.log4j2("ISO8601"));
        assertEquals("yyyyMMdd'T'HHmmss,SSS", NamedDatePatterns.log4j2("ISO8601_BASIC"));
        assertEquals("HH:mm:ss,SSS", NamedDatePatterns.log4j2("ABSOLUTE"));
        assertEquals("yyyyMMddHHmmssSSS", NamedDatePatterns.log4j2("COMPACT"));
        assertEquals("dd MMM yyyy HH:mm:ss,SSS", NamedDatePatterns.log4j2("DATE"));
        assertEquals("yyyy-MM-dd'T'HH:mm:ss,SSSxxx", NamedDatePatterns.log4j2("ISO8601_OFFSET_DATE_TIME_HHCMM"));
        assertEquals("yyyy-MM-dd HH:mm:ss,SSS", NamedDatePatterns.log4j2(null));
    }

    @Test
    void resolvesLogbackNames() {
        assertEquals("yyyy-MM-dd HH:mm:ss,SSS", NamedDatePatterns.logback("ISO8601"));
        assertEquals("yyyy-MM-dd'T'HH:mm:ss,SSS", NamedDatePatterns.logback("STRICT"));
        assertEquals("yyyy-MM-dd HH:mm:ss,SSS", NamedDatePatterns.logback(null));
    }

    @Test
    void returnsOtherInputUnchanged() {
        assertEquals("HH:mm", NamedDatePatterns.log4j2("HH:mm"));
        assertEquals("UNIX_MILLIS", NamedDatePatterns.log4j2("UNIX_MILLIS"));
        assertEquals("DEFAULT", NamedDatePatterns.logback("DEFAULT"));
        assertEquals("ABSOLUTE", NamedDatePatterns.logback("ABSOLUTE"));
    }
}
