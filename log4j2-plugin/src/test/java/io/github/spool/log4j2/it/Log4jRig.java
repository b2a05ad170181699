package io.github.spool.log4j2.it;

import io.github.spool.soak.HostileInputContract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import io.github.spool.log4j2.SpoolAppender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;

/**
 * Writes a {@code log4j2.xml} for the hostile-input tests and starts a private {@link
 * LoggerContext} on it. The differential configuration sends every event to three appenders with
 * the same pattern: {@code <Spool>} with {@code <SpoolLayout>} ({@value #SPOOL}), {@code <Spool>}
 * with log4j2's {@code <PatternLayout>} ({@value #SPOOL_PATTERN}) and log4j2's own {@code <File>}
 * appender with {@code <PatternLayout>} ({@value #REFERENCE}), the oracle.
 */
final class Log4jRig {

    /** Output of Spool with SpoolLayout. */
    static final String SPOOL = HostileInputContract.SPOOL;
    /** Output of Spool with PatternLayout. */
    static final String SPOOL_PATTERN = HostileInputContract.SPOOL_PATTERN;
    /** Output of log4j2's File appender with PatternLayout: the reference. */
    static final String REFERENCE = HostileInputContract.REFERENCE;

    /**
     * The {@code render} attribute of the suites' {@code <Spool>} elements: {@code -Dspool.it.render}.
     * The build runs the containment, hostile-input and soak suites twice: with {@code caller} by
     * default, and with {@code writer} (surefire execution {@code render-on-writer}).
     */
    static final String RENDER = System.getProperty("spool.it.render", "caller");

    private Log4jRig() {
    }

    /** @return the {@code render} attribute for a {@code <Spool>} element, with a leading space */
    static String render() {
        return " render='" + RENDER + "'";
    }

    /**
     * Fails unless the {@code <Spool>} appender {@code name} renders where {@link #RENDER} says:
     * a suite run with {@code writer} must not quietly fall back to the caller (a pattern it
     * cannot render on the writer).
     */
    static void assertRenderMode(LoggerContext context, String name) {
        SpoolAppender appender = context.getConfiguration().getAppender(name);
        boolean onWriter = appender.getSpoolConfig().renderer() != null;
        if (onWriter != RENDER.equals("writer")) {
            throw new IllegalStateException("appender " + name + " renders on the " + (onWriter ? "writer" : "caller")
                    + " with render=" + RENDER);
        }
    }

    /**
     * @param dir     where the configuration and the three outputs go
     * @param pattern the pattern of all three layouts
     * @return a started context
     */
    static LoggerContext differential(Path dir, String pattern) throws IOException {
        return start(dir, "<Spool name='spool' fileName='" + dir.resolve(SPOOL) + "'" + render() + ">"
                + "<SpoolLayout pattern='" + xml(pattern) + "'/></Spool>"
                + "<Spool name='spoolPattern' fileName='" + dir.resolve(SPOOL_PATTERN) + "'>"
                + "<PatternLayout pattern='" + xml(pattern) + "'/></Spool>"
                + "<File name='reference' fileName='" + dir.resolve(REFERENCE) + "' immediateFlush='false'>"
                + "<PatternLayout pattern='" + xml(pattern) + "'/></File>",
                "spool", "spoolPattern", "reference");
    }

    /**
     * @param dir       where the configuration goes
     * @param appenders the {@code <Appenders>} body
     * @param refs      the appender names the root logger refers to
     * @return a started context
     */
    static LoggerContext start(Path dir, String appenders, String... refs) throws IOException {
        StringBuilder root = new StringBuilder("<Root level='trace'>");
        for (String ref : refs) {
            root.append("<AppenderRef ref='").append(ref).append("'/>");
        }
        return start(dir, appenders, root.append("</Root>").toString(), false);
    }

    /**
     * @param dir       where the configuration goes
     * @param appenders the {@code <Appenders>} body
     * @param loggers   the {@code <Loggers>} body
     * @param allAsync  whether the context is an {@code AsyncLoggerContext} (all loggers async)
     * @return a started context
     */
    static LoggerContext start(Path dir, String appenders, String loggers, boolean allAsync) throws IOException {
        String xml = "<?xml version='1.0' encoding='UTF-8'?>\n<Configuration status='"
                + System.getProperty("probe.status", "warn") + "'>\n<Appenders>" + appenders + "</Appenders>\n<Loggers>"
                + loggers + "</Loggers>\n</Configuration>\n";
        Path config = Files.createTempFile(dir, "log4j2-", ".xml");
        Files.writeString(config, xml, StandardCharsets.UTF_8);
        String name = config.getFileName().toString();
        LoggerContext context = allAsync ? new AsyncLoggerContext(name, null, config.toUri())
                : new LoggerContext(name, null, config.toUri());
        context.start();
        return context;
    }

    /** Escapes a pattern for an XML attribute in single quotes. */
    static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace("'", "&apos;");
    }
}
