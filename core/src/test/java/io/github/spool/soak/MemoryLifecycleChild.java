package io.github.spool.soak;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The forked program of the direct-memory lifecycle tests (issue 31, items 1 and 2), shared by both
 * adapters; each adapter's {@code MemoryLifecycleMain} calls {@link #baseline} first, then
 * {@link #run} with the mode its first argument names.
 *
 * <p>Mode {@code small} (run with {@code -XX:MaxDirectMemorySize=1m}): logs {@link #SMALL_LINES}
 * {@code seq <n>} lines, stops the framework and counts them in its output.
 *
 * <p>Mode {@code reconfigure}, the reconfigure loop (item 1): a load
 * thread logs {@code seq <n>} lines without pause while the main thread reconfigures the framework
 * {@link #ROUNDS} times from the same file (a Spool appender on standard output each time), then
 * stops the framework and checks its own standard output (a file, {@code -Dreconfigure.out}).
 *
 * <p>A line logged while the framework swaps its configuration may legitimately go nowhere
 * (logback's {@code reset()} leaves the root without appenders until the new one is attached),
 * so the load thread notes which lines it logged with no reconfiguration under way — an epoch
 * counter, odd while one runs, read before and after each call — and those must all be written,
 * once. Direct memory (the "direct" pool, or on JDK 24+ the native memory of FFM cells:
 * {@link CellMemory}) is read after each reconfiguration.
 *
 * <p>Prints {@code reconfigure-facts k=v ...} on standard error: {@code rounds}, {@code logged},
 * {@code guarded} (lines logged between reconfigurations), {@code missing} (of those, not in the
 * output), {@code duplicated}, {@code errors} (throwables out of a reconfiguration or a logging
 * call), {@code baseBytes} (before the framework started: {@link #baseline}), {@code warmBytes} (after round
 * {@link #WARM_ROUNDS}), {@code maxBytes} (most after that) and {@code endBytes} (after the stop).
 * Test support.
 */
public final class MemoryLifecycleChild {
    /** Lines of the {@code small} mode. */
    public static final int SMALL_LINES = 2_000;
    /** Reconfigurations per run. */
    public static final int ROUNDS = 200;
    /** Rounds before the memory baseline: each framework's first ones load classes and caches. */
    public static final int WARM_ROUNDS = 10;
    /** Lines the load thread logs between short pauses: a steady load, not a flood. */
    private static final int BURST = 20;
    /** Lines logged with no reconfiguration under way that each round waits for before the next. */
    private static final int BETWEEN_ROUNDS = 40;

    private static final AtomicLong EPOCH = new AtomicLong();
    private static long baseBytes = -1;

    private MemoryLifecycleChild() {
    }

    /**
     * Reads the memory that holds cells before the framework starts: the program's first call.
     */
    public static void baseline() {
        baseBytes = CellMemory.bytes();
    }

    /**
     * @param mode        {@code small} or {@code reconfigure}
     * @param log         logs one message at INFO through the framework (configured already)
     * @param reconfigure reconfigures the framework from its file, as a reload does
     * @param stop        stops the framework (drains its appenders)
     * @throws Exception if the output cannot be read
     */
    public static void run(String mode, Consumer<String> log, ThrowingRunnable reconfigure, Runnable stop) throws Exception {
        if (mode.equals("small")) {
            small(log, stop);
        }
        AtomicLong errors = new AtomicLong();
        BitSet guarded = new BitSet();
        Semaphore guardedLines = new Semaphore(0);
        long[] logged = new long[1];
        Thread load = new Thread(() -> {
            int seq = 0;
            while (EPOCH.get() >= 0) {
                for (int i = 0; i < BURST; i++, seq++) {
                    long before = EPOCH.get();
                    try {
                        log.accept("seq " + seq);
                    } catch (Throwable t) {
                        errors.incrementAndGet();
                        t.printStackTrace();
                    }
                    if ((before & 1) == 0 && EPOCH.get() == before) {
                        guarded.set(seq);
                        guardedLines.release();
                    }
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // pacing, not synchronisation
            }
            logged[0] = seq;
        }, "load");
        log.accept("start");
        load.start();
        long warmBytes = 0;
        long maxBytes = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            EPOCH.incrementAndGet(); // odd: a reconfiguration is under way
            try {
                reconfigure.run();
            } catch (Throwable t) {
                errors.incrementAndGet();
                System.err.println("round " + round + ": " + t);
            }
            EPOCH.incrementAndGet();
            // Lines between rounds, as a service logs between reloads; without them the load would
            // almost all fall inside reconfigurations and the check would prove little.
            guardedLines.drainPermits();
            if (!guardedLines.tryAcquire(BETWEEN_ROUNDS, 30, TimeUnit.SECONDS)) {
                System.err.println("reconfigure-facts hung=load");
                System.exit(3);
            }
            long bytes = CellMemory.bytes();
            if (round == WARM_ROUNDS) {
                warmBytes = bytes;
            } else if (round > WARM_ROUNDS) {
                maxBytes = Math.max(maxBytes, bytes);
            }
        }
        EPOCH.set(Long.MIN_VALUE); // ends the load thread
        load.join();
        stop.run();
        long endBytes = CellMemory.bytes();
        BitSet seen = new BitSet();
        long duplicated = 0;
        for (String line : Files.readAllLines(Path.of(System.getProperty("reconfigure.out")), StandardCharsets.UTF_8)) {
            if (line.startsWith("seq ")) {
                int seq = Integer.parseInt(line.substring(4));
                if (seen.get(seq)) {
                    duplicated++;
                }
                seen.set(seq);
            }
        }
        BitSet missing = (BitSet) guarded.clone();
        missing.andNot(seen);
        System.err.println("reconfigure-facts rounds=" + ROUNDS + " logged=" + logged[0] + " guarded=" + guarded.cardinality()
                + " missing=" + missing.cardinality() + " duplicated=" + duplicated + " errors=" + errors.get()
                + " baseBytes=" + baseBytes + " warmBytes=" + warmBytes + " maxBytes=" + maxBytes + " endBytes=" + endBytes
                + (missing.isEmpty() ? "" : " firstMissing=" + missing.nextSetBit(0)));
        System.err.flush();
        System.exit(0);
    }

    private static void small(Consumer<String> log, Runnable stop) throws Exception {
        long errors = 0;
        for (int i = 0; i < SMALL_LINES; i++) {
            try {
                log.accept("seq " + i);
            } catch (Throwable t) {
                errors++;
                t.printStackTrace();
            }
        }
        stop.run();
        long written = Files.readAllLines(Path.of(System.getProperty("reconfigure.out")), StandardCharsets.UTF_8).stream()
                .filter(l -> l.startsWith("seq ")).distinct().count();
        System.err.println("reconfigure-facts lines=" + written + " errors=" + errors);
        System.err.flush();
        System.exit(0);
    }

    /** A reconfiguration, which may throw what the framework throws. */
    @FunctionalInterface
    public interface ThrowingRunnable {
        /**
         * Runs it.
         *
         * @throws Exception what the framework throws
         */
        void run() throws Exception;
    }
}
