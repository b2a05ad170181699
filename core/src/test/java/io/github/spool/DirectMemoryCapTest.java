package io.github.spool;

import io.github.spool.io.Sink;
import io.github.spool.ring.DirectMemory;
import io.github.spool.soak.CellMemory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Direct memory stays under the cap (issue 11, item 4), in a forked JVM with
 * {@code -XX:MaxDirectMemorySize=16m}, with and without {@code -XX:+DisableExplicitGC}: repeated
 * oversized (1 MiB) records, a 40 MiB record that no direct memory can hold, burst/idle cycles
 * that grow the ring to its cap and trim it back, and DISCARD calls while direct memory is short;
 * first (JDK 17-23), allocators at the limit: the first free coming with direct memory full, and
 * four threads racing for the last bytes, which must never sleep in the JDK's retries.
 * Before: cells freed by the ring kept their memory until a GC (601 MiB held against a 32 MiB
 * cap; with DisableExplicitGC the ring could not grow again), and a failed allocation slept about
 * half a second holding the install flag (DISCARD's worst call 617 ms). On JDK 24+ cells are FFM
 * segments outside direct memory ({@code DirectMemory}): the same cap and trim checks run on
 * Native Memory Tracking's count ({@link CellMemory}); the direct-memory shortage steps do not apply.
 */
class DirectMemoryCapTest {
    static final long BUFFER = 1 << 20;
    static final long CAP = 8 << 20;

    private static final BufferPoolMXBean DIRECT = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
            .stream().filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();

    /** The forked program; exits 0 when every check passes, prints {@code facts ...} on stdout. */
    public static final class Main {
        /** Cells are FFM segments (JDK 24+): native memory, outside the JVM's direct-memory limit. */
        private static final boolean ARENAS = DirectMemory.usesArenas();

        /** A sink slow enough that the ring grows: each write takes a millisecond. */
        static final class SlowSink implements Sink {
            volatile boolean slow = true;

            @Override
            public long write(ByteBuffer[] srcs, int offset, int length) {
                if (slow) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
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
                return "slow";
            }

            @Override
            public void close() {
            }
        }

        /** A sink that takes nothing until {@link #open} is counted down. */
        static final class GatedSink implements Sink {
            final java.util.concurrent.CountDownLatch open = new java.util.concurrent.CountDownLatch(1);

            @Override
            public long write(ByteBuffer[] srcs, int offset, int length) throws java.io.IOException {
                try {
                    open.await();
                } catch (InterruptedException e) {
                    throw new java.io.InterruptedIOException();
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
                return "gated";
            }

            @Override
            public void close() {
            }
        }

        static void check(boolean ok, String what) {
            if (!ok) {
                System.out.println("FAILED " + what);
                System.exit(2);
            }
        }

        static void awaitTrimmed(Spool spool) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (spool.stats().getBufferBytesInUse() > BUFFER) {
                check(System.nanoTime() < deadline, "the ring trims back to bufferSize when idle");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        }

        /**
         * Allocates 16 KiB blocks on {@code threads} threads until the limit refuses each of them,
         * then frees them all, {@code rounds} times. Without the allocators taking turns, two
         * threads passed the check for the same last bytes and the loser slept in the JDK's
         * retries: 5 to 11 JDK refusals in 300 rounds of 4 threads on 2 cores.
         */
        static void allocateToTheLimit(int threads, int rounds) throws Exception {
            List<DirectMemory.Block> held = Collections.synchronizedList(new ArrayList<>());
            CyclicBarrier start = new CyclicBarrier(threads);
            CyclicBarrier done = new CyclicBarrier(threads, () -> {
                for (DirectMemory.Block b : held) {
                    check(b.free(), "a block is freed at once");
                }
                held.clear();
            });
            List<Thread> all = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread th = new Thread(() -> {
                    try {
                        for (int r = 0; r < rounds; r++) {
                            start.await(30, TimeUnit.SECONDS);
                            DirectMemory.Block b;
                            while ((b = DirectMemory.tryAllocate(16 << 10)) != null) {
                                held.add(b);
                            }
                            done.await(30, TimeUnit.SECONDS);
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                th.start();
                all.add(th);
            }
            for (Thread th : all) {
                th.join();
            }
        }

        public static void main(String[] args) throws Exception {
            long base = CellMemory.bytes();
            long maxUsed = 0;
            if (!ARENAS) {
                // 0. Allocators at the limit (JDK 17-23; FFM cells are not bounded by it). The
                // first free of the JVM's life comes with direct memory full: it once probed
                // invokeCleaner with a fresh buffer, failed, and left every later free to the GC.
                allocateToTheLimit(1, 1);
                check(CellMemory.bytes() - base <= 0, "blocks freed with direct memory full give it back: "
                        + (CellMemory.bytes() - base));
                allocateToTheLimit(4, 200);
                check(DirectMemory.jdkRefusals() == 0,
                        "allocators racing for the last bytes never sleep in the JDK's retries: "
                                + DirectMemory.jdkRefusals());
            }
            SlowSink sink = new SlowSink();
            Spool spool = Spool.start(SpoolConfig.builder("direct").bufferSize(BUFFER).maxBufferSize(CAP).build(), sink);
            // 1. Oversized records, one after another: each gets a dedicated cell, freed once written.
            byte[] big = new byte[1 << 20];
            java.util.Arrays.fill(big, (byte) 'b');
            big[big.length - 1] = '\n';
            for (int i = 0; i < 200; i++) {
                check(spool.append(big, 0, big.length, Severity.INFO) == AppendResult.ACCEPTED, "1 MiB record accepted");
                maxUsed = Math.max(maxUsed, CellMemory.bytes() - base);
            }
            // 2. A record larger than all direct memory: dropped and counted, never a hang (BLOCK).
            // Not a limit FFM cells have: there it would be admitted alone over the cap, by design.
            long hugeMillis = -1;
            if (!ARENAS) {
                byte[] huge = new byte[40 << 20];
                long t0 = System.nanoTime();
                AppendResult r = spool.append(huge, 0, huge.length, Severity.INFO);
                hugeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                check(r == AppendResult.DISCARDED, "a 40 MiB record with 16 MiB of direct memory is dropped: " + r);
            }
            // 3. Burst/idle cycles: grow to the cap behind the slow sink, then trim when idle.
            byte[] line = "a line of a burst that outruns the sink...................................\n"
                    .getBytes(StandardCharsets.US_ASCII);
            long afterTrim = 0;
            for (int cycle = 0; cycle < 3; cycle++) {
                for (int i = 0; i < 200_000; i++) {
                    spool.append(line, 0, line.length, Severity.INFO);
                    if ((i & 1023) == 0) {
                        maxUsed = Math.max(maxUsed, CellMemory.bytes() - base);
                    }
                }
                check(spool.stats().getBufferBytesHighWater() > BUFFER, "the ring grew");
                awaitTrimmed(spool);
                afterTrim = Math.max(afterTrim, CellMemory.bytes() - base);
            }
            // 4. DISCARD while direct memory is short: never waits for the JDK's allocation retries.
            // Leave about 1 MiB of the JVM's 16 MiB (one buffer: nothing to free, so no GC needed).
            // The sink stays shut until the loop ends, so the ring must grow until it cannot
            // (direct memory short, or for FFM cells, which do not use direct memory, the cap):
            // discards are certain, whatever the machine's speed.
            List<ByteBuffer> ballast = new ArrayList<>();
            ballast.add(ByteBuffer.allocateDirect((int) ((16 << 20) - DIRECT.getMemoryUsed() - (1 << 20))));
            GatedSink gated = new GatedSink();
            Spool discarding = Spool.start(SpoolConfig.builder("discarding").bufferSize(16 << 10).maxBufferSize(CAP)
                    .overflowPolicy(OverflowPolicy.DISCARD).build(), gated);
            long worstCall = 0;
            long discarded = 0;
            for (int i = 0; i < 300_000; i++) {
                long s = System.nanoTime();
                if (discarding.append(line, 0, line.length, Severity.INFO) == AppendResult.DISCARDED) {
                    discarded++;
                }
                worstCall = Math.max(worstCall, System.nanoTime() - s);
            }
            gated.open.countDown();
            check(discarded > 0, "the ring could not grow and DISCARD dropped");
            check(discarding.stop(30, TimeUnit.SECONDS), "the discarding appender drains");
            ballast.clear();
            sink.slow = false;
            check(spool.stop(30, TimeUnit.SECONDS), "drains");
            System.out.println("facts maxUsedMiB=" + (maxUsed >> 20) + " afterTrimKiB=" + (afterTrim >> 10)
                    + " hugeMillis=" + hugeMillis + " discardWorstCallMillis=" + TimeUnit.NANOSECONDS.toMillis(worstCall)
                    + " discarded=" + discarded + " written=" + spool.stats().getEventsWritten()
                    + " dropped=" + spool.stats().getEventsDiscarded() + " arenas=" + ARENAS
                    + " jdkRefusals=" + DirectMemory.jdkRefusals());
            check(maxUsed <= CAP + (1 << 20), "direct memory stays under the cap (plus one oversized record)");
            check(afterTrim <= BUFFER + (256 << 10), "trimmed cells give their memory back at once");
            // The mechanism, not a time (a loaded machine stretches any call): the limit check
            // refuses before the JDK's retries, so the JDK never refuses after sleeping in them.
            check(DirectMemory.jdkRefusals() == 0, "no DISCARD call sleeps in the JDK's allocation retries");
            System.exit(0);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void directMemoryStaysUnderTheCap(boolean disableExplicitGc) throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:MaxDirectMemorySize=16m", "-Xmx256m"));
        if (disableExplicitGc) {
            cmd.add("-XX:+DisableExplicitGC");
        }
        cmd.addAll(CellMemory.jvmOptions());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        Path out = Files.createTempFile("direct", ".out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        boolean finished;
        try {
            finished = p.waitFor(120, TimeUnit.SECONDS);
        } finally {
            p.destroyForcibly(); // a child that did not finish must not outlive the test
        }
        String text = Files.readString(out);
        assertTrue(finished, () -> "the child finishes: " + text);
        System.out.println("figures DirectMemoryCapTest disableExplicitGC=" + disableExplicitGc + ": " + text.trim());
        assertEquals(0, p.exitValue(), text);
    }
}
