package io.github.spool.io;

/**
 * The writer's thread: a daemon that nobody can interrupt. Internal to Spool.
 *
 * <p>{@code FileChannel} is an {@code InterruptibleChannel}: a thread interrupted while it
 * writes closes the channel, and for the channels on {@link java.io.FileDescriptor#out} and
 * {@link java.io.FileDescriptor#err} that closes fd 1 or fd 2 for the whole process (the JDK then
 * points the descriptor at {@code /dev/null}), so the application's own {@code System.out} goes
 * silent too. Application servers and executor shutdowns interrupt threads they do not own
 * ({@code ThreadGroup.interrupt}, leak-prevention sweeps), so the writer cannot rely on being left
 * alone. {@link Thread#interrupt()} is the only way to set another thread's interrupt status
 * (JVMTI aside), and it is overridable: this thread ignores it. Spool itself never interrupts its
 * writer; stop and wake-ups go through {@link java.util.concurrent.locks.LockSupport#unpark}. The
 * writer also clears its own status on every pass, in case something set it anyway, because a
 * set status makes every {@code parkNanos} return at once (a spinning writer) and makes the next
 * channel operation close the channel.
 */
public final class WriterThread extends Thread {

    private volatile long ignoredInterrupts;

    /**
     * @param writer the writer to run
     * @param name   the thread's name
     */
    WriterThread(RingWriter writer, String name) {
        super(null, writer, name, 0, false); // no inherited thread-locals (SpoolThreads)
    }

    /**
     * @param task another of Spool's tasks that owns a sink (the exit lane)
     * @param name the thread's name
     */
    WriterThread(Runnable task, String name) {
        super(null, task, name, 0, false);
    }

    /** Ignored, and counted: see the class documentation. */
    @Override
    public void interrupt() {
        ignoredInterrupts++; // racy increments may lose a count; it is a diagnostic, not accounting
    }

    /** @return how many times someone tried to interrupt this thread */
    public long ignoredInterrupts() {
        return ignoredInterrupts;
    }
}
