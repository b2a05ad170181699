package io.github.spool.bench.logback;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.joran.spi.JoranException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * End-to-end console throughput through logback, all configurations in the same JVM, alternating
 * round by round: {@code SpoolAppender} (default {@code SpoolEncoder}), logback's
 * {@code ConsoleAppender}, and {@code AsyncAppender} (262,144 slots, no discarding, unbounded
 * flush wait) in front of a {@code ConsoleAppender}; all with the anchors' pattern. Time runs from
 * the first call until {@code LoggerContext.stop()} returns, i.e. until every event is written.
 * Redirect standard output to a file (or a pipe); results go to standard error. The output must
 * hold exactly {@code rounds x 3 x events} lines ({@code wc -l}).
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.github.spool.bench.logback.ConsoleThroughput
 * [events=1000000] [threads=1] [rounds=3] [SpoolAppender,ConsoleAppender,AsyncAppender+Console] > out.txt}
 */
public final class ConsoleThroughput {

    private static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n";

    private static final Map<String, String> CONFIGS = new LinkedHashMap<>();

    static {
        CONFIGS.put("SpoolAppender", "<appender name='OUT' class='io.github.spool.logback.SpoolAppender'>"
                + "<encoder class='io.github.spool.logback.SpoolEncoder'><pattern>" + PATTERN + "</pattern></encoder></appender>"
                + "<root level='INFO'><appender-ref ref='OUT'/></root>");
        CONFIGS.put("ConsoleAppender", "<appender name='OUT' class='ch.qos.logback.core.ConsoleAppender'>"
                + "<encoder><pattern>" + PATTERN + "</pattern><charset>UTF-8</charset></encoder></appender>"
                + "<root level='INFO'><appender-ref ref='OUT'/></root>");
        CONFIGS.put("AsyncAppender+Console", "<appender name='CON' class='ch.qos.logback.core.ConsoleAppender'>"
                + "<encoder><pattern>" + PATTERN + "</pattern><charset>UTF-8</charset></encoder></appender>"
                + "<appender name='OUT' class='ch.qos.logback.classic.AsyncAppender'><queueSize>262144</queueSize>"
                + "<discardingThreshold>0</discardingThreshold><maxFlushTime>0</maxFlushTime><appender-ref ref='CON'/></appender>"
                + "<root level='INFO'><appender-ref ref='OUT'/></root>");
    }

    private ConsoleThroughput() {
    }

    /**
     * Runs the comparison.
     *
     * @param args events per configuration and round, producer threads, rounds
     * @throws Exception on configuration errors
     */
    public static void main(String[] args) throws Exception {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        List<String> only = args.length > 3 ? Arrays.asList(args[3].split(",")) : new ArrayList<>(CONFIGS.keySet());
        Map<String, List<Double>> results = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) {
            for (Map.Entry<String, String> c : CONFIGS.entrySet()) {
                if (!only.contains(c.getKey())) {
                    continue;
                }
                double eps = run(c.getValue(), events, threads);
                results.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(eps);
                System.err.printf("round %d %-22s %,12.0f events/s%n", r, c.getKey(), eps);
            }
        }
        System.err.printf("%n%d events x %d thread(s), %d rounds, median [min - max] events/s:%n", events, threads, rounds);
        double spool = results.containsKey("SpoolAppender") ? median(results.get("SpoolAppender")) : Double.NaN;
        for (Map.Entry<String, List<Double>> e : results.entrySet()) {
            double[] v = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.err.printf("%-22s %,12.0f [%,.0f - %,.0f]   SpoolAppender/this = %.2fx%n", e.getKey(), median(e.getValue()), v[0], v[v.length - 1],
                    spool / median(e.getValue()));
        }
        System.err.printf("expected output lines: %d%n", (long) rounds * results.size() * events);
    }

    private static double run(String body, int events, int threads) throws JoranException, InterruptedException {
        LoggerContext lc = new LoggerContext();
        lc.setMDCAdapter(new LogbackMDCAdapter()); // a context made by hand has none; events need one
        JoranConfigurator jc = new JoranConfigurator();
        jc.setContext(lc);
        jc.doConfigure(new ByteArrayInputStream(("<configuration>" + body + "</configuration>").getBytes(StandardCharsets.UTF_8)));
        lc.start();
        Logger log = lc.getLogger("anchors.Bench");
        int perThread = events / threads;
        CountDownLatch go = new CountDownLatch(1);
        Thread[] producers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int base = t * perThread;
            producers[t] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    log.info("Order processed id={} status={} size={}", base + i, "OK", 7);
                }
            }, "producer-" + t);
            producers[t].start();
        }
        long t0 = System.nanoTime();
        go.countDown();
        for (Thread p : producers) {
            p.join();
        }
        lc.stop(); // drains: SpoolAppender through Spool.stop, AsyncAppender through its worker
        long t1 = System.nanoTime();
        return (double) perThread * threads / ((t1 - t0) / 1e9);
    }

    private static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
