// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io;

import io.github.spool.SpoolConfig;
import io.github.spool.StatusListener;
import io.github.spool.io.rolling.RollingFileSink;
import io.github.spool.io.rolling.RollingPolicy;
import io.github.spool.time.SharedClock;

import java.io.FileDescriptor;
import java.io.PrintStream;

/**
 * Opens the sink a configuration names: fd 1 or fd 2 (or, with {@code follow}, the current
 * {@code System.out}/{@code System.err}), or a file with its stderr fallback. Never fails: a file
 * that cannot be opened is reported and replaced by stderr until it can ({@link FileFallbackSink}).
 * Internal to Spool.
 */
public final class Sinks {

    private Sinks() {
    }

    /**
     * @param config the appender's settings
     * @return its sink, ready for the writer thread
     */
    public static Sink open(SpoolConfig config) {
        StatusListener status = config.statusListener();
        switch (config.target()) {
            case STDOUT:
                if (config.follow()) {
                    return FollowingStreamSink.stdout(config.name(), status);
                }
                reportReplaced(config, System.out, FileDescriptor.out, "System.out", "fd 1");
                return ChannelSink.stdout();
            case STDERR:
                if (config.follow()) {
                    return FollowingStreamSink.stderr(config.name(), status);
                }
                reportReplaced(config, System.err, FileDescriptor.err, "System.err", "fd 2");
                return ChannelSink.stderr();
            default:
                Sink fallback = config.follow() ? FollowingStreamSink.stderr(config.name(), status) : ChannelSink.stderr();
                long retryMillis = Long.getLong(FileFallbackSink.RETRY_PROPERTY, FileFallbackSink.DEFAULT_RETRY_MILLIS);
                RollingPolicy rolling = config.rolling();
                FileFallbackSink.Opener opener = rolling == null
                        ? () -> RollingFileSink.plain(config.file(), config.append(), config.name(), status)
                        : () -> RollingFileSink.open(rolling, config.append(), SharedClock.get(), config.name(), status);
                String description = config.file() != null ? config.file().toString() : rolling.filePattern();
                return FileFallbackSink.open(opener, description, fallback, retryMillis, config.name(), status);
        }
    }

    private static void reportReplaced(SpoolConfig config, PrintStream current, FileDescriptor fd, String stream,
                                       String descriptor) {
        if (!StandardStreams.isOriginal(current, fd)) {
            // A WARN: logback prints its status only when there is a WARN or worse, and log4j2's usual
            // status="warn" hides INFO; the user who needs this hint would never see an INFO.
            config.statusListener().status(StatusListener.Level.WARN, "spool appender '" + config.name() + "': "
                    + stream + " has been replaced (it is " + (current == null ? "null" : "a " + current.getClass().getName())
                    + "), and this appender "
                    + "writes " + descriptor + " directly, so whatever replaced " + stream + " (a test framework's "
                    + "capture, an IDE console) does not see its lines; set follow to true to write through the "
                    + "current " + stream, null);
        }
    }
}
