package io.github.spool.log4j2;

import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.impl.LocationAware;
import org.apache.logging.log4j.core.pattern.ConverterKeys;
import org.apache.logging.log4j.core.pattern.LogEventPatternConverter;
import org.apache.logging.log4j.core.pattern.PatternConverter;

/**
 * A custom converter registered the log4j2 way ({@code @Plugin} in category {@code Converter},
 * {@code @ConverterKeys}, found through the test classes' generated {@code Log4j2Plugins.dat}):
 * {@code %spoolTest{prefix}} prints the prefix, the level and the message's length;
 * {@code %spoolTest{prefix}{location}} also prints the caller's line and needs location.
 */
@Plugin(name = "SpoolTestConverter", category = PatternConverter.CATEGORY)
@ConverterKeys({"spoolTest", "spoolTestConverter"})
public final class SpoolTestConverter extends LogEventPatternConverter implements LocationAware {

    private final String prefix;
    private final boolean location;

    private SpoolTestConverter(String prefix, boolean location) {
        super("SpoolTest", "spoolTest");
        this.prefix = prefix;
        this.location = location;
    }

    /**
     * @param options {@code {prefix}} and optionally {@code {location}}
     * @return the converter
     */
    public static SpoolTestConverter newInstance(String[] options) {
        return new SpoolTestConverter(options.length > 0 ? options[0] : "", options.length > 1
                && "location".equals(options[1]));
    }

    @Override
    public void format(LogEvent event, StringBuilder toAppendTo) {
        toAppendTo.append(prefix).append(event.getLevel()).append('/')
                .append(event.getMessage() == null ? -1 : event.getMessage().getFormattedMessage().length());
        if (location) {
            StackTraceElement source = event.getSource();
            toAppendTo.append('@').append(source == null ? -1 : source.getLineNumber());
        }
    }

    @Override
    public boolean requiresLocation() {
        return location;
    }
}
