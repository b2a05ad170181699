package io.github.spool.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

abstract class WakeSignalPad {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class WakeSignalField extends WakeSignalPad {
    /** 1 while the consumer is (about to be) parked without a timeout; producers read it per record. */
    volatile int sleeping;
}

/**
 * The writer's sleep flag. Producers read it after every commit and pay a syscall only when it
 * is set, i.e. only to wake a writer that is parked indefinitely; a writer that naps with a
 * timeout or is busy costs them one load of a cache line that rarely changes (padded on both
 * sides so the flag never shares a line with the ring's {@code current}). Internal to Spool.
 *
 * <p>No lost wake-up (Dekker): the writer does a volatile store {@code sleeping = 1}, then volatile
 * loads of the ring's progress fields, then parks. A producer does a volatile RMW (its commit, or
 * the seal publication) and then a volatile load of {@code sleeping}. Volatile accesses are totally
 * ordered, so either the writer's loads see the producer's store (it does not park) or the
 * producer's load sees 1 (it unparks the writer).
 */
public final class WakeSignal extends WakeSignalField {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;

    private static final VarHandle SLEEPING;

    static {
        try {
            SLEEPING = MethodHandles.lookup().findVarHandle(WakeSignalField.class, "sleeping", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile Thread consumer;

    /**
     * Registers the thread that sleeps on this signal.
     *
     * @param thread the consumer
     */
    public void consumer(Thread thread) {
        this.consumer = thread;
    }

    /** @return the registered consumer thread, or {@code null} before it runs */
    public Thread consumerThread() {
        return consumer;
    }

    /** Producer side: wake the consumer if, and only if, it is parked indefinitely. */
    void signal() {
        // Volatile load: must not be reordered before the caller's preceding volatile RMW.
        if ((int) SLEEPING.getVolatile(this) != 0) {
            wake();
        }
    }

    private void wake() {
        if (SLEEPING.compareAndSet(this, 1, 0)) {
            Thread t = consumer;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** Wakes the consumer whether it sleeps or naps (used by stop; costs a syscall). */
    public void wakeNow() {
        SLEEPING.setVolatile(this, 0);
        Thread t = consumer;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Consumer side: announce the intent to sleep (volatile store, the first half of Dekker). */
    public void svSleeping() {
        SLEEPING.setVolatile(this, 1);
    }

    /** Consumer side: cancel the intent, or acknowledge a wake-up. */
    public void clearSleeping() {
        SLEEPING.setVolatile(this, 0);
    }

    /** @return whether the consumer still counts as sleeping (no producer has woken it) */
    public boolean isSleeping() {
        return (int) SLEEPING.getVolatile(this) != 0;
    }
}
