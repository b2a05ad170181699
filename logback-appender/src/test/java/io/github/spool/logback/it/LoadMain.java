package io.github.spool.logback.it;

import ch.qos.logback.classic.LoggerContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Program run in a forked JVM by the integration tests: {@code threads} producers log
 * {@code perThread} events each through whatever {@code -Dlogback.configurationFile} configures,
 * as lines {@code <thread> seq=<n> <payload>}. Then, by {@code mode}: {@code stop} calls
 * {@code LoggerContext.stop()}; {@code exit} returns from {@code main} without stopping logback (the
 * JVM's shutdown hooks must drain); {@code halt-after-exit} calls {@code System.exit(0)}.
 */
public final class LoadMain {

    /** Payload that makes a line about 100 bytes, like the anchors' lines. */
    static final String PAYLOAD = "Order processed status=OK size=7 ünïcødé ✓ padding-padding-padding";

    private LoadMain() {
    }

    /**
     * Entry point.
     *
     * @param args threads, events per thread, mode
     * @throws InterruptedException if interrupted while joining
     */
    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        int perThread = Integer.parseInt(args[1]);
        String mode = args[2];
        Logger log = LoggerFactory.getLogger("it.Load");
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> producers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    log.info("seq={} {}", i, PAYLOAD);
                }
            }, "producer-" + t);
            th.start();
            producers.add(th);
        }
        go.countDown();
        for (Thread th : producers) {
            th.join();
        }
        switch (mode) {
            case "stop":
                ((LoggerContext) LoggerFactory.getILoggerFactory()).stop();
                break;
            case "exit":
                break; // no stop(): only shutdown hooks stand between the ring and the exit
            case "system-exit":
                System.exit(0);
                break;
            default:
                throw new IllegalArgumentException("mode " + mode);
        }
    }
}
