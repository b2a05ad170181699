package io.github.spool.undertow;

import io.github.spool.SpoolConfig;
import java.nio.file.Path;

/**
 * Forked by {@link ExitDrainTest}: starts a receiver on the file {@code args[0]}, logs
 * {@code args[1]} lines from 4 threads, and returns from {@code main} without closing anything.
 */
public final class ExitDrainMain {

    private ExitDrainMain() {
    }

    public static void main(String[] args) throws Exception {
        final SpoolAccessLogReceiver receiver = SpoolAccessLogReceiver.start(
                SpoolConfig.builder(SpoolAccessLogReceiver.DEFAULT_NAME).file(Path.of(args[0])).build());
        final int lines = Integer.parseInt(args[1]);
        final Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            final int id = t;
            threads[t] = new Thread(() -> {
                for (int i = id; i < lines; i += threads.length) {
                    receiver.logMessage("127.0.0.1 - - [23/Nov/2026:10:00:00 +0000] \"GET /r/" + i + " HTTP/1.1\" 200 2");
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        // No close(): Spool's shutdown hook must drain what the ring holds.
    }
}
