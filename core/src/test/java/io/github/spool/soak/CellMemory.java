// SPDX-License-Identifier: Apache-2.0
package io.github.spool.soak;

import io.github.spool.ring.DirectMemory;

import javax.management.ObjectName;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The memory that holds a JVM's Spool cells, measured from outside Spool's own accounting. Cells
 * are direct buffers on JDK 17 to 23 (the "direct" buffer pool counts them) and segments of FFM
 * arenas on JDK 24 and later, which no pool counts: there Native Memory Tracking's "Other" tag
 * does (FFM allocates with {@code Unsafe.allocateMemory}, tagged {@code mtOther}), so a child
 * measured this way must run with {@link #jvmOptions()}.
 */
public final class CellMemory {
    private static final BufferPoolMXBean DIRECT = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
            .stream().filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();

    private CellMemory() {
    }

    /** @return the options a child JVM needs for {@link #bytes()} to see its cells */
    public static List<String> jvmOptions() {
        return DirectMemory.usesArenas() ? List.of("-XX:NativeMemoryTracking=summary") : List.of();
    }

    /** @return bytes of direct or native memory that can hold cells, now */
    public static long bytes() {
        return DirectMemory.usesArenas() ? nmtOtherBytes() : DIRECT.getMemoryUsed();
    }

    /** The "Other" line of {@code jcmd <pid> VM.native_memory summary}: {@code Other (reserved=34KB, ...}. */
    private static long nmtOtherBytes() {
        String text;
        try {
            text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
                    new Object[] {new String[] {"summary"}}, new String[] {String[].class.getName()});
        } catch (Exception e) {
            throw new IllegalStateException("no diagnostic command MBean", e);
        }
        for (String line : text.split("\n")) {
            int at = line.indexOf("Other (reserved=");
            if (at >= 0) {
                int from = at + "Other (reserved=".length();
                int to = line.indexOf("KB", from);
                return Long.parseLong(line.substring(from, to)) << 10;
            }
        }
        throw new IllegalStateException("Native Memory Tracking is off (run with " + jvmOptions() + "): " + text);
    }
}
