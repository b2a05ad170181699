package io.github.spool.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

// Padding through a class chain (JCTools' SpscArrayQueue habit): the JVM lays out superclass
// fields first, so the two hot counters sit between 64+ bytes of padding on each side and never
// share a cache line with another cell's counters or with this cell's colder fields.

abstract class CellPadHead {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class CellHotFields extends CellPadHead {
    /**
     * Incarnation number (high 20 bits) and bytes claimed in it (low 44), successful and failed
     * claims alike. Producers: gaa. The incarnation travels with every claim, so a producer whose
     * view of {@code current} is stale knows which incarnation its claim landed in.
     */
    volatile long claimed;
    /**
     * Committed bytes (bits 24..62) and committed records (low 24); bit 63 is {@link Cell#DEAD}.
     * Producers: gaa.
     */
    volatile long committed;
}

abstract class CellPadMid extends CellHotFields {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}

abstract class CellColdFields extends CellPadMid {
    /**
     * Incarnation (high 20 bits) and the start of its crossing claim (low 44; all ones until the
     * crosser publishes it). Tagged so that a stale crosser from an older incarnation cannot
     * publish into a newer one: publication is a CAS from "this incarnation, unset".
     */
    volatile long seal;
    /**
     * The install flag, with its holder: {@code null} while this cell is current and nobody
     * installs its successor; else the thread installing it, or a sentinel ({@link Cell#SHUT}
     * while the cell is not current, {@link Cell#CLOSER} once sealed for close). The holder is
     * named so that an exception handler on the way out — which may call no method — can tell
     * with one load whether the flag is still its own to release, whether or not the CAS that took
     * it completed inside a call that then threw.
     */
    volatile Object installer;
    /** Successor in write order; set once per incarnation by the installer. */
    volatile Cell next;
    /**
     * Bytes of claims whose copy failed ({@link Cell#recordHole}); the writer counts them with the
     * committed bytes when it checks that every claim is complete. Written inside the cell's
     * monitor, read with a volatile load.
     */
    volatile long abortedBytes;
}

abstract class CellPadTail extends CellColdFields {
    byte p200, p201, p202, p203, p204, p205, p206, p207, p208, p209, p210, p211, p212, p213, p214, p215;
    byte p216, p217, p218, p219, p220, p221, p222, p223, p224, p225, p226, p227, p228, p229, p230, p231;
    byte p232, p233, p234, p235, p236, p237, p238, p239, p240, p241, p242, p243, p244, p245, p246, p247;
    byte p248, p249, p250, p251, p252, p253, p254, p255, p256, p257, p258, p259, p260, p261, p262, p263;
}

/**
 * One cell of the ring: a direct buffer of whole records plus the counters of the claim/commit
 * protocol described in {@link io.github.spool.ring}. Internal to Spool.
 */
public final class Cell extends CellPadTail {

    static final int BYTES_BITS = 44;
    static final long BYTES_MASK = (1L << BYTES_BITS) - 1;
    static final long GEN_MASK = (1L << (64 - BYTES_BITS)) - 1;
    /** The seal word's limit when no crosser has published yet. */
    static final long UNSEALED = BYTES_MASK;

    /** Committed records live in the low bits of {@code committed}, bytes above them. */
    static final int RECORD_BITS = 24;
    static final long RECORD_MASK = (1L << RECORD_BITS) - 1;
    /**
     * Set in {@code committed} by whoever gives up the cell's unwritten records (the writer when a
     * claim stays uncommitted past its bound or at its stop deadline, an installer that lost its
     * link): the setter counts every record committed before it as lost, and every later commit
     * sees the bit in the value its get-and-add returns and counts its own record. So each
     * committed record is counted exactly once — written, lost by the setter, or lost by itself.
     * Bytes never reach bit 63 (a cell is below 2^31 bytes), so the bit never carries.
     */
    static final long DEAD = Long.MIN_VALUE;

