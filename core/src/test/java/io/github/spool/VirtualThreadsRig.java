package io.github.spool;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts virtual threads on JDK 21+ from tests compiled for Java 17 (through reflection on
 * {@code Thread.ofVirtual()}); used by core's tests and both adapters' (core's test jar).
 */
public final class VirtualThreadsRig {

    private VirtualThreadsRig() {
    }

    /** @return whether this JVM has virtual threads */
    public static boolean available() {
        try {
            Thread.class.getMethod("ofVirtual");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * Starts one virtual thread running {@code task}.
     *
     * @param task what it runs
     * @return the started thread
     */
    public static Thread start(Runnable task) {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
            return (Thread) start.invoke(builder, task);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("virtual threads need JDK 21+", e);
        }
    }

    /**
     * Runs {@code task} on {@code count} virtual threads one after another, each a new thread as
     * a server makes per request, joining each before the next starts.
     *
     * @param count threads
     * @param task  what each runs, given its index
     * @throws InterruptedException if interrupted while joining
     */
    public static void oneAfterAnother(int count, java.util.function.IntConsumer task) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            int n = i;
            start(() -> task.accept(n)).join();
        }
    }

    /**
     * Runs {@code task} on {@code count} virtual threads at once and joins them all.
     *
     * @param count threads
     * @param task  what each runs, given its index
     * @throws InterruptedException if interrupted while joining
     */
    public static void allAtOnce(int count, java.util.function.IntConsumer task) throws InterruptedException {
        List<Thread> threads = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int n = i;
            threads.add(start(() -> task.accept(n)));
        }
        for (Thread t : threads) {
            t.join();
        }
    }
}
