// SPDX-License-Identifier: Apache-2.0
package io.github.spool.dropin;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The child side of {@link FollowContract}: a JVM whose {@code System.out} was replaced before the
 * logging framework started, as Surefire's forked booter and IDE runners do. The replacement
 * writes to fd 1 too, but marks every line it carries with {@link #MARK}, so the parent can tell
 * lines that went through it from lines written to fd 1 directly. Test support.
 */
public final class FollowChild {

    /** Put before each line that went through the replacement. */
    public static final String MARK = "via-replacement: ";
    /** Lines the child logs. */
    public static final int LINES = 2_000;

    private FollowChild() {
    }

    /** Replaces {@code System.out}; call first in {@code main}, before the framework starts. */
    public static void replaceStdout() {
        System.setOut(new MarkingStream(new FileOutputStream(FileDescriptor.out)));
    }

    /**
     * Logs {@link #LINES} lines {@code follow-line <i>}, then stops the framework.
     *
     * @param log  logs one message at INFO
     * @param stop stops the framework (drains)
     */
    public static void run(Consumer<String> log, Runnable stop) {
        for (int i = 0; i < LINES; i++) {
            log.accept("follow-line " + i);
        }
        stop.run();
        System.out.flush();
    }

    /** A {@code PrintStream} subclass, like every capture a test framework installs. */
    private static final class MarkingStream extends PrintStream {
        MarkingStream(OutputStream fd) {
            super(new Marker(fd), true, StandardCharsets.UTF_8);
        }
    }

    /** Inserts {@link #MARK} at the start of every line; one write to fd 1 per call. */
    private static final class Marker extends OutputStream {
        private static final byte[] MARK_BYTES = MARK.getBytes(StandardCharsets.UTF_8);
        private final OutputStream fd;
        private boolean lineStart = true;

        Marker(OutputStream fd) {
            this.fd = fd;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            java.io.ByteArrayOutputStream marked = new java.io.ByteArrayOutputStream(len + 64);
            for (int i = off; i < off + len; i++) {
                if (lineStart) {
                    marked.write(MARK_BYTES);
                }
                marked.write(b[i]);
                lineStart = b[i] == '\n';
            }
            fd.write(marked.toByteArray());
        }
    }
}
