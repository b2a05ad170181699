// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;

/**
 * Tells whether {@code System.out}/{@code System.err} are still the streams the JVM made at
 * start-up, so that an appender writing fd 1/fd 2 directly can say once that a replacement (a test
 * framework's capture, an IDE runner) will not see its lines. Internal to Spool.
 *
 * <p>The JDK's own stream is a plain {@code PrintStream} over a {@code BufferedOutputStream} over a
 * {@code FileOutputStream} on {@link FileDescriptor#out} ({@code System.newPrintStream} in JDK 17
 * to 25). Replacements are nearly always subclasses of {@code PrintStream} (Surefire's {@code
 * ForwardingPrintStream}, Spring Boot's {@code PrintStreamCapture}, Gradle's {@code
 * LinePerThreadBufferingOutputStream}), which the class alone reveals. A plain {@code PrintStream}
 * around some other stream can only be told apart by looking inside it, which needs {@code
 * --add-opens java.base/java.io=ALL-UNNAMED}; without that it counts as the original, so the check
 * never claims a replacement that is not there.
 */
public final class StandardStreams {

    private static final Field FILTER_OUT = filterOut();

    private StandardStreams() {
    }

    /**
     * @param stream the stream to check, e.g. {@code System.out}
     * @param fd     {@link FileDescriptor#out} or {@link FileDescriptor#err}
     * @return {@code false} if {@code stream} is certainly not the JVM's original stream on {@code fd}
     */
    public static boolean isOriginal(PrintStream stream, FileDescriptor fd) {
        if (stream == null || stream.getClass() != PrintStream.class) {
            return false;
        }
        if (FILTER_OUT == null) {
            return true;
        }
        try {
            OutputStream inner = (OutputStream) FILTER_OUT.get(stream);
            if (inner != null && inner.getClass() == BufferedOutputStream.class) {
                inner = (OutputStream) FILTER_OUT.get(inner);
            }
            return inner instanceof FileOutputStream && ((FileOutputStream) inner).getFD() == fd;
        } catch (IllegalAccessException | IOException | RuntimeException e) {
            return true;
        }
    }

    private static Field filterOut() {
        try {
            Field f = FilterOutputStream.class.getDeclaredField("out");
            f.setAccessible(true); // succeeds only where java.base opens java.io to us
            return f;
        } catch (NoSuchFieldException | RuntimeException e) {
            return null;
        }
    }
}
