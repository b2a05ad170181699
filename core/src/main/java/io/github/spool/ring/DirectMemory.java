package io.github.spool.ring;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;

/**
 * Direct memory for cells, allocated without the JDK's slow path and freed deterministically.
 * Internal to Spool.
 *
 * <p><b>Allocation.</b> When {@code ByteBuffer.allocateDirect} finds no room under
 * {@code -XX:MaxDirectMemorySize}, the JDK's {@code java.nio.Bits.reserveMemory} runs
 * {@code System.gc()} and sleeps with back-off (up to nine doublings from 1 ms, ~0.5 s in JDK 17)
 * before it throws {@link OutOfMemoryError}. A logging call must not pay that, so
 * {@link #tryAllocate} first compares the JVM's reserved direct memory (the platform
 * {@link BufferPoolMXBean} "direct") with the limit and declines when the cell would not fit.
 * Spool's own allocators (producers growing a ring, the grower ahead of them, writers' staging
 * buffers) check and allocate one at a time, so none of them passes the check on bytes another
 * is about to take. An allocator outside Spool racing for the last bytes can still send one
 * allocation down the slow path; the ring never holds shared state (an install flag) while it
 * allocates, so only that caller, and Spool's allocators queued behind it, wait.
 *
 * <p><b>Release.</b> A direct buffer's memory otherwise returns only when a GC finds the buffer
 * unreachable — with {@code -XX:+DisableExplicitGC}, or a heap that rarely collects, a ring that
 * grows and shrinks could hold many times its cap. {@link Block#free} gives it back at once, in
 * one of two ways:
 * <ul>
 * <li>JDK 17 to 23: the buffer comes from {@code ByteBuffer.allocateDirect} and is freed by its
 * cleaner through {@code sun.misc.Unsafe#invokeCleaner} (module {@code jdk.unsupported}; the same
 * call Agrona's {@code BufferUtil.free} and Netty's {@code PlatformDependent.freeDirectBuffer}
 * make on JDK 9+).</li>
 * <li>JDK 24 and later warn on the first use of that method (JEP 498) on the application's
 * standard error, which a logging library must not cause. There each cell is a segment of its own
 * shared {@code java.lang.foreign.Arena} (final in JDK 22, JEP 454), seen through
 * {@code MemorySegment.asByteBuffer()}, and freeing closes the arena. The FFM API is reached by
 * method handles because Spool is compiled for Java 17; only allocation and freeing use them, the
 * hot path sees an ordinary direct {@link ByteBuffer} (whose bulk puts check the arena is open).
 * Such memory is native memory outside {@code -XX:MaxDirectMemorySize} and the "direct" pool:
 * the ring's own cap is its bound. A cell the ring drops without freeing (an incarnation it gave
 * up on) is closed by a {@link java.lang.ref.Cleaner} once unreachable, as the JDK frees a direct
 * buffer; a late access to a closed arena throws {@link IllegalStateException} rather than touch
 * freed memory.</li>
 * </ul>
 * Where neither is available freeing falls back to the GC. The caller must guarantee that nothing
 * touches the buffer's memory afterwards: the ring frees only cells no producer can copy into any
 * more (pooled cells are sealed, a dedicated cell's one record is fully written) and never a cell
 * it gave up on.
 */
public final class DirectMemory {

    private DirectMemory() {
    }

    /** One cell's (or one writer buffer's) memory: its buffer and what frees it. Internal to Spool. */
    public static final class Block {
        final ByteBuffer buffer;
        /** The segment's {@code Arena}, or {@code null} for an {@code allocateDirect} buffer. */
        private final Object arena;
        /** Closes {@link #arena} if the ring drops the block without freeing it. */
        private final Cleaner.Cleanable backstop;

        private Block(ByteBuffer buffer, Object arena, Cleaner.Cleanable backstop) {
            this.buffer = buffer;
            this.arena = arena;
            this.backstop = backstop;
        }

        /** @return the memory, as a direct buffer (the original, never a duplicate) */
        public ByteBuffer buffer() {
            return buffer;
        }

