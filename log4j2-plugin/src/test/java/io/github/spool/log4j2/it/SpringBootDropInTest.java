// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.json.BasicJsonParser;

/**
 * Spring Boot 3.5 with log4j2, switched to Spool by {@code logging.config} naming Spool's copy of
 * Spring Boot's default file ({@code io/github/spool/log4j2/spring/log4j2.xml}), prints what the
 * stock application prints: the same {@link SpringMain} run twice in forked JVMs with the same
 * {@code logging.*} properties, once with Spring Boot's own default log4j2 configuration
 * ({@code ConsoleAppender}) and once with Spool's; standard output compared byte for byte, and the
 * file of {@code logging.file.name} too.
 *
 * <p>What varies between two runs is kept out by configuration, not by editing the output: the
 * date pattern is the quoted literal {@code 'D'}, Spring's own start-up lines are off. The process
 * id, which Spring Boot's pattern prints before {@code " --- "}, is each child's own and is
 * replaced there alone; in the structured formats the event time and the process id are replaced
 * after each line has been parsed as JSON.
 */
class SpringBootDropInTest {

    private static final String SPOOL_CONFIG = "--logging.config=classpath:io/github/spool/log4j2/spring/log4j2.xml";

    @TempDir
    Path dir;

    @Test
    void defaultPatternIsByteEqualToStockSpringBoot() throws Exception {
        List<String> props = List.of("--logging.pattern.dateformat='D'");
        String stock = run("stock-default", props, false);
        String spool = run("spool-default", props, true);
        assertTrue(spool.contains("seq=199 ") && spool.contains("java.lang.IllegalStateException: card declined"),
                () -> head(spool));
        assertEquals(stock, spool);
    }

    @Test
    void customPatternWithColoursIsByteEqualToStockSpringBoot() throws Exception {
        List<String> props = List.of("--logging.pattern.console=%clr{%d{'D'}}{faint} %highlight{%-5level} [%15.15t] "
                + "%clr{%-40.40c{1.}}{cyan} %clr{:}{faint} %replace{%m}{seq}{SEQ} %X{k}%n%xwEx",
                "--spring.output.ansi.enabled=always");
        String stock = run("stock-pattern", props, false);
        String spool = run("spool-pattern", props, true);
        assertTrue(spool.contains("\u001b[") && spool.contains("SEQ=199 "), () -> "no colours or events: " + head(spool));
        assertEquals(stock, spool);
    }

    @Test
    void theFileOfLoggingFileNameIsSpringBootsOwnAndTheSame() throws Exception {
        Path stockFile = dir.resolve("stock/app.log");
        Path spoolFile = dir.resolve("spool/app.log");
        String stock = run("stock-file", List.of("--logging.pattern.dateformat='D'", "--logging.file.name=" + stockFile), false);
        String spool = run("spool-file", List.of("--logging.pattern.dateformat='D'", "--logging.file.name=" + spoolFile), true);
        assertEquals(stock, spool);
        String stockText = Files.readString(stockFile).replaceAll(" \\d+ --- ", " PID --- ");
        String spoolText = Files.readString(spoolFile).replaceAll(" \\d+ --- ", " PID --- ");
        assertTrue(spoolText.contains("seq=199 "), () -> head(spoolText));
        assertEquals(stockText, spoolText);
    }

    @Test
    void structuredEcsIsValidJsonAndEqualToStockSpringBoot() throws Exception {
        List<String> props = List.of("--logging.structured.format.console=ecs", "--spring.application.name=shop");
        List<String> stock = json(run("stock-ecs", props, false));
        List<String> spool = json(run("spool-ecs", props, true));
        assertTrue(spool.size() >= 201, () -> "too few JSON lines: " + spool.size());
        assertEquals(stock, spool);
    }

    private static final Pattern TIMESTAMP = Pattern.compile("\"@timestamp\":\"[^\"]+\"");
    private static final Pattern PID = Pattern.compile("\"pid\":\\d+");

    /** Each line parsed as a JSON object, then its time and process id replaced. */
    private static List<String> json(String out) {
        List<String> lines = new ArrayList<>();
        BasicJsonParser parser = new BasicJsonParser();
        for (String line : out.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            Map<String, Object> map = parser.parseMap(line); // throws on anything but one JSON object
            assertTrue(map.containsKey("@timestamp") && map.containsKey("message"), line);
            lines.add(PID.matcher(TIMESTAMP.matcher(line).replaceFirst("\"@timestamp\":\"T\"")).replaceFirst("\"pid\":0"));
        }
        return lines;
    }

    private String run(String name, List<String> props, boolean spool) throws Exception {
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), SpringMain.class.getName(), "200",
                "--spring.main.log-startup-info=false", "--logging.level.org.springframework=WARN"));
        cmd.addAll(props);
        if (spool) {
            cmd.add(SPOOL_CONFIG);
        }
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(name + ": Spring Boot JVM did not exit within 60 s");
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), () -> name + " stderr: " + stderr);
        List<String> said = stderr.lines().filter(l -> !l.startsWith("appender ")).toList();
        assertTrue(said.isEmpty(), () -> name + " printed on standard error: " + stderr);
        String console = spool ? "appender Console SpoolAppender" : "appender Console ConsoleAppender";
        assertTrue(stderr.contains(console), () -> name + ": " + console + " expected: " + stderr);
        String text = Files.readString(out, StandardCharsets.UTF_8);
        return text.replace(" " + p.pid() + " --- ", " PID --- ");
    }

    private static String head(String s) {
        return s.length() > 2000 ? s.substring(0, 2000) : s;
    }
}
