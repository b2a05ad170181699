package io.github.spool.log4j2.it;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.impl.Log4jContextFactory;

/**
 * The program the integration tests run in a forked JVM: {@code threads} producers each log
 * {@code perThread} numbered events, then the program ends as {@code mode} says: {@code shutdown}
 * ({@code LogManager.shutdown()}), {@code return} (main just returns) or {@code reconfigure}
 * (reconfigures five times while the producers run, then shuts down). Prints the logger context
 * class to standard error so the test can check which selector ran.
 */
public final class LoadMain {

    /** Fixed payload that makes each line about 100 bytes. */
    public static final String PAYLOAD = "status=OK size=7 payload=abcdefghijklmnopqrstuvwxyz";

    private LoadMain() {
    }

    /**
     * @param args threads, events per thread, mode
     * @throws InterruptedException if interrupted while joining
     */
    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        int perThread = Integer.parseInt(args[1]);
        String mode = args[2];
        Logger logger = LogManager.getLogger("io.github.spool.it.Load");
        System.err.println("context=" + LogManager.getContext(false).getClass().getName());
        // Whether log4j2 can register its shutdown hook at all (Spring Boot's jar switches it off).
        System.err.println("log4j2ShutdownHook="
                + ((Log4jContextFactory) LogManager.getFactory()).isShutdownHookEnabled());
        AtomicLong produced = new AtomicLong();
        Thread[] producers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int id = t;
            producers[t] = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    logger.info("seq={} thread={} {}", i, id, PAYLOAD);
                    if ((i & 1023) == 1023) {
                        produced.addAndGet(1024); // progress, for the reconfigure pacing only
                    }
                }
            }, "producer-" + t);
            producers[t].start();
        }
        if (mode.equals("reconfigure")) {
            long total = (long) threads * perThread;
            for (int r = 1; r <= 5; r++) {
                long mark = total * r / 7;
                while (produced.get() < mark && anyAlive(producers)) {
                    LockSupport.parkNanos(200_000); // pacing, not synchronisation: the joins below are
                }
                Configurator.reconfigure();
            }
        }
        for (Thread p : producers) {
            p.join();
        }
        if (!mode.equals("return")) {
            LogManager.shutdown();
        }
    }

    private static boolean anyAlive(Thread[] threads) {
        for (Thread t : threads) {
            if (t.isAlive()) {
                return true;
            }
        }
        return false;
    }
}
