package io.github.spool.bench.time;

import io.github.spool.time.TimestampFormat;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A load-independent view of the 2-thread timestamp question: two threads format through one
 * {@link TimestampFormat} with the shared clock of {@link TimestampSharedClockBenchmark} (thread 0
 * publishes the next second every 1,000 calls, thread 1 follows it, shifted by {@code skew} ms),
 * and the program counts how often the two shared slots were rewritten (their sequence versions,
 * read by reflection so the same program measures any build of {@code TimestampFormat}) and each
 * thread's CPU time per call ({@link ThreadMXBean#getCurrentThreadCpuTime}, which, unlike JMH's
 * wall-clock score, does not grow while a thread waits for a CPU on a busy machine).
 *
 * <p>Rewrites per 1,000 calls: 1 is the floor (one new second per 1,000 calls); a design that
 * evicts on every miss reaches hundreds when two threads in different seconds of one parity run
 * at the same time. The count depends on how much the two threads actually overlap, so it is
 * printed with each thread's CPU time as a share of the wall time (on a busy machine the threads
 * wait for CPUs and overlap less).
 *
 * <p>Run: {@code java -cp jmh-benchmarks/target/benchmarks.jar io.github.spool.bench.time.TimestampSlotChurn [callsPerThread] [rounds]}
 */
public final class TimestampSlotChurn {

    private TimestampSlotChurn() {
    }

    /**
     * Runs skew 0 and 2000 ms, {@code rounds} times each, and prints one line per run.
     *
     * @param args optional calls per thread (default 20,000,000) and rounds (default 3)
     * @throws Exception if reflection or a thread fails
     */
    public static void main(String[] args) throws Exception {
        final int calls = args.length > 0 ? Integer.parseInt(args[0]) : 20_000_000;
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        System.out.println("JDK " + System.getProperty("java.version") + ", " + calls + " calls per thread, "
            + TimestampBenchmark.PATTERN + " " + TimestampBenchmark.ZONE);
        for (int round = 0; round < rounds; round++) {
            for (long skew : new long[] {0, 2000}) {
                run(skew, calls);
            }
        }
    }

    private static void run(long skew, int calls) throws Exception {
        final TimestampFormat format = TimestampFormat.ofPattern(TimestampBenchmark.PATTERN, TimestampBenchmark.ZONE);
        final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        final AtomicLong second = new AtomicLong(TimestampSharedClockBenchmark.START_MILLIS);
        final long[] cpuNanos = new long[2];
        final CountDownLatch go = new CountDownLatch(1);
        final Thread[] threads = new Thread[2];
        for (int k = 0; k < 2; k++) {
            final int me = k;
            threads[k] = new Thread(() -> {
                final byte[] out = new byte[64];
                final long shift = me * skew;
                int millis = 0;
                long sink = 0;
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                final long cpu0 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < calls; i++) {
                    final long s = second.getAcquire();
                    if (++millis == 1000) {
                        millis = 0;
                        if (me == 0) {
                            second.setRelease(s + 1000);
                        }
                    }
                    sink += format.format(s + shift + millis, out, 0);
                }
                cpuNanos[me] = mx.getCurrentThreadCpuTime() - cpu0;
                if (sink == 42) {
                    System.out.print(""); // keep the loop's result alive
                }
            });
            threads[k].start();
        }
        final long wall0 = System.nanoTime();
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        final long wall = System.nanoTime() - wall0;
        final long rewrites = (version(format, "even") + version(format, "odd")) / 2;
        System.out.printf("skew %4d ms: shared-slot rewrites %7.2f per 1,000 calls; CPU ns/call: thread 0 %5.1f,"
                + " thread 1 %5.1f; on a CPU %3.0f%% / %3.0f%% of %d ms wall%n",
            skew, rewrites * 1000.0 / (2.0 * calls), cpuNanos[0] / (double) calls, cpuNanos[1] / (double) calls,
            100.0 * cpuNanos[0] / wall, 100.0 * cpuNanos[1] / wall, wall / 1_000_000);
    }

    private static long version(TimestampFormat format, String slotName) throws ReflectiveOperationException {
        final Field slotField = TimestampFormat.class.getDeclaredField(slotName);
        slotField.setAccessible(true);
        final Object slot = slotField.get(format);
        final Field version = slot.getClass().getDeclaredField("version");
        version.setAccessible(true);
        return version.getLong(slot);
    }
}
