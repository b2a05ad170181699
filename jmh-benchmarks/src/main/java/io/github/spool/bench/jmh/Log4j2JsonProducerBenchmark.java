package io.github.spool.bench.jmh;

import io.github.spool.bench.e2e.EventLine;
import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
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

/**
 * Producer cost of one event rendered as ECS JSON ({@code classpath:EcsLayout.json}) through
 * log4j2, as {@link Log4j2ProducerBenchmark} measures it for the pattern: the anchors are log4j2's
 * {@code Console} and its {@code Console direct="true"} stand-in with {@code JsonTemplateLayout};
 * Spool runs {@code SpoolJsonTemplateLayout} with {@code render="caller"} ({@code spool-json}) and
 * {@code render="writer"} ({@code spool-json-writer}). Run with {@code -prof gc} for the
 * allocation per event and with 1 and 2 threads. Each {@code config} runs in its own fork.
 *
 * <pre>
 * java -cp jmh-benchmarks/target/benchmarks.jar org.openjdk.jmh.Main 'bench.jmh.Log4j2JsonProducerBenchmark' -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class Log4j2JsonProducerBenchmark {

    /** The log4j2 configuration under test. */
    @Param({"json-console", "json-console-direct", "spool-json", "spool-json-writer"})
    public String config;

    /** Where the output goes: {@code /dev/null} by default, or a file. */
    @Param({"/dev/null"})
    public String sink;

    private Logger logger;
    private PrintStream previousOut;

    /**
     * Configures log4j2 for {@link #config}.
     *
     * @throws FileNotFoundException if the sink cannot be opened
     */
    @Setup(Level.Trial)
    public void setUp() throws FileNotFoundException {
        JmhSupport.requireFreshJvm();
        System.setProperty("bench.file", sink);
        System.setProperty("log4j2.shutdownHookEnabled", "false");
        String xml;
        switch (config) {
            case "json-console" -> {
                previousOut = JmhSupport.redirectSystemOut(sink);
                xml = "bench/log4j2-json-console.xml";
            }
            case "json-console-direct" -> xml = "bench/log4j2-json-file-unbuffered.xml";
            case "spool-json", "spool-json-writer" -> {
                System.setProperty("bench.render", config.endsWith("-writer") ? "writer" : "caller");
                xml = "bench/log4j2-spool-json-file.xml";
            }
            default -> throw new IllegalArgumentException("unknown config " + config);
        }
        System.setProperty("log4j2.configurationFile", xml);
        logger = LogManager.getLogger(EventLine.LOGGER);
    }

    /** Stops log4j2 and restores {@code System.out}. */
    @TearDown(Level.Trial)
    public void tearDown() {
        LogManager.shutdown();
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
