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
    /** The lines of the {@code bridged} run: {@code bridge-line <i>}. */
    public static final String BRIDGED = "bridge-line ";
    /** Lines of the {@code bridged} run: three, then one more once they are written. */
    public static final int BRIDGED_LINES = 4;

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

    /**
     * The {@code bridged} run: replaces {@code System.out} by a stream that writes each line it
     * gets to fd 1 (marked) and logs it again, as a {@code System.out}-to-logging bridge does; logs
     * three lines, waits until the appender {@code out} has written them, logs a fourth and waits
     * for it too (bounded), then stops the framework.
     *
     * @param log  logs one message at INFO
     * @param stop stops the framework (drains)
     * @throws Exception if the appender's MBean cannot be read
     */
    public static void runBridged(Consumer<String> log, Runnable stop) throws Exception {
        System.setOut(new PrintStream(new Bridge(new FileOutputStream(FileDescriptor.out), log), true, StandardCharsets.UTF_8));
        for (int i = 0; i < BRIDGED_LINES - 1; i++) {
            log.accept(BRIDGED + i);
        }
        awaitWritten(BRIDGED_LINES - 1);
        log.accept(BRIDGED + (BRIDGED_LINES - 1));
        awaitWritten(BRIDGED_LINES);
        stop.run();
    }

    private static void awaitWritten(long lines) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        while (io.github.spool.soak.FaultProbe.get("EventsWritten") < lines && System.nanoTime() < deadline) {
            Thread.yield(); // polling a counter the writer advances; no event to wait on
        }
    }

    /** Writes each whole line to fd 1 with {@link #MARK}, then logs it. */
    private static final class Bridge extends OutputStream {
        private final OutputStream fd;
        private final Consumer<String> log;
        private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

        Bridge(OutputStream fd, Consumer<String> log) {
            this.fd = fd;
            this.log = log;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            for (int i = off; i < off + len; i++) {
                if (b[i] != '\n') {
                    line.write(b[i]);
                    continue;
                }
                String text = line.toString(StandardCharsets.UTF_8);
                line.reset();
                fd.write((MARK + text + "\n").getBytes(StandardCharsets.UTF_8));
                log.accept(text);
            }
        }
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
