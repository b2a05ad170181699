// SPDX-License-Identifier: Apache-2.0
package io.github.spool.soak;

import io.github.spool.AppendResult;
import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;
import io.github.spool.VirtualThreadsRig;
import io.github.spool.io.Sink;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Many producers parked at the cap while the sink stalls, again and again (issue 31's soak): a
 * sink that blocks for {@code stallMillis} every {@code periodMillis}; {@code BLOCK}, so every
 * producer that finds the ring full parks. One warm-up stall comes first, unmeasured. Measured per stall: the process's CPU while the
 * producers are parked (the stall's second half; the first, while they arrive, is reported apart), and the drain — from the stall's
 * end until everything accepted before it is written. At the end: accepted = written + lost, and
 * the most direct memory in use. Platform threads, or virtual threads (JDK 21+, found by
 * reflection: core builds for Java 17). Test support; {@link #main} runs the long version.
 */
public final class ParkedProducersSoak {

    /** What one run measured. */
    public static final class Result {
        /** Records the ring accepted, written and counted lost. */
        public long accepted;
        public long written;
        public long lost;
        /**
         * Per stall: cores the process's Java threads used while the producers were parked (the
         * stall's second half): the producers, the writer, virtual threads' carriers — not the
         * JIT's compilations or the collector, which a loaded host delays into any window.
         */
        public final List<Double> parkedCores = new ArrayList<>();
        /** Per stall: the same window, the whole process (JIT and collector included). Reported, not bounded. */
        public final List<Double> parkedProcessCores = new ArrayList<>();
        /**
         * Per stall: cores the process used in the stall's first half, while the ring filled and the
         * producers arrived at the cap and parked: with 100,000 virtual threads each must run once
         * to get there, and the young collections then scan all their stacks. Reported, not bounded.
         */
        public final List<Double> arrivalCores = new ArrayList<>();
        /** Per stall: ms from its end until everything accepted before it was written. */
        public final List<Long> drainMillis = new ArrayList<>();
        /** The most direct memory in use (BufferPoolMXBean "direct"), sampled per stall. */
        public long maxDirectBytes;
        /** Heap in use after a GC, at the first stall and at the last. */
        public long firstHeap;
        public long lastHeap;

        /** @return this result on one line, for {@link #decode} (a forked soak's report) */
        public String encode() {
            return accepted + " " + written + " " + lost + " " + maxDirectBytes + " " + firstHeap + " " + lastHeap + " "
                    + parkedCores.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")) + " "
                    + drainMillis.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")) + " "
                    + arrivalCores.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")) + " "
                    + parkedProcessCores.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
        }

        /**
         * @param line what {@link #encode} wrote
         * @return the result it describes
         */
        public static Result decode(String line) {
            String[] f = line.trim().split(" ");
            Result r = new Result();
            r.accepted = Long.parseLong(f[0]);
            r.written = Long.parseLong(f[1]);
            r.lost = Long.parseLong(f[2]);
            r.maxDirectBytes = Long.parseLong(f[3]);
            r.firstHeap = Long.parseLong(f[4]);
            r.lastHeap = Long.parseLong(f[5]);
            for (String c : f[6].split(",")) {
                r.parkedCores.add(Double.parseDouble(c));
            }
            for (String d : f[7].split(",")) {
                r.drainMillis.add(Long.parseLong(d));
            }
            for (String c : f[8].split(",")) {
                r.arrivalCores.add(Double.parseDouble(c));
            }
            for (String c : f[9].split(",")) {
                r.parkedProcessCores.add(Double.parseDouble(c));
            }
            return r;
        }

        @Override
        public String toString() {
            return "accepted=" + accepted + " written=" + written + " lost=" + lost + " parkedCores=" + parkedCores
                    + " parkedProcessCores=" + parkedProcessCores
                    + " arrivalCores=" + arrivalCores
                    + " drainMillis=" + drainMillis + " maxDirect=" + maxDirectBytes + " heap " + firstHeap + " -> " + lastHeap;
        }
    }

    /** A sink that discards what it gets and blocks while stalled. */
    private static final class StallingSink implements Sink {
        private volatile CountDownLatch gate = new CountDownLatch(0);

        void stall() {
            gate = new CountDownLatch(1);
        }

        void release() {
            gate.countDown();
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            long n = 0;
            for (int i = offset; i < offset + length; i++) {
                n += srcs[i].remaining();
                srcs[i].position(srcs[i].limit());
            }
            return n;
        }

        @Override
        public String describe() {
            return "stalling-sink";
        }

        @Override
        public void close() {
            release();
        }
    }

    private ParkedProducersSoak() {
    }

    /** @return whether this JVM has virtual threads (JDK 21+) */
    public static boolean virtualThreadsAvailable() {
        return VirtualThreadsRig.available();
    }

    /**
     * What the soak drives: a way to stall the sink and release it, and the appender's counters.
     * The core's own (a {@link Spool} over a {@link StallingSink}) and an adapter's (a framework
     * logger whose Spool appender writes to a pipe the soak stops reading: {@link AdapterSoak}).
     */
    public interface Rig {
        /** Logs one record; returns when it is accepted (it may park at the cap). */
        void logOne();

        /** The sink stops taking bytes (its writes block). */
        void stall();

        /** The sink takes bytes again. */
        void release();

        /** @return records the appender has written so far */
        long written();

        /** @return records the appender has counted as lost so far */
        long lost();

        /** Stops the appender, once no producer logs any more and its counters have been read. */
        void stop() throws Exception;
    }

    /**
     * @param producers    how many producer threads
     * @param virtual      virtual threads (JDK 21+) instead of platform threads
     * @param stalls       how many stalls
     * @param stallMillis  how long each stall lasts
     * @param periodMillis stall every this many ms (the rest of the period the sink works)
     * @return what was measured, through a {@link Spool} over a stalling sink
     * @throws Exception if the threads cannot be started
     */
    public static Result run(int producers, boolean virtual, int stalls, long stallMillis, long periodMillis) throws Exception {
        StallingSink sink = new StallingSink();
        Spool spool = Spool.start(SpoolConfig.builder("parked-soak-" + (virtual ? "virtual" : "platform"))
                .bufferSize(64 << 10).maxBufferSize(1 << 20).overflowPolicy(OverflowPolicy.BLOCK).build(), sink);
        byte[] line = ("soak line from a parked producer " + "x".repeat(40) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        AtomicLong refused = new AtomicLong();
        Result r = run(new Rig() {
            @Override
            public void logOne() {
                if (spool.append(line, 0, line.length, Severity.INFO) != AppendResult.ACCEPTED) {
                    refused.incrementAndGet();
                }
            }

            @Override
            public void stall() {
                sink.stall();
            }

            @Override
            public void release() {
                sink.release();
            }

            @Override
            public long written() {
                return spool.stats().getEventsWritten();
            }

            @Override
            public long lost() {
                return spool.stats().getEventsLost();
            }

            @Override
            public void stop() {
                spool.stop(30, TimeUnit.SECONDS);
            }
        }, producers, virtual, stalls, stallMillis, periodMillis);
        if (refused.get() != 0) {
            throw new IllegalStateException(refused.get() + " records refused under BLOCK");
        }
        return r;
    }

    /**
     * Drives {@code rig}: {@code producers} threads log flat out; the sink stalls for
     * {@code stallMillis} every {@code periodMillis}, {@code stalls} times after one warm-up stall.
     *
     * @param rig          the appender under test
     * @param producers    how many producer threads
     * @param virtual      virtual threads (JDK 21+) instead of platform threads
     * @param stalls       how many stalls
     * @param stallMillis  how long each stall lasts
     * @param periodMillis stall every this many ms (the rest of the period the sink works)
     * @return what was measured
     * @throws Exception if the threads cannot be started or the appender not stopped
     */
    public static Result run(Rig rig, int producers, boolean virtual, int stalls, long stallMillis, long periodMillis) throws Exception {
        LongAdder accepted = new LongAdder();
        CountDownLatch done = new CountDownLatch(producers);
        AtomicBoolean over = new AtomicBoolean();
        Runnable producer = () -> {
            try {
                while (!over.get()) {
                    rig.logOne();
                    accepted.increment(); // after the call returned: the record is in the ring
                }
            } finally {
                done.countDown();
            }
        };
        for (int i = 0; i < producers; i++) {
            if (virtual) {
                VirtualThreadsRig.start(producer);
            } else {
                Thread t = new Thread(producer, "soak-producer-" + i);
                t.setDaemon(true);
                t.start();
            }
        }
        Result result = new Result();
        BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        // Stall -1 is the warm-up, not measured: the producers' first parking runs cold (their
        // threads starting, the JIT compiling the waiting path), and that is not the steady cost.
        for (int s = -1; s < stalls; s++) {
            park(periodMillis - stallMillis); // the sink works
            rig.stall();
            long cpuA = os.getProcessCpuTime();
            long tA = System.nanoTime();
            park(stallMillis / 2); // the ring fills up to its cap and the producers arrive and park
            if (s >= 0) {
                result.arrivalCores.add((double) (os.getProcessCpuTime() - cpuA) / (System.nanoTime() - tA));
            }
            if (s == 0 || s == stalls - 1) { // s == -1 is the warm-up
                System.gc();
                long heap = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
                if (s == 0) {
                    result.firstHeap = heap;
                }
                result.lastHeap = heap;
            }
            long[] ids = threads.getAllThreadIds(); // platform threads: virtual ones run on carriers listed here
            long java0 = javaCpu(threads, ids);
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            park(stallMillis - stallMillis / 2);
            long cpu1 = os.getProcessCpuTime();
            long java1 = javaCpu(threads, ids);
            long t1 = System.nanoTime();
            if (s >= 0) {
                result.parkedCores.add((double) (java1 - java0) / (t1 - t0));
                result.parkedProcessCores.add((double) (cpu1 - cpu0) / (t1 - t0));
            }
            result.maxDirectBytes = Math.max(result.maxDirectBytes, direct.getMemoryUsed());
            // Everything accepted so far (the parked producers add nothing more until the release).
            long target = accepted.sum();
            long r0 = System.nanoTime();
            rig.release();
            while (rig.written() + rig.lost() < target && System.nanoTime() - r0 < TimeUnit.SECONDS.toNanos(30)) {
                park(1);
            }
            if (s >= 0) {
                result.drainMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - r0));
            }
        }
        // The producers finish their calls (none stays parked: the sink works), then the stop drains.
        over.set(true);
        if (!done.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("producers did not all finish");
        }
        // Counted before the stop (an adapter's counters are its MBean's, gone once it stops): the
        // sink works, so everything accepted is written or counted lost within the wait.
        result.accepted = accepted.sum();
        long r0 = System.nanoTime();
        while (rig.written() + rig.lost() < result.accepted && System.nanoTime() - r0 < TimeUnit.SECONDS.toNanos(30)) {
            park(1);
        }
        result.written = rig.written();
        result.lost = rig.lost();
        rig.stop();
        return result;
    }

    /** CPU time of the given threads so far; a thread that has ended counts nothing. */
    private static long javaCpu(java.lang.management.ThreadMXBean threads, long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += Math.max(0, threads.getThreadCpuTime(id));
        }
        return sum;
    }

    private static void park(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left; (left = end - System.nanoTime()) > 0; ) {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
        }
    }

    /**
     * The long version: {@code producers virtual stalls stallMillis periodMillis}, e.g.
     * {@code 1000 false 12 5000 10000} (2 minutes).
     *
     * @param args see above
     * @throws Exception if the run fails
     */
    public static void main(String[] args) throws Exception {
        Result r = run(Integer.parseInt(args[0]), Boolean.parseBoolean(args[1]), Integer.parseInt(args[2]),
                Long.parseLong(args[3]), Long.parseLong(args[4]));
        System.out.println(r);
    }
}
