package io.github.spool.bench.jmh;

import io.github.spool.bench.e2e.EventLine;
import io.github.spool.bench.e2e.Versions;
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
 * Producer cost of one ~100-byte event through log4j2: a pre-built logger, the constant message
 * {@link EventLine#MESSAGE} with one pre-boxed parameter, the pattern {@link EventLine#PATTERN}.
 * Run with {@code -prof gc} for the allocation per event and with 1 and 2 threads. Where the
 * output goes is explained in {@link JmhSupport}. Each {@code config} runs in its own fork.
 *
 * <p>{@code spool-log4j2} runs with {@code render="caller"} (the logging thread renders the line),
 * {@code spool-log4j2-writer} with {@code render="writer"} (the writer thread does; what the default
 * {@code auto} chooses for this layout on two or more processors).
 *
 * <p>{@code async-console-direct} uses all-async loggers on LMAX Disruptor 3.4.4 (checked at
 * set-up): its output here goes to {@code /dev/null} and cannot be checked, so the suite verifies
 * the same configuration complete in its end-to-end runs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class Log4j2ProducerBenchmark {

    /** The log4j2 configuration under test. */
    @Param({"console", "console-direct", "async-console-direct", "raf", "null", "spool-log4j2", "spool-log4j2-writer"})
    public String config;

    /** Where the output goes: {@code /dev/null} by default, or a file (it grows by ~100 bytes per op). */
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
            case "console" -> {
                previousOut = JmhSupport.redirectSystemOut(sink);
                xml = "bench/log4j2-console.xml";
            }
            case "console-direct", "async-console-direct" -> xml = "bench/log4j2-file-unbuffered.xml";
            case "raf" -> xml = "bench/log4j2-raf.xml";
            case "null" -> xml = "bench/log4j2-null.xml";
            case "spool-log4j2", "spool-log4j2-writer" -> {
                System.setProperty("bench.render", config.endsWith("-writer") ? "writer" : "caller");
                xml = "bench/log4j2-spool-file.xml";
            }
            default -> throw new IllegalArgumentException("unknown config " + config);
        }
        if (config.startsWith("async")) {
            Versions.requireDisruptor3();
            System.setProperty("log4j2.contextSelector", "org.apache.logging.log4j.core.async.AsyncLoggerContextSelector");
        }
        System.setProperty("log4j2.configurationFile", xml);
        logger = LogManager.getLogger(EventLine.LOGGER);
    }

    /** Stops log4j2 (draining async loggers) and restores {@code System.out}. */
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