        /**
         * Releases the memory now, if the JDK lets us; else leaves it to the GC. The caller
         * guarantees that nothing touches the buffer (or a view of it) afterwards.
         *
         * @return whether the memory was released now
         */
        public boolean free() {
            if (arena == null) {
                return freeDirect(buffer);
            }
            if (!Ffm.close(arena)) {
                return false; // still in use after all: the backstop closes it once unreachable
            }
            backstop.clean(); // unregisters; its close finds the arena closed and does nothing
            return true;
        }
    }

    /**
     * A start-up cell: plain {@code allocateDirect}, failures thrown (a start-up error). Checked
     * and allocated in turn with Spool's other allocators when it fits; without room it still
     * tries, for the JDK's error. Freed like any other block.
     *
     * @param capacity bytes
     * @return the block
     */
    static Block allocateAtStart(int capacity) {
        if (Ffm.ARENA != null) {
            Block b = allocateNative(capacity);
            if (b != null) {
                return b;
            }
        }
        Block b = allocateUnderLimit(capacity);
        // No room: the JDK's retries and its error, for the start to report, outside the lock.
        return b != null ? b : new Block(ByteBuffer.allocateDirect(capacity), null, null);
    }

    /**
     * Checks the limit and allocates, one of Spool's allocators at a time. Unlocked, two of them (a
     * producer that outran the grower, and the grower: ManyToOneCellRing#growAhead) could both
     * pass the check for the same last bytes, and the loser slept in the JDK's retries: a DISCARD
     * call took 569 ms that way (CI, 2026-11-28, DirectMemoryCapTest). Held for one
     * allocateDirect, on the growth and start paths only; allocations outside Spool can still race
     * (class comment).
     *
     * @param capacity bytes
     * @return the block, or {@code null} when it would not fit under the limit
     * @throws OutOfMemoryError if the JDK refused anyway (heap, or an allocator outside Spool)
     */
    private static Block allocateUnderLimit(int capacity) {
        synchronized (Limit.LOCK) {
            return Limit.fits(capacity) ? new Block(ByteBuffer.allocateDirect(capacity), null, null) : null;
        }
    }

    /**
     * Allocates {@code capacity} bytes of direct memory, or returns {@code null} when the JVM's
     * direct-memory limit (or the heap, for the buffer object) has no room for it.
     *
     * @param capacity bytes
     * @return the block, or {@code null}
     */
    public static Block tryAllocate(int capacity) {
        if (Ffm.ARENA != null) {
            return allocateNative(capacity);
        }
        try {
            return allocateUnderLimit(capacity);
        } catch (OutOfMemoryError e) {
            // Direct memory or heap exhausted: the caller behaves as at its cap. The JDK got here
            // through its retries (a GC and sleeps of up to half a second, on the caller), which
            // the limit check exists to avoid: counted, for the test that holds it to that.
            JDK_REFUSALS.incrementAndGet();
            return null;
        }
    }

    /**
     * @return how many allocations the JDK refused after its own retries and sleeps, rather than
     *         the limit check before them (tests: a producer at the cap must never sleep there)
     */
    public static long jdkRefusals() {
        return JDK_REFUSALS.get();
    }

    /** A segment of a fresh shared arena, or {@code null} if native memory (or heap) ran out. */
    private static Block allocateNative(int capacity) {
        // A StackOverflowError is not "no memory": it propagates, for the caller's handler to give
        // back its reservation. Answered with null, it made a producer deep in its stack retry
        // the same allocation for good — every retry overflowed again in the method-handle
        // chain below, and a BLOCK producer spun forever beside an almost empty ring
        // (GrowthFailureTest on JDK 25; allocateDirect, used up to JDK 23, never caught it).
        Object arena;
        try {
            arena = Ffm.newArena();
        } catch (StackOverflowError e) {
            throw e;
        } catch (Throwable t) {
            return null;
        }
        try {
            ByteBuffer buffer = Ffm.allocate(arena, capacity);
            // The action holds the arena, never the buffer, so the buffer can become unreachable.
            return new Block(buffer, arena, Ffm.BACKSTOP.register(buffer, new CloseArena(arena)));
        } catch (Throwable t) {
            Ffm.close(arena); // frees whatever was allocated; a no-op when nothing was
            if (t instanceof StackOverflowError) {
                throw (StackOverflowError) t;
            }
            return null;
        }
    }

