package io.github.spool.bench.e2e;

import io.github.spool.AppendResult;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Spool's core alone: each line formatted by {@link LineFormatter} on the caller's thread (as
 * RingLog formats outside its lock), then one {@code Spool.append} into the ring; the writer thread
 * writes to stdout or to the file named by {@code bench.file}. Default settings.
 */
final class SpoolCoreSubject implements Subject {

    private final boolean toFile;
    private Spool spool;

    SpoolCoreSubject(boolean toFile) {
        this.toFile = toFile;
    }

    @Override
    public void start() throws IOException {
        SpoolConfig.Builder b = SpoolConfig.builder("bench-core");
        if (toFile) {
            b.file(Subjects.outputFile());
        }
        spool = Spool.start(b.build());
    }

    @Override
    public Caller caller(int threadIndex) {
        LineFormatter f = new LineFormatter(EventLine.threadName(threadIndex));
        return seq -> {
            int len = f.format(seq);
            if (spool.append(f.buffer(), 0, len, Severity.INFO) != AppendResult.ACCEPTED) {
                throw new IllegalStateException("record not accepted");
            }
        };
    }

    @Override
    public void stop() {
        if (!spool.stop(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("Spool did not drain within 60 s");
        }
    }
}
