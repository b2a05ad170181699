package io.github.spool.logback.it;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import io.github.spool.logback.RenderProbe;
import io.github.spool.soak.HostileInputContract;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Configures a private logback {@link LoggerContext} from XML for the hostile-input tests. The
 * differential configuration sends every event to three appenders with the same pattern: {@code
 * SpoolAppender} with {@code SpoolEncoder} ({@value #SPOOL}), {@code SpoolAppender} with logback's
 * {@code PatternLayoutEncoder} ({@value #SPOOL_PATTERN}) and logback's own {@code FileAppender}
 * with {@code PatternLayoutEncoder} ({@value #REFERENCE}), the oracle; all UTF-8.
 */
final class LogbackRig {

    /** Output of SpoolAppender with SpoolEncoder. */
    static final String SPOOL = HostileInputContract.SPOOL;
    /** Output of SpoolAppender with PatternLayoutEncoder. */
    static final String SPOOL_PATTERN = HostileInputContract.SPOOL_PATTERN;
    /** Output of logback's FileAppender with PatternLayoutEncoder: the reference. */
    static final String REFERENCE = HostileInputContract.REFERENCE;

    /**
     * The {@code render} setting of the suites' {@code SpoolAppender}s with a {@code SpoolEncoder}:
     * {@code -Dspool.it.render}. The build runs the containment, hostile-input and soak suites twice:
     * with {@code caller} by default, and with {@code writer} (surefire execution {@code render-on-writer}).
     */
    static final String RENDER = System.getProperty("spool.it.render", "caller");

    private LogbackRig() {
    }

    /** @return the {@code render} element for a {@code SpoolAppender} */
    static String render() {
        return "<render>" + RENDER + "</render>";
    }

    /**
     * Fails unless the {@code SpoolAppender} {@code name} renders where {@link #RENDER} says: a suite
     * run with {@code writer} must not quietly fall back to the caller (a pattern it cannot render
     * on the writer).
     */
    static void assertRenderMode(LoggerContext lc, String name) {
        boolean onWriter = rendersOnWriter(lc, name);
        if (onWriter != RENDER.equals("writer")) {
            throw new IllegalStateException("appender " + name + " renders on the " + (onWriter ? "writer" : "caller")
                    + " with render=" + RENDER);
        }
    }

    /**
     * @param dir     where the three outputs go
     * @param pattern the pattern of all three encoders
     * @return a configured context
     */
    static LoggerContext differential(Path dir, String pattern) throws JoranException {
        return configure(spool("spool", dir.resolve(SPOOL), "io.github.spool.logback.SpoolEncoder", pattern, "")
                + spool("spoolPattern", dir.resolve(SPOOL_PATTERN), "ch.qos.logback.classic.encoder.PatternLayoutEncoder", pattern, "")
                + "<appender name='reference' class='ch.qos.logback.core.FileAppender'><file>" + dir.resolve(REFERENCE)
                + "</file><immediateFlush>false</immediateFlush>" + encoder("ch.qos.logback.classic.encoder.PatternLayoutEncoder", pattern)
                + "</appender>",
                "spool", "spoolPattern", "reference");
    }

    /**
     * A SpoolAppender element writing to {@code file}, with {@code extra} settings; with a
     * {@code SpoolEncoder}, {@link #render()} unless {@code extra} sets it.
     */
    static String spool(String name, Path file, String encoderClass, String pattern, String extra) {
        // RENDER applies where it can: a SpoolEncoder, and no render of the test's own
        String render = encoderClass.endsWith(".SpoolEncoder") && !extra.contains("<render>") ? render() : "";
        return "<appender name='" + name + "' class='io.github.spool.logback.SpoolAppender'><file>" + file + "</file>"
                + render + extra + encoder(encoderClass, pattern) + "</appender>";
    }

    private static String encoder(String encoderClass, String pattern) {
        return "<encoder class='" + encoderClass + "'><pattern>" + xml(pattern) + "</pattern><charset>UTF-8</charset></encoder>";
    }

    /**
     * @param appenders the appender elements
     * @param refs      the appender names the root logger refers to
     * @return a configured context (level TRACE)
     */
    static LoggerContext configure(String appenders, String... refs) throws JoranException {
        StringBuilder xml = new StringBuilder("<configuration>\n").append(appenders).append("\n<root level='TRACE'>");
        for (String ref : refs) {
            xml.append("<appender-ref ref='").append(ref).append("'/>");
        }
        xml.append("</root>\n</configuration>\n");
        LoggerContext lc = new LoggerContext();
        lc.setMDCAdapter(new LogbackMDCAdapter()); // as SLF4J's binding does for the global context
        JoranConfigurator jc = new JoranConfigurator();
        jc.setContext(lc);
        jc.doConfigure(new ByteArrayInputStream(xml.toString().getBytes(StandardCharsets.UTF_8)));
        return lc;
    }

    /**
     * Writes a logback.xml for a child JVM: {@code head} (status listeners, a shutdown hook), one
     * {@code SpoolAppender} {@code name} made of the elements {@code body}, on the root at INFO.
     *
     * @return {@code file}
     */
    static Path writeChildConfig(Path file, String head, String name, String body) throws IOException {
        Files.writeString(file, "<configuration>\n" + head
                + "  <appender name=\"" + name + "\" class=\"io.github.spool.logback.SpoolAppender\">\n"
                + body
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"" + name + "\"/></root>\n"
                + "</configuration>\n");
        return file;
    }

    /** @return the context's error statuses, with their causes' messages */
    static List<String> errors(LoggerContext lc) {
        return lc.getStatusManager().getCopyOfStatusList().stream()
                .filter(s -> s.getEffectiveLevel() == Status.ERROR)
                .map(s -> s.getMessage() + (s.getThrowable() != null ? " / " + s.getThrowable() : ""))
                .collect(Collectors.toList());
    }

    /** @return whether the {@code SpoolAppender} {@code name} on the root logger renders on the writer */
    static boolean rendersOnWriter(LoggerContext lc, String name) {
        return RenderProbe.rendersOnWriter(lc, name);
    }

    /** Escapes text for XML element content. */
    static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;");
    }
}
