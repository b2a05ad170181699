// SPDX-License-Identifier: Apache-2.0
package io.github.spool;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Tells virtual threads (JDK 21+) from platform threads on the Java 17 baseline:
 * {@code Thread.isVirtual()} found once, through a method handle the JIT inlines (a constant
 * {@code false} on a JDK without it). Internal to Spool.
 */
public final class VirtualThreads {

    private static final MethodHandle IS_VIRTUAL = lookUp();

    private VirtualThreads() {
    }

    /** @return whether the calling thread is a virtual thread */
    public static boolean current() {
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable e) { // Thread.isVirtual() throws nothing
            throw new AssertionError(e);
        }
    }

    private static MethodHandle lookUp() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) { // JDK 17 to 20: no virtual threads
            return MethodHandles.dropArguments(MethodHandles.constant(boolean.class, false), 0, Thread.class);
        }
    }
}
