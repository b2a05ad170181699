package io.github.spool.bench.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one cache line costs to move between two cores of this machine: two threads take turns
 * incrementing one counter, each waiting (spinning) for the other's value, so every turn moves the
 * line once. Half the round trip is the price of each shared-line write a producer makes on one
 * core after another producer (or the writer) touched the line on the other — the ring's claim and
 * commit, and a record's first bytes beside the previous record's (docs/benchmarks.md, "What grows
 * with producers"). On a virtual machine it depends on where the host runs the two vCPUs, and
 * can change between runs.
 *
 * <p>Usage: {@code CoreToCore [rounds=2000000] [repeats=5]}; run it on an otherwise idle machine
 * with at least two cores (two spinning threads).
 */
public final class CoreToCore {

    private static final AtomicLong TURN = new AtomicLong();

    private CoreToCore() {
    }

    /**
     * Prints the round trip of each repeat in nanoseconds.
     *
     * @param args {@code rounds=N repeats=N}
     * @throws InterruptedException if interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        long rounds = 2_000_000;
        int repeats = 5;
        for (String a : args) {
            if (a.startsWith("rounds=")) {
                rounds = Long.parseLong(a.substring("rounds=".length()));
            } else if (a.startsWith("repeats=")) {
                repeats = Integer.parseInt(a.substring("repeats=".length()));
            } else {
                throw new IllegalArgumentException("expected rounds=N or repeats=N, got " + a);
            }
        }
        for (int r = 1; r <= repeats; r++) {
            TURN.set(0);
            long n = rounds;
            // odd values are the other thread's to write, even ones ours
            Thread other = new Thread(() -> play(1, n), "core-to-core");
            other.start();
            long start = System.nanoTime();
            play(0, n);
            other.join();
            long nanos = System.nanoTime() - start;
            System.out.printf("repeat %d: round trip %.0f ns (one move %.0f ns)%n", r, nanos / (double) n,
                    nanos / (2.0 * n));
        }
    }

    /** Writes {@code parity + 2k} once the counter reads it, for {@code rounds} turns. */
    private static void play(long parity, long rounds) {
        for (long v = parity; v < 2 * rounds; v += 2) {
            while (TURN.get() != v) {
                Thread.onSpinWait();
            }
            // Volatile store (a plain set would do on x86; volatile keeps it the same on every CPU)
            TURN.set(v + 1);
        }
    }
}
