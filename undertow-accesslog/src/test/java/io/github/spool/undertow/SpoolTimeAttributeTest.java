package io.github.spool.undertow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.time.ManualClock;
import io.undertow.attribute.ExchangeAttribute;
import io.undertow.attribute.ExchangeAttributeParser;
import io.undertow.attribute.ExchangeAttributes;
import io.undertow.attribute.ReadOnlyAttributeException;
import java.time.ZoneId;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** How the attributes plug into Undertow and which instant they read. */
class SpoolTimeAttributeTest {

    private final ExchangeAttributeParser parser = ExchangeAttributes.parser(getClass().getClassLoader());

    @Test
    void undertowsParserFindsTheBuilderThroughServiceLoader() {
        final ExchangeAttribute common = parser.parseSingleToken("%{spoolTime}");
        assertSame(SpoolTimeAttribute.commonLogFormat(), common, "one shared %{spoolTime}");
        final ExchangeAttribute custom = parser.parseSingleToken("%{spoolTime,yyyy-MM-dd HH:mm:ss.SSS}");
        assertInstanceOf(SpoolTimeAttribute.class, custom);
        assertEquals("%{spoolTime,yyyy-MM-dd HH:mm:ss.SSS}", custom.toString());
        assertTrue(((SpoolTimeAttribute) custom).usesTimestampCache() || !Locale.getDefault(Locale.Category.FORMAT)
                .getLanguage().equals("en"), "the seed's pattern runs on the timestamp cache");
    }

    @Test
    void otherTokensAreLeftToUndertow() {
        final SpoolTimeAttribute.Builder builder = new SpoolTimeAttribute.Builder();
        assertNull(builder.build("%t"));
        assertNull(builder.build("%{time,yyyy}"));
        assertNull(builder.build("%{spoolTimeX}"));
        assertNull(builder.build("%{spoolTime,yyyy"));
    }

    @Test
    void aPatternSimpleDateFormatRejectsFailsWhenTheLogIsBuilt() {
        // Undertow's DateTimeAttribute would fail on every request instead (its format is built lazily).
        assertThrows(IllegalArgumentException.class, () -> parser.parse("%h %{spoolTime,yyyy-qq} %s"));
    }

    @Test
    void readsTheClockWhenTheAttributeIsRead() {
        // AccessLogHandler reads attributes when the exchange completes (undertow-core 2.3.20):
        // the attribute must read the clock then, not when it was built or when the request began.
        final ManualClock clock = new ManualClock(1_700_000_000_000L);
        final TimeText text = TimeTexts.forPattern("HH:mm:ss.SSS", Locale.US, ZoneId.of("UTC"));
        final SpoolTimeAttribute a = new SpoolTimeAttribute("%{spoolTime,HH:mm:ss.SSS}", text, clock);
        assertEquals("22:13:20.000", a.readAttribute(null));
        clock.advance(1_234);
        assertEquals("22:13:21.234", a.readAttribute(null));
        clock.advance(1);
        assertEquals("22:13:21.235", a.readAttribute(null), "a new millisecond is a new text");
    }

    @Test
    void withClockReadsTheGivenClock() {
        final ManualClock clock = new ManualClock(1_700_000_000_999L);
        final SpoolTimeAttribute a = SpoolTimeAttribute.ofPattern("yyyy").withClock(clock);
        assertEquals("%{spoolTime,yyyy}", a.toString());
        assertEquals(new java.text.SimpleDateFormat("yyyy").format(new java.util.Date(clock.currentTimeMillis())),
                a.readAttribute(null));
    }

    @Test
    void isReadOnly() {
        assertThrows(ReadOnlyAttributeException.class, () -> SpoolTimeAttribute.commonLogFormat().writeAttribute(null, "x"));
    }
}
