package io.github.spool.soak;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The producer side of a soak, run inside the forked JVM: {@code producers} threads log numbered
 * events as fast as the framework lets them for a fixed time, then stop. Producer 0 logs every
 * {@link #WARN_EVERY}-th event at WARN, everything else is INFO: under {@code DISCARD} (threshold
 * INFO) producer 0's WARN events must all arrive — each waits at the cap for a free cell — while
 * the other producers never wait and most of their INFO events are dropped. Test support shared by
 * the adapters' soak tests (core's test-jar).
 */
public final class SoakLoad {

    /** Fixed payload that makes each line about 100 bytes. */
    public static final String PAYLOAD = "status=OK size=7 payload=abcdefghijklmnopqrstuvwxyz0123456789";

    /** One event of producer 0 in this many is a WARN. */
    public static final int WARN_EVERY = 1024;

    /** One log call of the framework under test. */
    @FunctionalInterface
    public interface LogCall {
        /**
         * Logs {@code soak p=<producer> seq=<seq> <PAYLOAD>} at WARN or INFO.
         *
         * @param producer producer number
         * @param seq      the producer's sequence number, from 0
         * @param warn     WARN if {@code true}, else INFO
         */
        void log(int producer, long seq, boolean warn);
    }

    private final int producers;
    private final long[] produced;
    private volatile boolean stop;
    /** How long the load ran, once {@link #run} has returned. */
    private long loadNanos;

    /** @param producers number of producer threads */
    public SoakLoad(int producers) {
        this.producers = producers;
        this.produced = new long[producers];
    }

    /**
     * @param producer a producer number
     * @param seq      a sequence number
     * @return whether that event is logged at WARN
     */
    public static boolean isWarn(int producer, long seq) {
        return producer == 0 && seq % WARN_EVERY == WARN_EVERY - 1;
    }

    /**
     * Runs the producers for {@code seconds}, and on until {@code enough} says so or
     * {@code maxSeconds} have passed, then asks them to stop and waits for each to return from its
     * last call (under {@code BLOCK} that last call may wait for the sink).
     *
     * @param seconds    how long the producers log at least
     * @param maxSeconds how long they log at most
     * @param enough     whether the load has done what it is for
     * @param call       the framework's log call
     * @return events logged per producer
     * @throws InterruptedException if interrupted while waiting
     */
    public long[] run(double seconds, double maxSeconds, BooleanSupplier enough, LogCall call)
            throws InterruptedException {
        Thread[] threads = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            final int id = p;
            threads[p] = new Thread(() -> {
                long seq = 0;
                while (!stop) {
                    call.log(id, seq, isWarn(id, seq));
                    seq++;
                }
                produced[id] = seq; // published to the main thread by join()
            }, "producer-" + p);
            threads[p].start();
        }
        // The duration of the load, not a synchronisation: the joins below are.
        long begin = System.nanoTime();
        TimeUnit.MILLISECONDS.sleep((long) (seconds * 1000));
        // On a busy host the producers may not have outrun the sink yet: go on until they have
        // (what the run is for), within bounds; a load poll, not a synchronisation.
        while (!enough.getAsBoolean() && System.nanoTime() - begin < (long) (maxSeconds * 1e9)) {
            TimeUnit.MILLISECONDS.sleep(100);
        }
        loadNanos = System.nanoTime() - begin;
        stop = true;
        for (Thread t : threads) {
            t.join();
        }
        return produced.clone();
    }

    /** @return how long the last {@link #run} kept the producers logging, in ms */
    public long loadMillis() {
        return TimeUnit.NANOSECONDS.toMillis(loadNanos);
    }
}
