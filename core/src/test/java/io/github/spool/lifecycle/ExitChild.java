// SPDX-License-Identifier: Apache-2.0
package io.github.spool.lifecycle;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The forked program of the exit tests, shared by both adapters (each adapter's {@code ExitMain}
 * configures its framework — {@link ExitContract#configure} — and calls {@link #run}). Standard
 * output belongs to the appenders under test; the program's own remarks go to standard error.
 * Modes:
 * <ul>
 * <li>{@code hook-lines}: 100 {@code main <n>} lines, then {@code main} returns; the program's own
 *     shutdown hook waits until Spool's hook has ended, then logs 1,000 {@code hook <n>} lines — what
 *     a graceful-shutdown handler or Spring's context close does after Spool's hook has drained;
 * <li>{@code late-start}: the framework is first used inside the program's shutdown hook (Spool
 *     starts while the JVM exits), which logs 1,000 {@code hook <n>} lines;
 * <li>{@code stalled-exit}: 4,000 lines of about 200 bytes to standard output, which nobody reads
 *     (the pipe fills and the writers block), then {@code LOGGED} on standard error and {@code main}
 *     returns: the exit must end by the one exit deadline, and say what it lost;
 * <li>{@code exit-from-producer}: four threads log {@code t<id> <seq>} as fast as they can, and
 *     thread 0 calls {@code System.exit(3)} itself at its 50,000th line: every thread's lines must
 *     be a gap-free prefix of its sequence.
 * </ul>
 * Test support.
 */
public final class ExitChild {

    private ExitChild() {
    }

    /**
     * @param mode   one of the modes above
     * @param logger makes the framework's logger (first use configures the framework) and returns
     *               its INFO call
     */
    public static void run(String mode, Supplier<Consumer<String>> logger) {
        switch (mode) {
            case "hook-lines": {
                Consumer<String> log = logger.get();
                for (int i = 0; i < 100; i++) {
                    log.accept("main " + i);
                }
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    awaitSpoolHook();
                    for (int i = 0; i < 1_000; i++) {
                        log.accept("hook " + i);
                    }
                }, "app-hook"));
                break;
            }
            case "late-start":
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    Consumer<String> log = logger.get();
                    for (int i = 0; i < 1_000; i++) {
                        log.accept("hook " + i);
                    }
                }, "app-hook"));
                break;
            case "stalled-exit": {
                Consumer<String> log = logger.get();
                String pad = "p".repeat(190);
                for (int i = 0; i < 4_000; i++) {
                    log.accept("fill " + i + " " + pad);
                }
                System.err.println("LOGGED");
                System.err.flush();
                break;
            }
            case "exit-from-producer": {
                Consumer<String> log = logger.get();
                for (int t = 0; t < 4; t++) {
                    int id = t;
                    Thread p = new Thread(() -> {
                        for (long i = 0; ; i++) {
                            log.accept("t" + id + " " + i);
                            if (id == 0 && i == 50_000) {
                                System.exit(3);
                            }
                        }
                    }, "producer-" + t);
                    p.start();
                }
                break;
            }
            default:
                throw new IllegalArgumentException(mode);
        }
    }

    /**
     * Waits (at most 10 s) for Spool's shutdown hook thread to appear and end. The JVM starts its
     * hooks one after another in no order, so the hook may not be running yet: look again every
     * millisecond until it is, then join it.
     */
    private static void awaitSpoolHook() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() - deadline < 0) {
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals("spool-shutdown")) {
                    try {
                        t.join(TimeUnit.NANOSECONDS.toMillis(Math.max(1, deadline - System.nanoTime())));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    System.err.println("spool-hook-ended");
                    return;
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        System.err.println("spool-hook-not-seen");
    }
}
