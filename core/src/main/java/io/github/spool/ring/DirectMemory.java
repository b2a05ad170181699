package io.github.spool.ring;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
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
 * Another allocator racing for the last bytes can still send one allocation down the slow path;
 * the ring never holds shared state (an install flag) while it allocates, so only that caller
 * waits.
 *
 * <p><b>Release.</b> A direct buffer's memory otherwise returns only when a GC finds the buffer
 * unreachable — with {@code -XX:+DisableExplicitGC}, or a heap that rarely collects, a ring that
 * grows and shrinks could hold many times its cap. {@link #free} runs the buffer's cleaner at once
 * through {@code sun.misc.Unsafe#invokeCleaner} (module {@code jdk.unsupported}, which opens
 * {@code sun.misc}; the same call Agrona's {@code BufferUtil.free} and Netty's
 * {@code PlatformDependent.freeDirectBuffer} make on JDK 9+). Where it is unavailable — and on
 * JDK 24 and later, which warn on its first use (JEP 498) — freeing falls back to the GC. The caller must guarantee that nothing touches the buffer's memory
 * afterwards: the ring frees only cells no producer can copy into any more (pooled cells are
 * sealed, a dedicated cell's one record is fully written) and never a cell it gave up on.
 */
public final class DirectMemory {

    private DirectMemory() {
    }

    /**
     * Allocates {@code capacity} bytes of direct memory, or returns {@code null} when the JVM's
     * direct-memory limit (or the heap, for the buffer object) has no room for it.
     *
     * @param capacity bytes
     * @return the buffer, or {@code null}
     */
    static ByteBuffer tryAllocate(int capacity) {
        if (!Limit.fits(capacity)) {
            return null;
        }
        try {
            return ByteBuffer.allocateDirect(capacity);
        } catch (OutOfMemoryError e) {
            return null; // direct memory or heap exhausted: the caller behaves as at its cap
        }
    }

    /**
     * Releases a direct buffer's memory now, if the JDK lets us; else leaves it to the GC.
     *
     * @param buffer a direct buffer created by {@link ByteBuffer#allocateDirect} (not a slice or
     *               duplicate), whose memory nobody will touch again
     * @return whether the memory was released now
     */
    static boolean free(ByteBuffer buffer) {
        MethodHandle cleaner = Cleaner.INVOKE_CLEANER;
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

    /** @return whether {@link #free} releases memory at once on this JVM */
    public static boolean freesExplicitly() {
        return Cleaner.INVOKE_CLEANER != null;
    }

    /** Looked up on first use only: the lookup touches JMX and reflection. */
    private static final class Limit {
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

    private static final class Cleaner {
        static final MethodHandle INVOKE_CLEANER = lookup();

        private static MethodHandle lookup() {
            if (Runtime.version().feature() >= 24) {
                // JDK 24 warns on the first call of a sun.misc.Unsafe memory-access method,
                // invokeCleaner included (JEP 498), on the application's standard error: a
                // logging library must not print that. Freed cells go back with the GC there
                // (docs/reliability.md says what that leaves open).
                return null;
            }
            try {
                Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
                Field f = unsafeClass.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                Object unsafe = f.get(null);
                MethodHandle h = MethodHandles.lookup()
                        .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                        .bindTo(unsafe);
                // Probe once on a buffer of our own, so a JDK that refuses fails here, not later.
                h.invokeExact(ByteBuffer.allocateDirect(1));
                return h;
            } catch (Throwable t) {
                return null;
            }
        }
    }
}