    private static final VarHandle CLAIMED;
    private static final VarHandle COMMITTED;
    /** Package-private for the ring's crosser, which must not call a method to seal (see attempt). */
    static final VarHandle SEAL;
    /** Package-private for the ring's crosser, which takes the flag without a call (see append0). */
    static final VarHandle INSTALLER;
    /** The install flag of a cell that is not current (pooled, linked past, or new). */
    static final Object SHUT = new Object();
    /** The install flag of the cell the writer sealed for close: held for good. */
    static final Object CLOSER = new Object();
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CLAIMED = l.findVarHandle(CellHotFields.class, "claimed", long.class);
            COMMITTED = l.findVarHandle(CellHotFields.class, "committed", long.class);
            SEAL = l.findVarHandle(CellColdFields.class, "seal", long.class);
            INSTALLER = l.findVarHandle(CellColdFields.class, "installer", Object.class);
            NEXT = l.findVarHandle(CellColdFields.class, "next", Cell.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Record bytes; producers write with absolute puts, the writer reads through {@link #view}. */
    final ByteBuffer buffer;
    /** What {@link #buffer} lives in, and frees it (DirectMemory). */
    final DirectMemory.Block memory;
    final int capacity;
    /** An oversized cell made for one record; dropped, not pooled, once written. */
    final boolean dedicated;
    /** Writer-owned duplicate whose position/limit the writer sets per write (no allocation). */
    final ByteBuffer view;
    /** Set by the writer once it has given this incarnation up (DEAD): never pooled or freed again. */
    boolean abandoned;
    /**
     * The bytes this cell counts against the cap: the grower's reservation, the cell's from its
     * construction. Taken out of the books exactly once, under the ring's books monitor, by
     * whoever releases the cell, so that a release repeated by a failure handler counts once.
     */
    final Reservation reservation;
    /** Next in the ring's list of cells left behind by failed producers (under the books monitor). */
    Cell nextOrphan;

    /**
     * Claims whose copy failed, each {@code start << 32 | len}, guarded by this cell's monitor
     * (see recordHole); the handler doubles the array when it is full.
     */
    long[] holes = new long[4];
    int holeCount;

    // Writer-private progress through the current incarnation; touched only by the consumer.
    /** A dedicated cell whose bytes are written no longer counts against the cap. */
    boolean unaccounted;
    int writerGen;
    long flushedBytes;
    long flushedRecords;
    /** Bytes of holes (failed copies) below {@code flushedBytes}: skipped, not written. */
    long flushedHoleBytes;

    Cell(DirectMemory.Block memory, boolean dedicated, Reservation reservation) {
        this.memory = memory;
        this.reservation = reservation;
        ByteBuffer buffer = memory.buffer;
        this.buffer = buffer;
        int capacity = buffer.capacity();
        this.capacity = capacity;
        this.dedicated = dedicated;
        this.view = buffer.duplicate();
        this.seal = UNSEALED;
        this.installer = SHUT; // closed until published as current (package documentation)
    }

    static int gen(long word) {
        return (int) ((word >>> BYTES_BITS) & GEN_MASK);
    }

    static long bytes(long word) {
        return word & BYTES_MASK;
    }

    static long committedBytes(long committedWord) {
        return (committedWord & ~DEAD) >>> RECORD_BITS;
    }

    static long committedRecords(long committedWord) {
        return committedWord & RECORD_MASK;
    }

    /** @return the capacity of this cell in bytes */
    public int capacity() {
        return capacity;
    }

    // ---- producer side ----

    /**
     * Claims {@code len} bytes; returns the claim word before the add (incarnation and start).
     * Volatile get-and-add: atomicity is what matters; its acquire half also pairs with the
     * installer's re-opening CAS, so a claim that lands in a fresh incarnation sees that
     * incarnation's reset {@code committed} and {@code seal}.
     */
    long gaaClaim(long len) {
        return (long) CLAIMED.getAndAdd(this, len);
    }

    /**
     * Publishes one record of {@code len} bytes and returns the word before the add: negative
     * ({@link #DEAD} set) when the cell was given up before this commit, so the caller counts its
     * record as lost. Volatile get-and-add: the release half makes the copied bytes visible to the
     * writer's acquire load of {@code committed}; the full fence orders it before the producer's
     * volatile load of the writer's sleep flag (Dekker, no lost wake-up).
     */
    long gaaCommit(int len) {
        return (long) COMMITTED.getAndAdd(this, ((long) len << RECORD_BITS) | 1L);
    }

    /**
     * Gives up this incarnation: sets {@link #DEAD} unless already set and returns the committed
     * word it replaced, or {@code -1} if someone else set it first. A CAS loop (not a get-and-add)
     * so exactly one caller sees the pre-DEAD word and counts from it; volatile, so it is totally
     * ordered with every commit (each commit either precedes it and is counted here, or follows
     * it and sees the bit).
     */
    long casDead() {
        for (;;) {
            long w = (long) COMMITTED.getVolatile(this);
            if (w < 0) {
                return -1;
            }
            if (COMMITTED.compareAndSet(this, w, w | DEAD)) {
                return w;
            }
        }
    }

    /**
     * The crosser of incarnation {@code gen} publishes where it ends. A CAS from "gen, unset", so
     * a crosser delayed past a recycle fails harmlessly; volatile, because the crosser then reads
     * the writer's sleep flag (Dekker).
     */
    boolean casSeal(int gen, long limit) {
        long unset = ((long) gen << BYTES_BITS) | UNSEALED;
        return SEAL.compareAndSet(this, unset, ((long) gen << BYTES_BITS) | limit);
    }

    /** Takes the install flag for {@code holder} if it is open (volatile CAS: see the package documentation). */
    boolean casInstaller(Object holder) {
        return INSTALLER.compareAndSet(this, (Object) null, holder);
    }

    /** Release store: opens this cell to installers once it has been published as current. */
    void srInstallerOpen() {
        INSTALLER.setRelease(this, (Object) null);
    }

    /**
     * Links the successor unless one is linked already (the writer links one itself when an
     * installer holding the flag stays silent past the bound: see {@code ManyToOneCellRing}). A
     * CAS, so at most one successor per incarnation; volatile, because the writer's last check
     * before sleeping reads it with a volatile load, and the installer's later commit and
     * sleep-flag read follow it.
     */
    boolean casNext(Cell successor) {
        return NEXT.compareAndSet(this, (Cell) null, successor);
    }

    /** Volatile load of the install flag's holder: the writer's stall check. */
    Object lvInstaller() {
        return INSTALLER.getVolatile(this);
    }

    /**
     * Starts a new incarnation holding one pre-claimed record of {@code len} bytes at offset 0, and
     * returns its number. Only the installer calls this, while the cell is not reachable through
     * {@code current} and its install flag is still taken. Order matters (package documentation):
     * seal, committed and link are reset first; the CAS on {@code claimed} that re-opens the cell
     * comes last, so any claim that lands after it synchronises with it and sees the resets.
     */
    int reincarnate(int len) {
        // Volatile field accesses where the protocol needs release stores: stronger, and plain
        // bytecodes for the interpreter, which runs this once-per-cell method for the first
        // minutes of a JVM (CellInstaller.appendSlow) and pays microseconds per VarHandle call.
        long c = claimed;
        int gen = (int) ((gen(c) + 1) & GEN_MASK);
        seal = ((long) gen << BYTES_BITS) | UNSEALED;
        committed = 0L;
        // The last incarnation is complete: nobody can record a hole in it any more. Its holes are
        // forgotten before the claim word re-opens (the CAS below publishes these stores).
        holeCount = 0;
        abortedBytes = 0;
        next = null;
        long fresh = ((long) gen << BYTES_BITS) | len;
        while (!CLAIMED.compareAndSet(this, c, fresh)) {
            // Stale producers may still add failed claims to the dead incarnation: retry over them.
            c = (long) CLAIMED.getVolatile(this);
        }
        return gen;
    }

    /*
     * recordHole — written out inline by the ring at each place a copy can fail, because it must
     * not call a method: a StackOverflowError is thrown on method entry, and the handler runs
     * about as deep as the copy that just overflowed. Field and array stores and a monitor are
     * bytecodes, not calls:
     *
     *     synchronized (cell) {
     *         int n = cell.holeCount;
     *         long[] h = cell.holes;
     *         if (n == h.length) { grow h by hand (newarray and a loop: no System.arraycopy) }
     *         h[n] = start << 32 | len; holeCount = n + 1; abortedBytes += len;
     *     }
     *
     * If even that fails (an OutOfMemoryError while growing), the claim stays open and the
     * writer's stall recovery gives the cell up.
     *
     * The volatile store of abortedBytes happens after the producer's claim, so the writer — which
     * reads committed and abortedBytes before claimed — can only count it with a claim it also
     * counts (the package documentation's argument, with aborted bytes beside committed ones).
     */

    // ---- writer side ----

    /** Acquire load: pairs with the commits' release, so every byte counted is readable. */
    long laCommitted() {
        return (long) COMMITTED.getAcquire(this);
    }

    long laClaimed() {
        return (long) CLAIMED.getAcquire(this);
    }

    /** @return the seal limit of incarnation {@code gen}, or {@code -1} if not yet published */
    long laSealLimit(int gen) {
        long s = (long) SEAL.getAcquire(this);
        return gen(s) == gen && bytes(s) != UNSEALED ? bytes(s) : -1;
    }

    Cell laNext() {
        return (Cell) NEXT.getAcquire(this);
    }

    /** Volatile loads for the writer's last check before it sleeps (Dekker with producers). */
    long lvCommitted() {
        return (long) COMMITTED.getVolatile(this);
    }

    long lvClaimed() {
        return (long) CLAIMED.getVolatile(this);
    }

    long lvSealLimit(int gen) {
        long s = (long) SEAL.getVolatile(this);
        return gen(s) == gen && bytes(s) != UNSEALED ? bytes(s) : -1;
    }

    Cell lvNext() {
        return (Cell) NEXT.getVolatile(this);
    }
}
