package io.github.spool.soak;

import java.util.Map;

/**
 * The forked soak JVM's whole run once its framework is configured: sample memory, run the
 * producers for the configured time, read the appender's discard count, announce the drain, stop
 * the framework (which drains the ring), and print one {@link SoakReport} line to standard error.
 * Standard output belongs to the appender under test; nothing else writes there. Test support.
 */
public final class SoakChild {

    private SoakChild() {
    }

    /**
     * @param appenderName  name of the Spool appender in the framework's configuration
     * @param seconds       how long the producers log
     * @param producers     number of producer threads
     * @param call          the framework's log call
     * @param stopFramework stops the framework, draining its appenders
     * @throws Exception if the probe or the load fails
     */
    public static void run(String appenderName, double seconds, int producers, SoakLoad.LogCall call,
            Runnable stopFramework) throws Exception {
        MemoryProbe probe = new MemoryProbe(appenderName);
        probe.start();
        SoakLoad load = new SoakLoad(producers);
        // Until the producers have outrun the sink (what the soak checks), at most three times as long.
        long[] produced = load.run(seconds, 3 * seconds, probe::overloaded, call);
        // Final: every producer has returned from its last call, so nothing is discarded after this.
        long discarded = probe.eventsDiscarded();
        System.err.println(SoakReport.LOAD_DONE);
        System.err.flush();
        long t0 = System.nanoTime();
        stopFramework.run();
        long drainMillis = (System.nanoTime() - t0) / 1_000_000;
        probe.stop();
        Map<String, Long> figures = probe.figures();
        long total = 0;
        for (int p = 0; p < produced.length; p++) {
            figures.put("produced" + p, produced[p]);
            total += produced[p];
        }
        figures.put("produced", total);
        figures.put("discarded", discarded);
        figures.put("drainMillis", drainMillis);
        figures.put("loadMillis", load.loadMillis());
        figures.put("maxHeap", Runtime.getRuntime().maxMemory());
        System.err.println(MemoryProbe.report(figures));
        System.err.flush();
    }
}
