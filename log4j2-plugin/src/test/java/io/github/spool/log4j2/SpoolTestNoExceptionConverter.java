package io.github.spool.log4j2;

import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.pattern.ConverterKeys;
import org.apache.logging.log4j.core.pattern.PatternConverter;
import org.apache.logging.log4j.core.pattern.ThrowablePatternConverter;

/**
 * A user's converter that extends log4j2's {@link ThrowablePatternConverter} and, unlike it,
 * prints something for an event without a throwable: {@code %spoolNoEx} prints
 * {@code " [no exception]"} then, else the throwable as {@code %ex} does (issue 32).
 */
@Plugin(name = "SpoolTestNoExceptionConverter", category = PatternConverter.CATEGORY)
@ConverterKeys({"spoolNoEx"})
public final class SpoolTestNoExceptionConverter extends ThrowablePatternConverter {

    @SuppressWarnings("deprecation") // the only constructors a subclass outside log4j2's package can call
    private SpoolTestNoExceptionConverter(Configuration config, String[] options) {
        super("SpoolNoEx", "throwable", options, config);
    }

    /**
     * @param config  the configuration
     * @param options as for {@code %ex}
     * @return the converter
     */
    public static SpoolTestNoExceptionConverter newInstance(Configuration config, String[] options) {
        return new SpoolTestNoExceptionConverter(config, options);
    }

    @Override
    public void format(LogEvent event, StringBuilder toAppendTo) {
        if (event.getThrown() == null) {
            toAppendTo.append(" [no exception]");
        } else {
            super.format(event, toAppendTo);
        }
    }
}
