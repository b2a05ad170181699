package io.github.spool.soak;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * One thread that logs {@code seq=0, 1, 2, ...} until stopped, in bursts of {@value #BURST} with a
 * short pause between them (load shaping: enough events to overlap every reconfiguration, few
 * enough to keep the files small). {@link #completed()} is the number of calls that have returned:
 * read before a reconfiguration, every smaller number was logged before it began. Test support.
 */
public final class SeqProducer implements Runnable {

    /** Events per burst. */
    static final int BURST = 32;
    /** Pause between bursts. */
    static final long PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private final LongConsumer log;
    private final Thread thread;
    private volatile long completed;
    private volatile boolean stop;

    /**
     * @param threadName the producer thread's name
     * @param log        logs one event with the given sequence number
     */
    public SeqProducer(String threadName, LongConsumer log) {
        this.log = log;
        this.thread = new Thread(this, threadName);
    }

    /** Starts logging. */
    public void start() {
        thread.start();
    }

    @Override
    public void run() {
        long seq = 0;
        while (!stop) {
            for (int i = 0; i < BURST; i++) {
                log.accept(seq);
                completed = ++seq; // volatile store after the call returned
            }
            LockSupport.parkNanos(PAUSE_NANOS);
        }
    }

    /** @return how many log calls have returned */
    public long completed() {
        return completed;
    }

    /**
     * Waits until {@code events} more calls have returned (pacing a reconfiguration loop so that
     * every configuration sees traffic, not a synchronisation).
     *
     * @param events how many more
     */
    public void awaitProgress(long events) {
        long target = completed + events;
        while (completed < target && thread.isAlive()) {
            LockSupport.parkNanos(PAUSE_NANOS);
        }
    }

    /**
     * Stops logging and waits for the thread to end.
     *
     * @return the number of events logged
     * @throws InterruptedException if interrupted while waiting
     */
    public long stop() throws InterruptedException {
        stop = true;
        thread.join();
        return completed;
    }
}