    private static boolean freeDirect(ByteBuffer buffer) {
        MethodHandle cleaner = Unsafe.INVOKE_CLEANER;
        if (cleaner == null) {
            return false;
        }
        try {
            cleaner.invokeExact(buffer);
            return true;
        } catch (Throwable t) {
            return false; // not ours to free after all: the GC will
        }
    }

    /**
     * Whether {@code bytes} more of cell memory fit under the JVM's direct-memory limit now: a
     * start-up's check, so that it starts smaller rather than fail (or sleep in the JDK's slow
     * path) half-way through its ring. Always {@code true} where cells are FFM segments, which
     * the limit does not bound.
     *
     * @param bytes cell bytes to allocate
     * @return whether they fit, as far as the JVM tells
     */
    public static boolean fits(long bytes) {
        return Ffm.ARENA != null || Limit.fits(bytes);
    }

    /** @return whether {@link Block#free} releases memory at once on this JVM */
    public static boolean freesExplicitly() {
        return Ffm.ARENA != null || Unsafe.INVOKE_CLEANER != null;
    }

    private static final java.util.concurrent.atomic.AtomicLong JDK_REFUSALS = new java.util.concurrent.atomic.AtomicLong();

    /** @return whether cells are FFM segments (native memory outside the "direct" pool) */
    public static boolean usesArenas() {
        return Ffm.ARENA != null;
    }

    /** The backstop's action: a class of its own so that it cannot capture the buffer. */
    private static final class CloseArena implements Runnable {
        private final Object arena;

        CloseArena(Object arena) {
            this.arena = arena;
        }

        @Override
        public void run() {
            Ffm.close(arena);
        }
    }

    /** Looked up on first use only: the lookup touches JMX and reflection. */
    private static final class Limit {
        /** Makes {@link #fits} and the allocation after it one step among Spool's allocators. */
        static final Object LOCK = new Object();
        private static final BufferPoolMXBean DIRECT = directPool();
        private static final long MAX = maxDirectMemory();

        static boolean fits(long capacity) {
            if (DIRECT == null || MAX <= 0) {
                return true; // unknown: let allocateDirect decide
            }
            return DIRECT.getMemoryUsed() + capacity <= MAX;
        }

        private static BufferPoolMXBean directPool() {
            try {
                for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
                    if ("direct".equals(b.getName())) {
                        return b;
                    }
                }
            } catch (Throwable t) {
                // no management: fall through
            }
            return null;
        }

