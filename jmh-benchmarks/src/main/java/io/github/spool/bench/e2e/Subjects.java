package io.github.spool.bench.e2e;

import static io.github.spool.bench.e2e.Scenarios.CONSOLE;
import static io.github.spool.bench.e2e.Scenarios.JSON;
import static io.github.spool.bench.e2e.Scenarios.PRODUCERS;
import static io.github.spool.bench.e2e.Scenarios.REQUEST;
import static io.github.spool.bench.e2e.Scenarios.RINGLOG;
import static io.github.spool.bench.e2e.Scenarios.SERVER;
import static io.github.spool.bench.e2e.Scenarios.STALL;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The registry of every end-to-end configuration: one entry each. The runner, the tables and the
 * charts take their rows from here, so adding a configuration is one entry (plus, for a framework,
 * its XML file under {@code src/main/resources/bench/}).
 *
 * <h2>Where the Spool configurations go</h2>
 * Add them in {@link #spool(List)} when the adapters land, for example:
 * <pre>{@code
 * list.add(new Configuration("spool-log4j2", Role.SPOOL, Output.STDOUT, Set.of(CONSOLE, STALL, REQUEST),
 *         "log4j2 sync loggers + <Spool target=SYSTEM_OUT> with SpoolLayout",
 *         () -> new Log4j2Subject("bench/log4j2-spool.xml", false)));
 * list.add(new Configuration("spool-logback", Role.SPOOL, Output.STDOUT, Set.of(CONSOLE, STALL, REQUEST),
 *         "logback + SpoolAppender (System.out) with SpoolEncoder",
 *         () -> new LogbackSubject("bench/logback-spool.xml")));
 * list.add(new Configuration("spool-core", Role.SPOOL, Output.FILE, Set.of(RINGLOG),
 *         "Spool core: pre-formatted lines through Spool.append into a file",
 *         SpoolCoreSubject::new));
 * }</pre>
 * where {@code SpoolCoreSubject} starts {@code Spool.start(SpoolConfig.builder("bench")
 * .file(Subjects.outputFile()).build())}, calls {@code spool.append(buf, 0, len, Severity.INFO)}
 * per line formatted by {@link LineFormatter}, and {@code spool.stop(..)} in {@link Subject#stop()}.
 */
public final class Subjects {

    /** System property naming the output file of {@link Output#FILE} configurations. */
    public static final String FILE_PROPERTY = "bench.file";

    private static final List<Configuration> ALL = build();

    private Subjects() {
    }

    /** @return every configuration, anchors first, in table order */
    public static List<Configuration> all() {
        return ALL;
    }

    /**
     * @param scenario a scenario name
     * @return the configurations that run in it, in table order
     */
    public static List<Configuration> in(String scenario) {
        return ALL.stream().filter(c -> c.in(scenario)).toList();
    }

    /**
     * @param name a configuration name
     * @return the configuration
     * @throws NoSuchElementException if there is none of that name
     */
    public static Configuration byName(String name) {
        return ALL.stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("no configuration named " + name));
    }

    /** @return the output file of an {@link Output#FILE} configuration, from {@value #FILE_PROPERTY} */
    public static Path outputFile() {
        String file = System.getProperty(FILE_PROPERTY);
        if (file == null) {
            throw new IllegalStateException("-D" + FILE_PROPERTY + "=<path> is required");
        }
        return Path.of(file);
    }

    private static List<Configuration> build() {
        List<Configuration> list = new ArrayList<>();
        Set<String> console = Set.of(CONSOLE);
        Set<String> consoleStallRequest = Set.of(CONSOLE, STALL, REQUEST);
        list.add(new Configuration("none", Role.BASELINE, Output.NONE, Set.of(STALL, REQUEST, SERVER),
                "no logging call at all", NoLoggingSubject::new));
        list.add(new Configuration("println", Role.BASELINE, Output.STDOUT, console,
                "System.out.println of a formatted String per line", PrintlnSubject::new));
        list.add(new Configuration("channel-64k", Role.CEILING, Output.STDOUT, console,
                "FileChannel on fd 1, 64 KiB direct buffer, written when full (raw-write ceiling)",
                ChannelSubject::new));
        list.add(new Configuration("file-per-line", Role.BASELINE, Output.FILE, Set.of(RINGLOG),
                "one FileOutputStream.write per pre-formatted line (RingLog's synchronous logger)",
                FilePerLineSubject::new));
        list.add(new Configuration("logback-console", Role.ANCHOR, Output.STDOUT, Set.of(CONSOLE, STALL, REQUEST, PRODUCERS, SERVER),
                "logback ConsoleAppender (defaults)", () -> new LogbackSubject("bench/logback-console.xml")));
        list.add(new Configuration("logback-async", Role.ANCHOR, Output.STDOUT, Set.of(CONSOLE, STALL, REQUEST, PRODUCERS, SERVER),
                "logback AsyncAppender (queue 262144, no discarding) + ConsoleAppender",
                () -> new LogbackSubject("bench/logback-async-console.xml")));
        list.add(new Configuration("logback-nop", Role.CEILING, Output.NONE, Set.of(CONSOLE, PRODUCERS, JSON),
                "logback with NOPAppender: the framework's own ceiling",
                () -> new LogbackSubject("bench/logback-nop.xml")));
        list.add(new Configuration("log4j2-console", Role.ANCHOR, Output.STDOUT, Set.of(CONSOLE, REQUEST),
                "log4j2 Console (defaults, through System.out)",
                () -> new Log4j2Subject("bench/log4j2-console.xml", false)));
        list.add(new Configuration("log4j2-console-direct", Role.ANCHOR, Output.STDOUT, Set.of(CONSOLE, STALL, PRODUCERS, SERVER),
                "log4j2 Console direct=\"true\" (FileOutputStream on fd 1)",
                () -> new Log4j2Subject("bench/log4j2-console-direct.xml", false)));
        list.add(new Configuration("log4j2-async-console-direct", Role.ANCHOR, Output.STDOUT, Set.of(CONSOLE, STALL, REQUEST, PRODUCERS, SERVER),
                "log4j2 all-async loggers (Disruptor 3.4.4) + Console direct=\"true\"",
                () -> new Log4j2Subject("bench/log4j2-console-direct.xml", true)));
        list.add(new Configuration("log4j2-raf", Role.ANCHOR, Output.FILE, console,
                "log4j2 sync loggers + RandomAccessFile (immediateFlush=false), to a file",
                () -> new Log4j2Subject("bench/log4j2-raf.xml", false)));
        list.add(new Configuration("log4j2-async-raf", Role.ANCHOR, Output.FILE, Set.of(RINGLOG),
                "log4j2 all-async loggers (Disruptor 3.4.4) + RandomAccessFile (immediateFlush=false)",
                () -> new Log4j2Subject("bench/log4j2-raf.xml", true)));
        list.add(new Configuration("log4j2-null", Role.CEILING, Output.NONE, Set.of(CONSOLE, PRODUCERS, JSON),
                "log4j2 sync loggers + <Null> appender: the framework's own ceiling",
                () -> new Log4j2Subject("bench/log4j2-null.xml", false)));
        json(list);
        spool(list);
        return Collections.unmodifiableList(list);
    }

    /**
     * The JSON anchors of the json scenario (issue 33): the encoders and layouts containers ship.
     * Spring Boot's {@code StructuredLogEncoder} reads a Spring {@code Environment} from logback's
     * context, which {@link LogbackSubject#spring} puts there as Spring Boot does.
     *
     * @param list the registry under construction
     */
    private static void json(List<Configuration> list) {
        Set<String> json = Set.of(JSON);
        list.add(new Configuration("logback-json-console", Role.ANCHOR, Output.STDOUT, json,
                "logback ConsoleAppender + logstash-logback-encoder's LogstashEncoder",
                () -> new LogbackSubject("bench/logback-json-console.xml")));
        list.add(new Configuration("logback-json-async", Role.ANCHOR, Output.STDOUT, json,
                "logback AsyncAppender (queue 262144, no discarding) + ConsoleAppender + LogstashEncoder",
                () -> new LogbackSubject("bench/logback-json-async-console.xml")));
        list.add(new Configuration("spring-json-console", Role.ANCHOR, Output.STDOUT, json,
                "Spring Boot structured logging (logging.structured.format.console=ecs): logback ConsoleAppender + StructuredLogEncoder",
                () -> LogbackSubject.spring("bench/logback-spring-json-console.xml")));
        list.add(new Configuration("log4j2-json-console-direct", Role.ANCHOR, Output.STDOUT, json,
                "log4j2 sync loggers + Console direct=\"true\" + JsonTemplateLayout (EcsLayout.json)",
                () -> new Log4j2Subject("bench/log4j2-json-console-direct.xml", false)));
        list.add(new Configuration("log4j2-async-json-console-direct", Role.ANCHOR, Output.STDOUT, json,
                "log4j2 all-async loggers (Disruptor 3.4.4) + Console direct=\"true\" + JsonTemplateLayout (EcsLayout.json)",
                () -> new Log4j2Subject("bench/log4j2-json-console-direct.xml", true)));
    }

    /**
     * The Spool configurations: "Spool via log4j2", "Spool via logback" and "Spool core" are
     * added here when the adapters land (see the class comment for the exact entries).
     *
     * @param list the registry under construction
     */
    private static void spool(List<Configuration> list) {
        list.add(new Configuration("spool-core", Role.SPOOL, Output.STDOUT, Set.of(CONSOLE, STALL),
                "Spool core: pre-formatted lines through Spool.append, writer thread to fd 1",
                () -> new SpoolCoreSubject(false)));
        list.add(new Configuration("spool-log4j2", Role.SPOOL, Output.STDOUT, Set.of(CONSOLE, STALL, REQUEST, PRODUCERS, SERVER),
                "log4j2 sync loggers + <Spool target=SYSTEM_OUT> with SpoolLayout (no Disruptor)",
                () -> new Log4j2Subject("bench/log4j2-spool.xml", false)));
        list.add(new Configuration("spool-logback", Role.SPOOL, Output.STDOUT, Set.of(CONSOLE, STALL, REQUEST, PRODUCERS, SERVER),
                "logback + SpoolAppender (fd 1) with SpoolEncoder",
                () -> new LogbackSubject("bench/logback-spool.xml")));
        list.add(new Configuration("spool-log4j2-json", Role.SPOOL, Output.STDOUT, Set.of(JSON),
                "log4j2 sync loggers + <Spool target=SYSTEM_OUT> with SpoolJsonTemplateLayout (EcsLayout.json)",
                () -> new Log4j2Subject("bench/log4j2-spool-json.xml", false)));
        list.add(new Configuration("spool-logback-json", Role.SPOOL, Output.STDOUT, Set.of(JSON),
                "logback + SpoolAppender (fd 1) with SpoolJsonEncoder, format logstash-logback-encoder",
                () -> new LogbackSubject("bench/logback-spool-json.xml")));
        list.add(new Configuration("spool-spring-json", Role.SPOOL, Output.STDOUT, Set.of(JSON),
                "Spring Boot's ECS format: logback + SpoolAppender (fd 1) with SpoolJsonEncoder, format spring-ecs",
                () -> LogbackSubject.spring("bench/logback-spool-spring-json.xml")));
        list.add(new Configuration("spool-core-file", Role.SPOOL, Output.FILE, Set.of(RINGLOG),
                "Spool core: pre-formatted lines through Spool.append into a file",
                () -> new SpoolCoreSubject(true)));
    }
}
