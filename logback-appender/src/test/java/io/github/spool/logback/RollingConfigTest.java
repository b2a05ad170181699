// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.status.Status;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code RollingFileAppender} configuration converted by changing the appender's class and
 * nothing else, read by Joran from XML: it starts without a warning and rolls.
 */
class RollingConfigTest {

    @TempDir
    Path dir;

    private List<String> configure(LoggerContext ctx, String appenderBody) throws Exception {
        String xml = "<configuration><appender name='R' class='io.github.spool.logback.SpoolAppender'>" + appenderBody
                + "<encoder><pattern>%msg%n</pattern></encoder></appender>"
                + "<root level='info'><appender-ref ref='R'/></root></configuration>";
        JoranConfigurator c = new JoranConfigurator();
        c.setContext(ctx);
        c.doConfigure(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        List<String> problems = new ArrayList<>();
        for (Status s : ctx.getStatusManager().getCopyOfStatusList()) {
            if (s.getLevel() >= Status.WARN) {
                problems.add(s.getMessage());
            }
        }
        return problems;
    }

    private TreeSet<String> names() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            TreeSet<String> out = new TreeSet<>();
            s.forEach(p -> out.add(p.getFileName().toString()));
            return out;
        }
    }

    @Test
    void sizeAndTimeBasedRollingPolicyAsWrittenForRollingFileAppender() throws Exception {
        LoggerContext ctx = new LoggerContext();
        List<String> problems = configure(ctx, "<file>" + dir.resolve("app.log") + "</file>"
                + "<rollingPolicy class='ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy'>"
                + "<fileNamePattern>" + dir.resolve("app-%d{yyyy-MM-dd}.%i.log") + "</fileNamePattern>"
                + "<maxFileSize>1KB</maxFileSize><maxHistory>30</maxHistory><totalSizeCap>1GB</totalSizeCap>"
                + "</rollingPolicy>");
        assertEquals(List.of(), problems);
        for (int i = 0; i < 100; i++) {
            ctx.getLogger("x").info("line {} of a rolling file, about fifty bytes", i);
        }
        ctx.stop();
        TreeSet<String> names = names();
        assertTrue(names.contains("app.log") && names.size() > 3, names::toString);
        names.remove("app.log");
        for (String n : names) {
            assertTrue(n.matches("app-\\d{4}-\\d{2}-\\d{2}\\.\\d+\\.log"), n);
        }
        assertTrue(names.stream().anyMatch(n -> n.endsWith(".0.log")), names::toString);
    }

    @Test
    void fixedWindowWithSizeBasedTriggeringPolicy() throws Exception {
        LoggerContext ctx = new LoggerContext();
        List<String> problems = configure(ctx, "<file>" + dir.resolve("app.log") + "</file>"
                + "<rollingPolicy class='ch.qos.logback.core.rolling.FixedWindowRollingPolicy'>"
                + "<fileNamePattern>" + dir.resolve("app.%i.log.gz") + "</fileNamePattern>"
                + "<minIndex>1</minIndex><maxIndex>3</maxIndex></rollingPolicy>"
                + "<triggeringPolicy class='ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy'>"
                + "<maxFileSize>1KB</maxFileSize></triggeringPolicy>");
        assertEquals(List.of(), problems);
        for (int i = 0; i < 200; i++) {
            ctx.getLogger("x").info("line {} of a rolling file, about fifty bytes", i);
        }
        ctx.stop();
        assertEquals(new TreeSet<>(List.of("app.1.log.gz", "app.2.log.gz", "app.3.log.gz", "app.log")), names());
    }

    /**
     * A {@code .xz} pattern: logback without the XZ library warns and compresses with gzip under
     * {@code .gz} names; Spool, which has no xz compressor, does the same and says so.
     */
    @Test
    void anXzPatternWarnsAndCompressesWithGzipAsLogbackDoes() throws Exception {
        LoggerContext ctx = new LoggerContext();
        List<String> problems = configure(ctx, "<file>" + dir.resolve("app.log") + "</file>"
                + "<rollingPolicy class='ch.qos.logback.core.rolling.FixedWindowRollingPolicy'>"
                + "<fileNamePattern>" + dir.resolve("app.%i.log.xz") + "</fileNamePattern>"
                + "<minIndex>1</minIndex><maxIndex>3</maxIndex></rollingPolicy>"
                + "<triggeringPolicy class='ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy'>"
                + "<maxFileSize>1KB</maxFileSize></triggeringPolicy>");
        for (int i = 0; i < 200; i++) {
            ctx.getLogger("x").info("line {} of a rolling file, about fifty bytes", i);
        }
        ctx.stop();
        assertEquals(1, problems.size(), problems::toString);
        assertTrue(problems.get(0).endsWith("falling back to GZ compression"), problems::toString);
        assertEquals(new TreeSet<>(List.of("app.1.log.gz", "app.2.log.gz", "app.3.log.gz", "app.log")), names());
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(dir.resolve("app.1.log.gz")))) {
            assertTrue(new String(in.readAllBytes(), StandardCharsets.UTF_8).startsWith("line "));
        }
    }

    /** A zone {@code ZoneId.of} does not know: logback's {@code DateTokenConverter} fails on it, and so does Spool. */
    @Test
    void anUnknownZoneIsAnErrorNotGmt() throws Exception {
        LoggerContext ctx = new LoggerContext();
        List<String> problems = configure(ctx, "<file>" + dir.resolve("app.log") + "</file>"
                + "<rollingPolicy class='ch.qos.logback.core.rolling.TimeBasedRollingPolicy'>"
                + "<fileNamePattern>" + dir.resolve("app-%d{yyyy-MM-dd, Bogus/Zone}.log") + "</fileNamePattern></rollingPolicy>");
        ctx.getLogger("x").info("still written");
        ctx.stop();
        assertEquals(1, problems.size(), problems::toString);
        assertTrue(problems.get(0).contains("Bogus/Zone"), problems::toString);
        assertTrue(ctx.getStatusManager().getCopyOfStatusList().stream()
                .anyMatch(st -> st.getLevel() == Status.ERROR && st.getMessage().contains("Bogus/Zone")), "an ERROR");
        assertEquals(List.of("still written"), Files.readAllLines(dir.resolve("app.log")));
    }

    @Test
    void aPolicyThatCannotRollIsAnErrorAndTheFileIsStillWritten() throws Exception {
        LoggerContext ctx = new LoggerContext();
        List<String> problems = configure(ctx, "<file>" + dir.resolve("app.log") + "</file>"
                + "<rollingPolicy class='ch.qos.logback.core.rolling.TimeBasedRollingPolicy'>"
                + "<fileNamePattern>" + dir.resolve("app.log.gz") + "</fileNamePattern></rollingPolicy>");
        ctx.getLogger("x").info("still written");
        ctx.stop();
        assertEquals(1, problems.size(), problems::toString);
        assertTrue(problems.get(0).contains("has neither %d nor %i"), problems::toString);
        assertEquals(List.of("still written"), Files.readAllLines(dir.resolve("app.log")));
    }
}
