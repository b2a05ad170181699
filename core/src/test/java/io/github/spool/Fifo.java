package io.github.spool;

import io.github.spool.io.ChannelSink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A real pipe for tests: a FIFO with a sink on its write end and a channel on its read end. */
final class Fifo {
    final ChannelSink sink;
    final FileChannel reader;

    private Fifo(ChannelSink sink, FileChannel reader) {
        this.sink = sink;
        this.reader = reader;
    }

    /** Creates {@code dir/fifo} and opens both ends (each open blocks until the other end opens). */
    static Fifo open(Path dir) throws Exception {
        Path fifo = dir.resolve("fifo");
        if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() != 0) {
            throw new IOException("mkfifo " + fifo + " failed");
        }
        CompletableFuture<FileChannel> reader = CompletableFuture.supplyAsync(() -> {
            try {
                return FileChannel.open(fifo, StandardOpenOption.READ);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        ChannelSink sink = ChannelSink.append(fifo);
        return new Fifo(sink, reader.get(10, TimeUnit.SECONDS));
    }
}
