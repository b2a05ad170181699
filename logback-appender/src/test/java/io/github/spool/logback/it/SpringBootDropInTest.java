package io.github.spool.logback.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.json.BasicJsonParser;

/**
 * Spring Boot 3.5 switched to Spool by the three-line {@code spool-base-logback-spring.xml}
 * (an include of {@code io/github/spool/logback/spring/base.xml}) prints what the stock
 * application prints: the same {@link SpringMain} run twice in forked JVMs with the same
 * {@code logging.*} properties, once with no logback file at all (Spring Boot's programmatic
 * default configuration, {@code ConsoleAppender}) and once with the include; standard output
 * compared byte for byte.
 *
 * <p>What varies between two runs is kept out by configuration, not by editing the output: the
 * date pattern is the quoted literal {@code 'D'} (so {@code %d} still runs, printing a constant),
 * Spring's own start-up lines are off. The process id, which Spring Boot's default pattern prints
 * before {@code " --- "}, is each child's own ({@link Process#pid()}) and is replaced there alone.
 * The structured formats carry the event time and the process id in fields of their own; those two
 * fields alone are replaced, after each line has been parsed as JSON, by a placeholder (in both
 * outputs alike).
 */
class SpringBootDropInTest {

    private static final String SPOOL_CONFIG = "--logging.config=classpath:io/github/spool/logback/it/spool-base-logback-spring.xml";

    @TempDir
    Path dir;

    @Test
    void patternWithClrAndHighlightIsByteEqualToStockSpringBoot() throws Exception {
        List<String> props = List.of(
                "--logging.pattern.console=%clr(%d{\"'D'\"}){faint} %highlight(%-5level) [%15.15t] "
                        + "%clr(%-40.40logger{39}){cyan} %clr(:){faint} %replace(%m){'seq', 'SEQ'} %X{k:-} %caller{1}%n%wEx",
                "--spring.output.ansi.enabled=always");
        byte[] stock = run("stock-pattern", props, false);
        byte[] spool = run("spool-pattern", props, true);
        String text = new String(spool, StandardCharsets.UTF_8);
        assertTrue(text.contains("\u001b[") && text.contains("SEQ=199 "), () -> "no colours or events: " + head(text));
        assertTrue(text.contains("java.lang.IllegalStateException: card declined"), "exception missing");
        assertEquals(new String(stock, StandardCharsets.UTF_8), text);
    }

    @Test
    void defaultPatternIsByteEqualToStockSpringBoot() throws Exception {
        List<String> props = List.of("--logging.pattern.dateformat=\"'D'\"");
        byte[] stock = run("stock-default", props, false);
        byte[] spool = run("spool-default", props, true);
        assertTrue(new String(spool, StandardCharsets.UTF_8).contains("seq=199 "), () -> head(new String(spool, StandardCharsets.UTF_8)));
        assertEquals(new String(stock, StandardCharsets.UTF_8), new String(spool, StandardCharsets.UTF_8));
    }

    /**
     * A pattern without {@code %wEx}: logback appends {@code %ex} for the stack trace, and stock
     * Spring Boot's frames carry no {@code ~[jar:version]} packaging data then (issue 32), though
     * its {@code %wEx} prints them in {@link #defaultPatternIsByteEqualToStockSpringBoot}.
     */
    @Test
    void patternWithoutWExPrintsNoPackagingDataAsStockSpringBoot() throws Exception {
        List<String> props = List.of("--logging.pattern.console=%d{\"'D'\"} %-5level %logger{20} - %m%n");
        byte[] stock = run("stock-no-wex", props, false);
        byte[] spool = run("spool-no-wex", props, true);
        String text = new String(spool, StandardCharsets.UTF_8);
        assertTrue(text.contains("java.lang.IllegalStateException: card declined"), () -> "exception missing: " + head(text));
        assertEquals(new String(stock, StandardCharsets.UTF_8), text);
    }

    /**
     * {@code logging.structured.format.console} naming one of Spring Boot's formats: Spool's include
     * configures {@link io.github.spool.logback.SpoolJsonEncoder} in that format (the child says
     * which encoder its CONSOLE appender has), and the lines are Spring Boot's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ecs", "logstash", "gelf"})
    void structuredFormatIsSpoolJsonEncoderAndEqualToStockSpringBoot(String format) throws Exception {
        List<String> props = List.of("--logging.structured.format.console=" + format, "--spring.application.name=shop",
                "--logging.structured.ecs.service.version=1.0", "--logging.structured.gelf.service.version=1.0");
        List<String> stock = json(run("stock-" + format, props, false));
        List<String> spool = json(run("spool-" + format, props, true));
        assertTrue(spool.size() >= 201, () -> "too few JSON lines: " + spool.size());
        assertEquals(stock, spool);
        String encoder = Files.readString(dir.resolve("spool-" + format + ".err"), StandardCharsets.UTF_8);
        assertTrue(encoder.contains("CONSOLE encoder: io.github.spool.logback.SpoolJsonEncoder spring-" + format),
                () -> "not rendered by SpoolJsonEncoder: " + encoder);
    }

    private static final Pattern TIMESTAMP = Pattern.compile("\"@timestamp\":\"[^\"]+\"|\"timestamp\":[0-9.]+");
    private static final Pattern PID = Pattern.compile("\"pid\":\\d+|\"_process_pid\":\\d+");

    /** Each line parsed as a JSON object, then its time and process id replaced. */
    private static List<String> json(byte[] out) {
        List<String> lines = new ArrayList<>();
        BasicJsonParser parser = new BasicJsonParser();
        for (String line : new String(out, StandardCharsets.UTF_8).split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            Map<String, Object> map = parser.parseMap(line); // throws on anything but one JSON object
            assertTrue(map.containsKey("@timestamp") || map.containsKey("timestamp"), line);
            lines.add(PID.matcher(TIMESTAMP.matcher(line).replaceFirst("\"T\":0")).replaceFirst("\"PID\":0"));
        }
        return lines;
    }

    private byte[] run(String name, List<String> props, boolean spool) throws Exception {
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dspool.it.printEncoder=true",
                "-cp", System.getProperty("java.class.path"), SpringMain.class.getName(), "200",
                "--spring.main.log-startup-info=false", "--logging.level.org.springframework=WARN"));
        cmd.addAll(props);
        if (spool) {
            cmd.add(SPOOL_CONFIG);
        }
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectOutput(out.toFile());
        pb.redirectError(err.toFile());
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(name + ": Spring Boot JVM did not exit within 60 s");
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), () -> name + " stderr: " + stderr);
        // the pattern prints this JVM's process id where Spring Boot's default puts it: "<pid> --- "
        String text = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
        return text.replace(" " + p.pid() + " --- ", " PID --- ").getBytes(StandardCharsets.UTF_8);
    }

    private static String head(String s) {
        return s.length() > 2000 ? s.substring(0, 2000) : s;
    }
}
