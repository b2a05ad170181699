// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.status.Status;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Two appenders on one {@code <file>} or one {@code <fileNamePattern>}: logback starts the first
 * {@code RollingFileAppender} and refuses the second ("Collision detected"); two
 * {@code SpoolAppender}s get the same refusal, with the same errors, and the first keeps writing.
 */
class FileCollisionTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "same file={0}")
    @CsvSource({"true", "false"})
    void theSecondAppenderOnAFileIsRefusedAsLogbackRefusesIt(boolean sameFile) throws Exception {
        List<String> theirs = errors(configure("ch.qos.logback.core.rolling.RollingFileAppender", "theirs", sameFile));
        LoggerContext ours = configure(SpoolAppender.class.getName(), "ours", sameFile);
        List<String> ourErrors = errors(ours);
        assertEquals(2, theirs.size(), theirs::toString);
        assertEquals(theirs.toString().replace(dir.resolve("theirs").toString(), "DIR"),
                ourErrors.toString().replace(dir.resolve("ours").toString(), "DIR"));
        Appender<?> first = ours.getLogger("ROOT").getAppender("A");
        assertTrue(first != null && first.isStarted(), "the first appender runs");
        assertTrue(ours.getLogger("ROOT").getAppender("B") == null || !ours.getLogger("ROOT").getAppender("B").isStarted());
        ours.getLogger("x").info("kept");
        ours.stop();
        assertEquals(List.of("kept"), Files.readAllLines(dir.resolve("ours").resolve("a.log")));

        // A reconfiguration stops the old appenders first: the same file is free again.
        LoggerContext again = configure(SpoolAppender.class.getName(), "ours", sameFile);
        assertTrue(again.getLogger("ROOT").getAppender("A").isStarted());
        again.stop();
    }

    private LoggerContext configure(String appenderClass, String sub, boolean sameFile) throws Exception {
        Path d = dir.resolve(sub);
        Files.createDirectories(d);
        String xml = "<configuration>\n"
                + appender(appenderClass, "A", d.resolve("a.log"), d.resolve("a-%d{yyyy-MM-dd}.%i.log"))
                + appender(appenderClass, "B", d.resolve(sameFile ? "a.log" : "b.log"),
                        d.resolve(sameFile ? "b-%d{yyyy-MM-dd}.%i.log" : "a-%d{yyyy-MM-dd}.%i.log"))
                + "<root level='INFO'><appender-ref ref='A'/><appender-ref ref='B'/></root>\n"
                + "</configuration>\n";
        LoggerContext ctx = new LoggerContext();
        JoranConfigurator c = new JoranConfigurator();
        c.setContext(ctx);
        c.doConfigure(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        return ctx;
    }

    private static String appender(String cls, String name, Path file, Path pattern) {
        return "<appender name='" + name + "' class='" + cls + "'>\n"
                + "  <file>" + file + "</file>\n"
                + "  <rollingPolicy class='ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy'>\n"
                + "    <fileNamePattern>" + pattern + "</fileNamePattern>\n"
                + "    <maxFileSize>10MB</maxFileSize>\n"
                + "  </rollingPolicy>\n"
                + "  <encoder><pattern>%msg%n</pattern></encoder>\n"
                + "</appender>\n";
    }

    private static List<String> errors(LoggerContext ctx) {
        List<String> out = new ArrayList<>();
        for (Status s : ctx.getStatusManager().getCopyOfStatusList()) {
            if (s.getLevel() == Status.ERROR && (s.getMessage().contains("Collision") || s.getMessage().contains("defined earlier"))) {
                out.add(s.getMessage());
            }
        }
        assertFalse(out.isEmpty(), "a collision was reported");
        return out;
    }
}
