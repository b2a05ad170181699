// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io;

import io.github.spool.AppendResult;
import io.github.spool.SpoolThreads;
import io.github.spool.StatusListener;
import io.github.spool.metrics.WriterCounters;
import io.github.spool.text.ByteLineBuilder;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Writes records synchronously once the JVM's exit has begun: the last stretch of an appender's
 * life, between Spool's shutdown hook and the framework's own stop — which may never come
 * (logback registers no shutdown hook by default). Internal to Spool.
 *
 * <p>Why: the JVM runs its shutdown hooks concurrently, in no order, and halts when the last one
 * returns. A line that an application's hook (a graceful-shutdown handler, Spring's context close,
 * a {@code @PreDestroy}) logs after Spool's hook closed the ring can only be certain to be out
 * before the halt if it is written before the logging call returns — which is what the
 * frameworks' own appenders do. So after the hook, a record the closed ring refuses comes here.
 * (A thread that is not a hook and goes on logging is cut off by the halt wherever it is, as with
 * the framework's own appender: its output ends, with no hole.)
 *
 * <p>How: the caller hands its record (a copy) to the lane's own thread, which takes the sink over
 * from the writer when the writer ends ({@link #takeOver}), so everything the ring accepted is out
 * first and each thread's lines stay in order. It is a {@link WriterThread}, which cannot be
 * interrupted: an interrupted caller writing a {@code FileChannel} itself would close fd 1 for the
 * whole process. While Spool's hook is still running it waits for the lane to go quiet
 * ({@link #awaitQuiet}) — the JVM cannot halt before it returns — so a caller need not wait for its
 * own record then: a burst (log4j2 draining its async queue into the appender at exit) costs a
 * queue insertion per line, not a hand-off. The hook waits for quiet until the exit deadline, not
 * less: a framework draining its queue into the appender while no hook of its own keeps the JVM
 * up loses its tail if the hook lets go first (a 1 s limit cut 4,694 lines off a log4j2
 * all-async drain, whose hand-offs once callers waited were slower than log4j2's own wait). Threads
 * that log flat out through the exit never go quiet, so they hold it to the deadline, where what
 * is queued is given up, counted and said, each thread's output a gap-free prefix. Once the hook
 * has returned a caller waits until its record is written. Queued records are bounded
 * ({@link #ASYNC_BYTES}): past that, callers wait.
 *
 * <p>Bounds: a caller waits at most until the exit deadline; past it, at most
 * {@link #PAST_DEADLINE_WAIT_NANOS} while the sink keeps up, and not at all while a write is stuck
 * that long or the writer never handed the sink over. A record given up is counted as lost (by the lane, the only thread that updates the
 * counters once the writer has ended), never written afterwards, and so is every later one.
 */
public final class ExitLane implements Runnable {

    /** How long a caller still waits for its record past the exit deadline. */
    static final long PAST_DEADLINE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long the hook sees no record pending before it lets the JVM go on (callers then wait). */
    static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** Bytes queued at most without their callers waiting. */
    static final long ASYNC_BYTES = 8 << 20;
    /** How long the lane and its callers spin before parking. */
    private static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private static final int PENDING = 0;
    private static final int TAKEN = 1;
    private static final int DONE = 2;
    private static final int ABANDONED = 3;
    private static final int REFUSED = 4;

    private static final VarHandle STATE;
    /** The bytes of the hook's fence ({@link #awaitQuiet}): nothing to write, nothing to count. */
    private static final byte[] FENCE = new byte[0];

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Request.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One record and its caller. */
    private static final class Request {
        final byte[] bytes;
        final Thread caller;
        /**
         * PENDING until the lane takes it (CAS, then DONE once finished), a give-up marks it
         * ABANDONED (CAS; the lane or its last sweep counts it lost and finishes it), or it is
         * refused (CAS): by its caller, who finishes it itself, or by the lane's last sweep.
         */
        volatile int state;

        Request(byte[] bytes, Thread caller) {
            this.bytes = bytes;
            this.caller = caller;
        }
    }

    private final String name;
    private final WriterCounters counters;
    private final StatusListener status;
    private final long deadlineNanos;
    private final Runnable onEnd;
    /** The writer's renderer (the lane's alone once the writer has ended), or {@code null} for text records. */
    private final RecordRenderer renderer;
    private final RecordRenderer.Result renderResult = new RecordRenderer.Result();
    private ByteLineBuilder rendered;
    private final ConcurrentLinkedQueue<Request> queue = new ConcurrentLinkedQueue<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Thread thread;
    /**
     * Records queued and not yet finished (written, counted lost or refused), and their bytes.
     * Incremented by callers before they queue, decremented by whoever finishes the record.
     */
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong pendingBytes = new AtomicLong();
    /**
     * While Spool's hook waits for the lane ({@link #awaitQuiet}): callers return once queued.
     * Dekker with {@link #write}: a caller counts its record in {@link #pending} (a volatile
     * read-modify-write) before it loads this; the hook stores {@code false} here before its last
     * load of {@code pending}, so a record whose caller did not wait is always seen by the hook.
     */
    private volatile boolean hookWaits;

    /** The sink, once the writer handed it over (a volatile store the lane's loads pair with). */
    private volatile Sink sink;
    /** No more records: the framework stopped the appender. */
    private volatile boolean closed;
    /**
     * No more records: the exit deadline passed with records still queued, which the hook gave up.
     * Later ones are refused too, so each thread's output stays a gap-free prefix. Dekker with
     * {@link #write}: the hook stores this before it sweeps the queue, a caller queues before it
     * loads this, so each late request is either swept or refused by its caller. The lane loads it
     * before it takes each record: the sweep runs from the head, and a sweeping thread descheduled
     * midway must not let the lane write records queued after ones it has marked already (a hole).
     */
    private volatile boolean gaveUp;
    /** The give-up has been said (once, by whichever thread gave up first). */
    private final AtomicBoolean gaveUpSaid = new AtomicBoolean();
    /**
     * Set by the lane before its last look at the queue; a caller reads it after queueing (Dekker:
     * volatile store then the queue's volatile loads, against the caller's offer then this load),
     * so every request is either served or refused by its own caller.
     */
    private volatile boolean done;
    /** {@link System#nanoTime()} when the current write began, or {@code 0} between writes. */
    private volatile long writeSince;
    /** Records the lane counted as lost (written by the lane only). */
    private volatile long lost;
    private boolean faultReported;

    /**
     * @param name          appender name, for status messages
     * @param counters      the writer's counters, which the lane updates once the writer has ended
     * @param status        where status messages go
     * @param deadlineNanos the JVM's exit deadline ({@link System#nanoTime()})
     * @param renderer      the writer's renderer, or {@code null} when records are text
     * @param hookWaits     whether Spool's shutdown hook will wait for the lane ({@link #awaitQuiet})
     * @param onEnd         run on the lane's thread after it closed the sink (unregistration)
     */
    public ExitLane(String name, WriterCounters counters, StatusListener status, long deadlineNanos,
                    RecordRenderer renderer, boolean hookWaits, Runnable onEnd) {
        this.hookWaits = hookWaits;
        this.renderer = renderer;
        this.name = name;
        this.counters = counters;
        this.status = status;
        this.deadlineNanos = deadlineNanos;
        this.onEnd = onEnd;
        this.thread = SpoolThreads.newThread(() -> new WriterThread(this, "spool-exit-" + name), true);
        this.thread.start();
    }

    /**
     * The writer ended: the lane owns {@code sink} from now on (RingWriter's hand-off). If the
     * writer did not drain the ring (it gave up at the deadline), the lane writes nothing either:
     * its records come after those the ring lost, and each thread's output must stay a gap-free
     * prefix. They are counted as lost, and later ones refused.
     *
     * @param sink    the writer's sink
     * @param drained whether the writer wrote everything the ring accepted
     */
    public void takeOver(Sink sink, boolean drained) {
        if (!drained) {
            giveUpQueued(false); // Spool says what the writer did not write
        }
        this.sink = sink;
        LockSupport.unpark(thread);
    }

    /**
     * Gives up every queued record (the lane counts them) and refuses later ones: see {@link #gaveUp}.
     *
     * @param say whether to say so, the first time: the exit deadline passed with records queued
     */
    private void giveUpQueued(boolean say) {
        gaveUp = true; // volatile store, then the sweep's loads: see gaveUp
        if (say && gaveUpSaid.compareAndSet(false, true)) {
            warn("the exit deadline passed with " + pending.get() + " records logged during the JVM's exit "
                    + "still queued; they and every later one are counted as lost (spool.shutdownTimeoutMillis)");
        }
        for (Request r : queue) {
            STATE.compareAndSet(r, PENDING, ABANDONED); // the lane counts them when it reaches them
        }
    }

    /**
     * Writes one record before returning, as a synchronous appender would.
     *
     * @param src    bytes
     * @param offset first byte
     * @param length byte count
     * @return {@link AppendResult#ACCEPTED} (written, or counted as lost) or
     *         {@link AppendResult#CLOSED} once the framework has stopped the appender
     */
    public AppendResult write(byte[] src, int offset, int length) {
        if (closed || gaveUp) {
            return AppendResult.CLOSED;
        }
        if (Thread.currentThread() == thread) {
            return AppendResult.CLOSED; // a status message routed back from the lane itself
        }
        Request r = new Request(Arrays.copyOfRange(src, offset, offset + length), Thread.currentThread());
        long queuedBytes = enqueue(r);
        if (queuedBytes < 0) {
            return AppendResult.CLOSED; // the lane had ended, or the hook gave up: nobody will take it
        }
        // Loaded after the offer: see hookWaits.
        if (hookWaits && queuedBytes <= ASYNC_BYTES) {
            return AppendResult.ACCEPTED; // the hook waits for it: see hookWaits
        }
        return await(r);
    }

    /**
     * Queues {@code r} and wakes the lane.
     *
     * @return the bytes pending with it, or {@code -1} if it was refused (the lane had ended, or
     *         the hook gave up) and finished already
     */
    private long enqueue(Request r) {
        pending.incrementAndGet();
        long queuedBytes = pendingBytes.addAndGet(r.bytes.length);
        queue.offer(r);
        if ((done || gaveUp) && STATE.compareAndSet(r, PENDING, REFUSED)) {
            finished(r); // the caller's to finish: the lane skips what its caller refused
            return -1;
        }
        LockSupport.unpark(thread);
        return queuedBytes;
    }

    /**
     * Spool's hook, after the ring drained: waits until no record has been pending for
     * {@link #QUIET_NANOS}; from then on callers wait for their own records, and the hook waits
     * only until the lane has finished those it let go without waiting. At the deadline with
     * records still queued, they are given up (the lane counts them as lost), and so is every
     * later one ({@link #gaveUp}); that is said once.
     *
     * @param deadlineNanos the exit deadline
     */
    public void awaitQuiet(long deadlineNanos) {
        long quietSince = 0;
        for (;;) {
            long now = System.nanoTime();
            if (now - deadlineNanos >= 0) {
                break;
            }
            if (pending.get() != 0) {
                quietSince = 0;
            } else if (quietSince == 0) {
                quietSince = now;
            } else if (now - quietSince >= QUIET_NANOS) {
                break;
            }
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
        }
        hookWaits = false; // volatile store, then the volatile loads below: see hookWaits
        if (pending.get() == 0) {
            return; // nothing was queued on the hook's word
        }
        // A caller that saw hookWaits set queued before that store, so before this fence: when the
        // lane reaches it (the queue is FIFO), every record let go without waiting is finished.
        Request fence = new Request(FENCE, Thread.currentThread());
        if (enqueue(fence) < 0) {
            return; // the lane has ended, or gave up: nothing is left to wait for
        }
        for (;;) {
            int s = fence.state;
            if (s == DONE || s == ABANDONED || s == REFUSED) {
                return;
            }
            long now = System.nanoTime();
            if (now - deadlineNanos >= 0) {
                giveUpQueued(true);
                LockSupport.unpark(thread);
                return;
            }
            LockSupport.parkNanos(this, Math.min(deadlineNanos - now, TimeUnit.MILLISECONDS.toNanos(1)));
        }
    }

    private void finished(Request r) {
        pendingBytes.addAndGet(-r.bytes.length);
        pending.decrementAndGet();
    }

    private AppendResult await(Request r) {
        boolean interrupted = false;
        long queued = System.nanoTime();
        long giveUpAt = Math.max(deadlineNanos - queued, PAST_DEADLINE_WAIT_NANOS) + queued;
        try {
            for (;;) {
                int s = r.state;
                if (s == DONE || s == ABANDONED) {
                    return AppendResult.ACCEPTED;
                }
                if (s == REFUSED) {
                    return AppendResult.CLOSED;
                }
                long now = System.nanoTime();
                long since = writeSince;
                // Past the deadline, a lane that never got the sink (the writer is stuck in a
                // write) or is stuck in one of its own makes nobody wait: each caller would
                // otherwise pay its full second, one after another.
                boolean stuck = now - deadlineNanos > 0
                        && (sink == null || since != 0 && now - since > PAST_DEADLINE_WAIT_NANOS);
                if (now - giveUpAt >= 0 || stuck) {
                    // This record is given up, and with it every one queued after it and every
                    // later one: else the lane could write a later line of this thread's, a hole
                    // in its output. Taken already, it is the lane's to count written or lost.
                    giveUpQueued(true);
                    LockSupport.unpark(thread);
                    return AppendResult.ACCEPTED;
                }
                if (now - queued < SPIN_NANOS) {
                    Thread.onSpinWait();
                } else {
                    if (Thread.interrupted()) {
                        interrupted = true; // park returns at once while it is set
                    }
                    LockSupport.parkNanos(this, Math.min(giveUpAt - now, TimeUnit.MILLISECONDS.toNanos(100)));
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The framework stops the appender: records queued so far are still written, later ones are
     * refused; the lane then closes the sink and ends.
     */
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }

    /**
     * Waits for the lane to end (after {@link #close}).
     *
     * @param timeout longest wait
     * @param unit    its unit
     * @return whether it ended
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitEnd(long timeout, TimeUnit unit) throws InterruptedException {
        return ended.await(timeout, unit);
    }

    /** @return records the lane counted as lost */
    public long lost() {
        return lost;
    }

    /**
     * @return whether records were given up at the exit deadline (said once, by whoever gave up):
     *         they are counted as lost, perhaps only later, as the lane reaches them
     */
    public boolean gaveUp() {
        return gaveUp;
    }

    @Override
    public void run() {
        Sink s = null;
        try {
            s = awaitSink();
            serve(s);
        } finally {
            done = true;
            for (Request r; (r = queue.poll()) != null; ) {
                refuse(r);
            }
            s = sink;
            if (s != null) {
                try {
                    s.close();
                } catch (Throwable e) {
                    report(StatusListener.Level.WARN, "closing " + s.describe() + " failed", e);
                }
            }
            try {
                onEnd.run();
            } catch (Throwable ignored) {
                // unregistration is best effort on the way out
            }
            ended.countDown();
        }
    }

    private void refuse(Request r) {
        if (STATE.compareAndSet(r, PENDING, REFUSED)) {
            finished(r);
            LockSupport.unpark(r.caller);
        } else if (r.state == ABANDONED) {
            lost(r); // its caller was told ACCEPTED: counted, not written
            finished(r);
        } // else REFUSED by its caller, who finished it
    }

    /**
     * Waits for the writer to hand the sink over, however long that takes: the lane exists only
     * while the writer has not ended (Spool), and the sink must be closed by whoever owns it last.
     */
    private Sink awaitSink() {
        for (;;) {
            Sink s = sink;
            if (s != null) {
                return s;
            }
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    private void serve(Sink s) {
        ByteBuffer[] one = new ByteBuffer[1];
        long idleSince = 0;
        for (;;) {
            Request r = queue.poll();
            if (r == null) {
                if (closed || gaveUp) {
                    return;
                }
                long now = System.nanoTime();
                if (idleSince == 0) {
                    idleSince = now;
                }
                if (now - idleSince < SPIN_NANOS) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(100));
                }
                continue;
            }
            idleSince = 0;
            if (gaveUp) {
                // A sweep has begun: this record may lie past ones it has marked (see gaveUp).
                STATE.compareAndSet(r, PENDING, ABANDONED);
            }
            if (!STATE.compareAndSet(r, PENDING, TAKEN)) {
                if (r.state == ABANDONED) {
                    lost(r); // given up: counted, not written
                    finished(r);
                    LockSupport.unpark(r.caller);
                } // else REFUSED by its caller, who finished it
                continue;
            }
            if (r.bytes == FENCE) {
                r.state = DONE;
                finished(r);
                LockSupport.unpark(r.caller);
                continue;
            }
            writeSince = System.nanoTime() | 1; // never 0 while writing
            boolean written = renderer == null ? writeWhole(s, one, ByteBuffer.wrap(r.bytes)) : writeRendered(s, one, r.bytes);
            writeSince = 0;
            if (written) {
                counters.written(1, r.bytes.length);
            } else {
                lostOne(r.bytes.length);
            }
            r.state = DONE;
            finished(r);
            LockSupport.unpark(r.caller);
        }
    }

    /** A captured record: rendered as the writer renders it (BatchRenderer.writeRendered), then written. */
    private boolean writeRendered(Sink s, ByteBuffer[] one, byte[] bytes) {
        if (rendered == null) {
            rendered = new ByteLineBuilder(512, 1 << 20);
        }
        ByteBuffer range = ByteBuffer.wrap(bytes);
        RecordRenderer.Result result = renderResult;
        boolean whole = true;
        while (range.hasRemaining()) {
            int before = range.position();
            rendered.reset();
            result.clear();
            try {
                renderer.render(range, rendered, result);
            } catch (Throwable t) {
                report(StatusListener.Level.ERROR, "rendering a record during exit failed; it is counted as lost", t);
                return false;
            }
            whole &= result.left == 0;
            if (rendered.length() > 0 && !writeWhole(s, one, rendered.view())) {
                return false;
            }
            if (result.passThrough > 0) {
                int at = range.position();
                if (!writeWhole(s, one, range.slice(at, result.passThrough))) {
                    return false;
                }
                range.position(at + result.passThrough);
            } else if (range.position() == before) {
                break; // nothing more it can take
            }
        }
        return whole;
    }

    private boolean writeWhole(Sink s, ByteBuffer[] one, ByteBuffer b) {
        one[0] = b;
        int pauses = 0;
        try {
            while (b.hasRemaining()) {
                counters.writeCall();
                s.recordEnds(null, 0, -1, 0); // a file rolling by size places these by their line ends
                if (s.write(one, 0, 1) == 0) {
                    // A non-blocking descriptor that is full: wait for the reader, within bounds.
                    if (System.nanoTime() - deadlineNanos > PAST_DEADLINE_WAIT_NANOS) {
                        return false;
                    }
                    LockSupport.parkNanos(this, Math.min(TimeUnit.MILLISECONDS.toNanos(10), 10_000L << Math.min(pauses++, 10)));
                }
            }
            return true;
        } catch (Throwable e) {
            counters.writeError();
            if (!faultReported) {
                faultReported = true;
                report(StatusListener.Level.ERROR, "writing to " + s.describe() + " during exit failed (" + e
                        + "); records are counted as lost", e);
            }
            return false;
        } finally {
            one[0] = null;
        }
    }

    /** Counts a record given up as lost; the hook's fence is no record. */
    private void lost(Request r) {
        if (r.bytes != FENCE) {
            lostOne(r.bytes.length);
        }
    }

    private void lostOne(long bytes) {
        counters.lost(1, bytes);
        lost++; // the lane thread only
    }

    /**
     * A loss warning: to standard error as well when the framework would not show it (logback keeps
     * its status messages to itself unless configured to print them) — the lane runs only during
     * the exit, the last chance to learn that lines were lost.
     */
    private void warn(String message) {
        report(StatusListener.Level.WARN, message, null);
        try {
            if (!status.shows(StatusListener.Level.WARN)) {
                StatusListener.STDERR.status(StatusListener.Level.WARN, "spool appender '" + name + "': " + message, null);
            }
        } catch (Throwable ignored) {
            // a failing listener must not stop the caller
        }
    }

    private void report(StatusListener.Level level, String message, Throwable cause) {
        try {
            status.status(level, "spool appender '" + name + "': " + message, cause);
        } catch (Throwable ignored) {
            // a failing listener must not stop the lane
        }
    }
}
