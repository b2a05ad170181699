// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import java.util.SplittableRandom;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The events both adapters' rolling differentials log into the framework's rolling appender and
 * into Spool's: 400 lines of seeded lengths, a third of them with a stack trace of a few frames,
 * so that multi-line events meet the size limit at every offset. Test support.
 */
public final class SeededTraces {

    private SeededTraces() {
    }

    /**
     * Logs the events as fast as they come.
     *
     * @param info a logger's {@code info(String)}
     * @param warn the same logger's {@code warn(String, Throwable)}
     */
    public static void log(Consumer<String> info, BiConsumer<String, Throwable> warn) {
        SplittableRandom random = new SplittableRandom(99);
        for (int i = 0; i < 400; i++) {
            String msg = "event " + i + " " + "x".repeat(random.nextInt(5, 80));
            if (random.nextInt(3) == 0) {
                Exception e = new IllegalStateException("failure " + i);
                StackTraceElement[] frames = new StackTraceElement[random.nextInt(1, 12)];
                for (int f = 0; f < frames.length; f++) {
                    frames[f] = new StackTraceElement("com.example.Frame" + f, "call", "Frame.java", random.nextInt(1, 999));
                }
                e.setStackTrace(frames);
                warn.accept(msg, e);
            } else {
                info.accept(msg);
            }
        }
    }
}
