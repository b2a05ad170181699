package io.github.spool.bench.suite;

import io.github.spool.bench.e2e.Sink;
import java.util.List;
import java.util.Set;

/**
 * How long and how often the suite measures: {@link #quick()} (a few minutes on 2 cores, to
 * prove the suite works and to iterate) or {@link #full()} (for publishing).
 *
 * @param mode               {@code quick} or {@code full}
 * @param repeats            child JVMs per configuration and group (throughput and request scenarios)
 * @param consoleEvents      events per console run
 * @param consoleThreads     producer counts of the console scenario
 * @param consoleSinks       where stdout goes in the console scenario
 * @param ringEvents         events per RingLog run (split over the threads)
 * @param ringThreads        producer counts of the RingLog scenario
 * @param stallRate          events per second of the stalling-sink producer
 * @param stallSeconds       recorded seconds of each stalling-sink run
 * @param stallRepeats       repeats of each stalling-sink configuration
 * @param requestConnections echo-server connections (and server threads)
 * @param requestWorkMicros  CPU work per request on the server thread, microseconds
 * @param requestWarmup      seconds before the QPS window
 * @param requestSeconds     seconds of the QPS window
 * @param jmhForks           JMH forks per benchmark
 * @param jmhWarmups         JMH warm-up iterations
 * @param jmhWarmupSeconds   seconds per warm-up iteration
 * @param jmhIterations      JMH measurement iterations
 * @param jmhSeconds         seconds per measurement iteration
 * @param jmhThreads         JMH thread counts
 * @param scenarios          the scenarios to run
 * @param jsonThreads        producer counts of the json scenario
 */
public record Plan(String mode, int repeats, long consoleEvents, List<Integer> consoleThreads, List<Sink> consoleSinks,
                   long ringEvents, List<Integer> ringThreads, int stallRate, double stallSeconds, int stallRepeats,
                   int requestConnections, int requestWorkMicros, double requestWarmup, double requestSeconds, int jmhForks, int jmhWarmups,
                   int jmhWarmupSeconds, int jmhIterations, int jmhSeconds, List<Integer> jmhThreads,
                   Set<String> scenarios, List<Integer> jsonThreads) {

    /** Every scenario, in the order they run. */
    public static final List<String> ALL_SCENARIOS = List.of("console", "ringlog", "stall", "request", "rolling", AccessLogScenario.NAME, "producers", "json", ServerScenario.NAME, "jmh");

    /** The json scenario's producer counts in quick mode: 16 and 64 would double its few minutes. */
    private static final List<Integer> QUICK_JSON_THREADS = List.of(1, 4);

    private static final List<Sink> CONSOLE_SINKS = List.of(Sink.FILE, Sink.PIPE, Sink.DEV_NULL);

    /** @return the quick plan: small N, 2 repeats, short JMH; a few minutes on 2 cores */
    public static Plan quick() {
        return new Plan("quick", 2, 100_000, List.of(1), CONSOLE_SINKS, 200_000, List.of(1, 5), 50_000, 2, 1,
                2, 20, 1, 1.5, 1, 1, 1, 2, 1, List.of(1, 2), Set.copyOf(ALL_SCENARIOS),
                QUICK_JSON_THREADS);
    }

    /** @return the full plan, for publishing: 1M-event runs, 5 repeats, 1 and 4 producers, longer JMH */
    public static Plan full() {
        return new Plan("full", 5, 1_000_000, List.of(1, 4), CONSOLE_SINKS, 2_000_000, List.of(1, 5), 50_000, 5, 3,
                2, 20, 2, 5, 2, 3, 2, 5, 2, List.of(1, 2), Set.copyOf(ALL_SCENARIOS),
                List.of(1, 4, 16, 64));
    }

    /**
     * @param mode {@code quick} or {@code full}
     * @return that plan
     */
    public static Plan named(String mode) {
        return switch (mode) {
            case "quick" -> quick();
            case "full" -> full();
            default -> throw new IllegalArgumentException("mode must be quick or full, not " + mode);
        };
    }

    /**
     * @param count repeats of the throughput and request scenarios
     * @return this plan with that many repeats
     */
    public Plan withRepeats(int count) {
        return new Plan(mode, count, consoleEvents, consoleThreads, consoleSinks, ringEvents, ringThreads, stallRate,
                stallSeconds, stallRepeats, requestConnections, requestWorkMicros, requestWarmup, requestSeconds, jmhForks, jmhWarmups,
                jmhWarmupSeconds, jmhIterations, jmhSeconds, jmhThreads, scenarios, jsonThreads);
    }

    /**
     * @param events  events per console run (the console target asks for 10,000,000)
     * @param threads producer counts
     * @param sinks   where stdout goes
     * @return this plan with that console scenario
     */
    public Plan withConsole(long events, List<Integer> threads, List<Sink> sinks) {
        return new Plan(mode, repeats, events, List.copyOf(threads), List.copyOf(sinks), ringEvents, ringThreads, stallRate,
                stallSeconds, stallRepeats, requestConnections, requestWorkMicros, requestWarmup, requestSeconds, jmhForks, jmhWarmups,
                jmhWarmupSeconds, jmhIterations, jmhSeconds, jmhThreads, scenarios, jsonThreads);
    }

    /**
     * @param threads producer counts of the json scenario
     * @return this plan with those
     */
    public Plan withJsonThreads(List<Integer> threads) {
        return new Plan(mode, repeats, consoleEvents, consoleThreads, consoleSinks, ringEvents, ringThreads, stallRate,
                stallSeconds, stallRepeats, requestConnections, requestWorkMicros, requestWarmup, requestSeconds, jmhForks, jmhWarmups,
                jmhWarmupSeconds, jmhIterations, jmhSeconds, jmhThreads, scenarios, List.copyOf(threads));
    }

    /**
     * @param names the scenarios to run
     * @return this plan restricted to them
     */
    public Plan withScenarios(Set<String> names) {
        for (String n : names) {
            if (!ALL_SCENARIOS.contains(n)) {
                throw new IllegalArgumentException("unknown scenario " + n + "; known: " + ALL_SCENARIOS);
            }
        }
        return new Plan(mode, repeats, consoleEvents, consoleThreads, consoleSinks, ringEvents, ringThreads, stallRate,
                stallSeconds, stallRepeats, requestConnections, requestWorkMicros, requestWarmup, requestSeconds, jmhForks, jmhWarmups,
                jmhWarmupSeconds, jmhIterations, jmhSeconds, jmhThreads, Set.copyOf(names), jsonThreads);
    }

    /**
     * @param name a scenario name
     * @return whether it runs
     */
    public boolean runs(String name) {
        return scenarios.contains(name);
    }
}
