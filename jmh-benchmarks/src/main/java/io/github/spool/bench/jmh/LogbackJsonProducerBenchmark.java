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
 * Producer cost of one event rendered as logstash-logback-encoder's JSON through logback, as
 * {@link Log4j2JsonProducerBenchmark} measures log4j2's: the anchor is logback's
 * {@code ConsoleAppender} with {@code LogstashEncoder} ({@code json-console}); Spool runs
 * {@code SpoolJsonEncoder} with {@code render} {@code caller} ({@code spool-logback-json}) and
 * {@code writer} ({@code spool-logback-json-writer}). Run with {@code -prof gc} for the allocation
 * per event and with 1 and more threads. Each {@code config} runs in its own fork.
 *
 * <pre>
 * java -cp jmh-benchmarks/target/benchmarks.jar org.openjdk.jmh.Main 'bench.jmh.LogbackJsonProducerBenchmark' -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class LogbackJsonProducerBenchmark {

    /** The logback configuration under test. */
    @Param({"json-console", "spool-logback-json", "spool-logback-json-writer"})
    public String config;

    /** Where the output goes: {@code /dev/null} by default, or a file. */
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
        System.setProperty("bench.file", sink);
        String xml;
        switch (config) {
            case "json-console" -> {
                previousOut = JmhSupport.redirectSystemOut(sink);
                xml = "bench/logback-json-console.xml";
            }
            case "spool-logback-json", "spool-logback-json-writer" -> {
                System.setProperty("bench.render", config.endsWith("-writer") ? "writer" : "caller");
                xml = "bench/logback-spool-json-file.xml";
            }
            default -> throw new IllegalArgumentException("unknown config " + config);
        }
        System.setProperty("logback.configurationFile", xml);
        logger = LoggerFactory.getLogger(EventLine.LOGGER);
    }

    /** Stops logback and restores {@code System.out}. */
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
