package io.github.spool.bench.jmh;

import ch.qos.logback.classic.LoggerContext;
import io.github.spool.bench.e2e.EventLine;
import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Producer cost of one ~100-byte event through SLF4J and logback: a pre-built logger, the
 * constant message {@link EventLine#MESSAGE} with one pre-boxed parameter. {@code console} and
 * {@code async} write through a {@code System.out} replaced as {@link JmhSupport} explains.
 * {@code spool-logback} runs with render {@code caller} (the logging thread renders the line),
 * {@code spool-logback-writer} with {@code writer} (the writer thread does; what the default
 * {@code auto} chooses for this encoder on two or more processors). The JSON configurations
 * (issue 33) do the same with logstash-logback-encoder's format: {@code json-console} is
 * {@code ConsoleAppender} + {@code LogstashEncoder}, {@code spool-logback-json[-writer]} Spool's
 * {@code SpoolJsonEncoder}. Each {@code config} runs in its own fork.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class LogbackProducerBenchmark {

    /** The logback configuration under test. */
    @Param({"console", "async", "logstash-disruptor", "nop", "spool-logback", "spool-logback-writer",
        "json-console", "spool-logback-json", "spool-logback-json-writer"})
    public String config;

    /** Where the output goes: {@code /dev/null} by default, or a file (it grows by ~100 bytes per op). */
    @Param({"/dev/null"})
    public String sink;

    private Logger logger;
    private PrintStream previousOut;

    /**
     * Configures logback for {@link #config}.
     *
     * @throws FileNotFoundException if the sink cannot be opened
     */
    @Setup(Level.Trial)
    public void setUp() throws FileNotFoundException {
        JmhSupport.requireFreshJvm();
        String xml = switch (config) {
            case "console" -> "bench/logback-console.xml";
            case "async" -> "bench/logback-async-console.xml";
            case "logstash-disruptor" -> "bench/logback-logstash-disruptor-console.xml";
            case "nop" -> "bench/logback-nop.xml";
            case "spool-logback", "spool-logback-writer" -> {
                System.setProperty("bench.render", config.endsWith("-writer") ? "writer" : "caller");
                yield "bench/logback-spool-file.xml";
            }
            // JSON (issue 33): logstash-logback-encoder's LogstashEncoder, and Spool's encoder of its format
            case "json-console" -> "bench/logback-json-console.xml";
            case "spool-logback-json", "spool-logback-json-writer" -> {
                System.setProperty("bench.render", config.endsWith("-writer") ? "writer" : "caller");
                yield "bench/logback-spool-json-file.xml";
            }
            default -> throw new IllegalArgumentException("unknown config " + config);
        };
        System.setProperty("bench.file", sink);
        if (!config.equals("nop") && !config.startsWith("spool-logback")) {
            previousOut = JmhSupport.redirectSystemOut(sink);
        }
        System.setProperty("logback.configurationFile", xml);
        logger = LoggerFactory.getLogger(EventLine.LOGGER);
    }

    /** Stops logback (draining the async queue) and restores {@code System.out}. */
    @TearDown(Level.Trial)
    public void tearDown() {
        ((LoggerContext) LoggerFactory.getILoggerFactory()).stop();
        if (previousOut != null) {
            System.setOut(previousOut);
        }
    }

    /**
     * One event.
     *
     * @param thread names the calling thread {@code producer-<n>}
     */
    @Benchmark
    public void log(JmhSupport.ProducerThread thread) {
        logger.info(EventLine.MESSAGE, JmhSupport.ID);
    }
}
