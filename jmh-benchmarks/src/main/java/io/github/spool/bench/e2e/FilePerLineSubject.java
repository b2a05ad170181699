package io.github.spool.bench.e2e;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * RingLog's synchronous baseline: one {@code FileOutputStream.write} (one {@code write(2)}) per
 * pre-formatted line, into the file named by the {@code bench.file} system property, opened with
 * {@code O_APPEND} so that concurrent producers never overwrite each other.
 */
final class FilePerLineSubject implements Subject {

    private FileOutputStream out;

    @Override
    public void start() throws IOException {
        out = new FileOutputStream(Subjects.outputFile().toFile(), true);
    }

    @Override
    public Caller caller(int threadIndex) {
        LineFormatter f = new LineFormatter(EventLine.threadName(threadIndex));
        return seq -> {
            int len = f.format(seq);
            try {
                out.write(f.buffer(), 0, len);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    @Override
    public void stop() throws IOException {
        out.close();
    }
}
