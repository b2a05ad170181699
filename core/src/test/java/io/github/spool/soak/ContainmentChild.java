package io.github.spool.soak;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The forked program of the failure-containment tests, shared by both adapters (each adapter's
 * {@code ContainmentMain} configures its framework with a Spool appender named {@code out} on
 * standard output, layout {@code %m%n}, and calls {@link #run}). Modes:
 * <ul>
 * <li>{@code stackoverflow}: ten trials of a recursion that logs at every level until the stack
 *     overflows; after each, one {@code mark <n>} line, which must be written within 20 s;
 * <li>{@code interrupt}: 20,000 {@code seq <n>} lines while another thread keeps interrupting the
 *     writer thread, then {@code APP-AFTER} through {@code System.out} and {@code SPOOL-AFTER}
 *     through the framework;
 * <li>{@code direct}: (run with {@code -XX:MaxDirectMemorySize=16m}) 30 messages of 1 MiB, one of
 *     40 MiB, then 1,000 {@code after <n>} lines; the most direct memory in use is reported.
 * </ul>
 * Prints {@code containment-facts k=v ...} on standard error, read before the framework stops
 * (its MBean goes with it), and exits 0 unless something hung. Test support.
 */
public final class ContainmentChild {
    /** One megabyte of payload for the direct mode. */
    private static final String MIB = "m".repeat(1 << 20);

    private static long deepCalls;
    private static String lastMark;
    private static long deepThrew;

    private ContainmentChild() {
    }

    private static void recurse(Consumer<String> log, int depth) {
        deepCalls++;
        log.accept("deep " + depth);
        recurse(log, depth + 1);
    }

    /**
     * @param mode one of the modes above
     * @param log  logs one message at INFO through the framework
     * @param stop stops the framework (drains its appenders)
     * @throws Exception if the MBean cannot be read
     */
    public static void run(String mode, Consumer<String> log, Runnable stop) throws Exception {
        StringBuilder facts = new StringBuilder("containment-facts mode=" + mode);
        switch (mode) {
            case "stackoverflow":
                for (int trial = 0; trial < 10; trial++) {
                    Thread t = new Thread(null, () -> {
                        try {
                            recurse(log, 0);
                        } catch (StackOverflowError expected) {
                            deepThrew++;
                        }
                    }, "recursion-" + trial, 512 << 10);
                    t.start();
                    t.join(60_000);
                    if (t.isAlive()) {
                        System.err.println("containment-facts hung=recursion");
                        System.exit(3);
                    }
                    // A mark may share a cell with a hole no handler could record; the writer then
                    // gives that cell up after its stall bound, counting the mark lost: log marks
                    // until one is written (bounded).
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    for (int k = 0; ; k++) {
                        long written = FaultProbe.get("EventsWritten");
                        long lost = FaultProbe.get("EventsLost");
                        lastMark = "mark " + trial + "." + k;
                        log.accept(lastMark);
                        while (FaultProbe.get("EventsWritten") == written && FaultProbe.get("EventsLost") == lost) {
                            if (System.nanoTime() - deadline > 0) {
                                System.err.println("containment-facts hung=mark" + trial);
                                System.exit(3);
                            }
                            Thread.yield();
                        }
                        if (FaultProbe.get("EventsLost") == lost) {
                            break; // written
                        }
                    }
                }
                // A mark was written, but the counters cannot say which: the written count may have
                // moved for an earlier mark while the last one is still in the ring. The output can:
                // once the last mark is in it, everything logged was written or counted lost.
                awaitInOutput(lastMark);
                facts.append(" deepCalls=").append(deepCalls).append(" overflows=").append(deepThrew);
                break;
            case "interrupt":
                Thread writer = Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.getName().startsWith("spool-writer-")).findFirst().orElseThrow();
                CountDownLatch done = new CountDownLatch(1);
                Thread interrupter = new Thread(() -> {
                    while (done.getCount() > 0) {
                        writer.interrupt(); // what ThreadGroup.interrupt() or a container's sweep does
                        Thread.onSpinWait();
                    }
                });
                interrupter.start();
                for (int i = 0; i < 20_000; i++) {
                    log.accept("seq " + i);
                }
                done.countDown();
                interrupter.join();
                System.out.println("APP-AFTER");
                System.out.flush();
                log.accept("SPOOL-AFTER");
                awaitAccounted(20_001);
                break;
            case "direct":
                long most = 0;
                for (int i = 0; i < 30; i++) {
                    log.accept("big " + i + " " + MIB);
                    most = Math.max(most, CellMemory.bytes());
                }
                long t0 = System.nanoTime();
                log.accept("huge " + MIB.repeat(40));
                facts.append(" hugeMillis=").append(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                for (int i = 0; i < 1_000; i++) {
                    log.accept("after " + i);
                    most = Math.max(most, CellMemory.bytes());
                }
                awaitAccounted(30 + 1 + 1_000);
                most = Math.max(most, CellMemory.bytes());
                facts.append(" maxDirectBytes=").append(most);
                break;
            default:
                throw new IllegalArgumentException(mode);
        }
        for (String a : new String[] {"EventsWritten", "EventsLost", "EventsDiscarded", "FailedCopies", "StallRecoveries",
                "BufferBytesHighWater", "BufferBytesMax"}) {
            facts.append(' ').append(a).append('=').append(FaultProbe.get(a));
        }
        System.err.println(facts);
        System.err.flush();
        stop.run();
        System.exit(0);
    }

    /**
     * Waits (bounded) until {@code line} is a whole line of the child's standard output (a file,
     * named by {@code -Dcontainment.out}) and the appender's written count has caught up with the
     * output's lines (the writer counts a write when it returns).
     */
    private static void awaitInOutput(String line) throws Exception {
        Path out = Path.of(System.getProperty("containment.out"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            String text = "\n" + Files.readString(out, StandardCharsets.ISO_8859_1);
            long lines = text.chars().filter(c -> c == '\n').count() - 1;
            if (text.contains("\n" + line + "\n") && FaultProbe.get("EventsWritten") == lines) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                System.err.println("containment: the output and the written count disagree: written=" + FaultProbe.get("EventsWritten") + " lines=" + lines);
                return; // the parent's check reports the difference
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // a poll of a file: nothing to wait on
        }
    }

    /** Waits (bounded) until the appender has written, lost or discarded {@code events} events. */
    private static void awaitAccounted(long events) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (FaultProbe.get("EventsWritten") + FaultProbe.get("EventsLost") + FaultProbe.get("EventsDiscarded") < events) {
            if (System.nanoTime() - deadline > 0) {
                System.err.println("containment-facts hung=accounting");
                System.exit(3);
            }
            Thread.yield();
        }
    }
}
