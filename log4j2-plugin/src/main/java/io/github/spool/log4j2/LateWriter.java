package io.github.spool.log4j2;

import io.github.spool.Spool;
import io.github.spool.SpoolConfig;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.status.StatusLogger;

/**
 * Writes records synchronously after core closed the appender's {@link Spool} while log4j2 still
 * uses the appender. Internal API.
 *
 * <p>Why: at JVM exit core's shutdown hook stops every open Spool, and log4j2's own shutdown hook
 * runs concurrently (JVM hooks are unordered). With async loggers log4j2's hook is still draining
 * the Disruptor into the appender when core's hook has closed the ring, so the tail would be
 * refused ({@code AppendResult.CLOSED}) and lost. Instead, the first late record waits for core's
 * drain to finish ({@link Spool#stop} is idempotent and waits for the same drain), so every earlier
 * record is out and order is kept, then late records are written directly to the same target, one
 * {@code write} per record under a lock. Only used during that shutdown race; never on the normal
 * path.
 */
final class LateWriter {

    private static final Logger LOGGER = StatusLogger.getLogger();

    private final Spool spool;
    private final SpoolConfig config;
    /**
     * A stream, not a {@code FileChannel}: late writes run on the caller's thread, and an
     * interrupted caller must not close fd 1 or fd 2 for the process (an interruptible channel
     * would; {@code FileOutputStream} writes are not interruptible).
     */
    private OutputStream channel;
    private boolean failed;

    LateWriter(Spool spool, SpoolConfig config) {
        this.spool = spool;
        this.config = config;
    }

    /**
     * Writes one record once core's drain is complete (or once its writer has failed: core then
     * refuses records too, and writing them here is better than dropping them).
     *
     * @param bytes  the record
     * @param offset first byte
     * @param length byte count
     */
    synchronized void write(byte[] bytes, int offset, int length) {
        if (failed) {
            return;
        }
        try {
            if (channel == null) {
                spool.stop(Spool.DEFAULT_STOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
                channel = open();
                LOGGER.debug("Spool appender '{}': ring closed by the JVM shutdown hook while log4j2 is still "
                        + "appending; writing the remaining events directly", config.name());
            }
            channel.write(bytes, offset, length);
        } catch (IOException | RuntimeException e) {
            failed = true;
            LOGGER.error("Spool appender '{}': writing events after the ring closed failed: {}", config.name(),
                    e.toString(), e);
        }
    }

    private OutputStream open() throws IOException {
        if (config.follow() && config.target() != SpoolConfig.Target.FILE) {
            return new CurrentStream(config.target() == SpoolConfig.Target.STDOUT ? System.out : System.err);
        }
        switch (config.target()) {
            case STDOUT:
                return new FileOutputStream(FileDescriptor.out);
            case STDERR:
                return new FileOutputStream(FileDescriptor.err);
            default:
                return new FileOutputStream(config.file().toFile(), true);
        }
    }

    /** With {@code follow}: the late records go where the ring's went, one flushed write each. */
    private static final class CurrentStream extends OutputStream {
        private final PrintStream out;

        CurrentStream(PrintStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            out.write(b, off, len);
            out.flush();
        }
    }

    /** Closes a file opened for late writes; standard output and error stay open. */
    synchronized void close() {
        if (channel != null && config.target() == SpoolConfig.Target.FILE) {
            try {
                channel.close();
            } catch (IOException e) {
                LOGGER.warn("Spool appender '{}': closing {} failed", config.name(), config.file(), e);
            }
        }
        failed = true; // nothing more after the appender's own stop
    }
}