        /**
         * {@code -XX:MaxDirectMemorySize}, or the JDK's default when it is 0 (unset): the maximum
         * heap, as {@code jdk.internal.misc.VM.saveProperties} computes it in JDK 17 and 25.
         */
        private static long maxDirectMemory() {
            try {
                Class<?> type = Class.forName("com.sun.management.HotSpotDiagnosticMXBean");
                Object bean = ManagementFactory.getPlatformMXBean(type.asSubclass(java.lang.management.PlatformManagedObject.class));
                Object option = type.getMethod("getVMOption", String.class).invoke(bean, "MaxDirectMemorySize");
                String value = (String) option.getClass().getMethod("getValue").invoke(option);
                long v = Long.parseLong(value);
                return v > 0 ? v : Runtime.getRuntime().maxMemory();
            } catch (Throwable t) {
                return -1;
            }
        }
    }

    /** {@code sun.misc.Unsafe#invokeCleaner}, looked up on JDK 17 to 23 only. */
    private static final class Unsafe {
        static final MethodHandle INVOKE_CLEANER = Ffm.ARENA != null ? null : lookup();

        private static MethodHandle lookup() {
            if (Runtime.version().feature() >= 24) {
                return null; // warns on first use (JEP 498); see the class documentation
            }
            try {
                Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
                Field f = unsafeClass.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                Object unsafe = f.get(null);
                MethodHandle h = MethodHandles.lookup()
                        .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                        .bindTo(unsafe);
                // Probe once on a buffer of our own, so a JDK that refuses fails here, not later;
                // but only with room for it. This runs at the first free, which may come with
                // direct memory full: the probe then slept in the JDK's retries, failed, and left
                // every free of the JVM's life to the GC (seen: 1,024 cells freed, none returned).
                // Without a probe, a refusing JDK is met at each free (freeDirect: left to the GC).
                if (Limit.fits(1)) {
                    ByteBuffer probe;
                    try {
                        probe = ByteBuffer.allocateDirect(1);
                    } catch (OutOfMemoryError e) {
                        return h; // another allocator took the room first: unprobed, as above
                    }
                    h.invokeExact(probe);
                }
                return h;
            } catch (Throwable t) {
                return null;
            }
        }
    }

    /**
     * The FFM calls, on JDK 24 and later only (where {@link Unsafe} is off). Method handles typed
     * with {@code Object} for the FFM types, since Spool compiles against Java 17.
     */
    private static final class Ffm {
        /** {@code Arena.ofShared()}: {@code ()Object}, or {@code null} when FFM is not used. */
        static final MethodHandle ARENA;
        /** {@code arena.allocate(bytes, alignment).asByteBuffer()}: {@code (Object,long,long)ByteBuffer}. */
        static final MethodHandle ALLOCATE;
        /** {@code arena.close()}: {@code (Object)void}. */
        static final MethodHandle CLOSE;
        /**
         * Closes the arenas of blocks dropped without {@link Block#free}. One daemon thread per
         * loaded copy of this class, with the system class loader as context (SpoolThreads); it
         * ends once the class's loader is collected and no block is pending, as any
         * {@link Cleaner}'s does.
         */
        static final Cleaner BACKSTOP;

        static {
            MethodHandle arena = null;
            MethodHandle allocate = null;
            MethodHandle close = null;
            Cleaner backstop = null;
            if (Runtime.version().feature() >= 24 && !Boolean.getBoolean("spool.noArenas")) {
                try {
                    MethodHandles.Lookup l = MethodHandles.publicLookup();
                    Class<?> arenaType = Class.forName("java.lang.foreign.Arena");
                    Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
                    MethodHandle ofShared = l.findStatic(arenaType, "ofShared", MethodType.methodType(arenaType));
                    MethodHandle alloc = l.findVirtual(arenaType, "allocate",
                            MethodType.methodType(segmentType, long.class, long.class));
                    MethodHandle asByteBuffer = l.findVirtual(segmentType, "asByteBuffer",
                            MethodType.methodType(ByteBuffer.class));
                    MethodHandle closeArena = l.findVirtual(arenaType, "close", MethodType.methodType(void.class));
                    arena = ofShared.asType(MethodType.methodType(Object.class));
                    allocate = MethodHandles.filterReturnValue(alloc, asByteBuffer)
                            .asType(MethodType.methodType(ByteBuffer.class, Object.class, long.class, long.class));
                    close = closeArena.asType(MethodType.methodType(void.class, Object.class));
                    backstop = Cleaner.create(r -> io.github.spool.SpoolThreads.newThread(r, "spool-arena-cleaner", true));
                    // Probe once, so a JDK that refuses fails here, not on a logging call.
                    Object probe = (Object) arena.invokeExact();
                    ByteBuffer b = (ByteBuffer) allocate.invokeExact(probe, 64L, 8L);
                    b.put(0, (byte) 1);
                    close.invokeExact(probe);
                } catch (Throwable t) {
                    arena = null;
                }
            }
            ARENA = arena;
            ALLOCATE = allocate;
            CLOSE = close;
            BACKSTOP = backstop;
        }

        static Object newArena() throws Throwable {
            return (Object) ARENA.invokeExact();
        }

        /** Cells hold whole records at any offset: 8-byte alignment is plenty (malloc's own). */
        static ByteBuffer allocate(Object arena, int capacity) throws Throwable {
            return (ByteBuffer) ALLOCATE.invokeExact(arena, (long) capacity, 8L);
        }

        /** @return whether the arena is closed now (false: in use, or already closed) */
        static boolean close(Object arena) {
            try {
                CLOSE.invokeExact(arena);
                return true;
            } catch (Throwable t) {
                return false;
            }
        }
    }
}
