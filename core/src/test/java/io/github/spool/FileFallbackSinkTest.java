// SPDX-License-Identifier: Apache-2.0
package io.github.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.dropin.BlockedPath;
import io.github.spool.io.rolling.RollingFileSink;
import io.github.spool.io.FileFallbackSink;
import io.github.spool.io.Sink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file that cannot be opened: its lines go to the fallback, the file is retried on the writer's
 * writes (not more often than the interval), and the switch never splits a batch.
 */
class FileFallbackSinkTest {

    @TempDir
    Path dir;

    private final RecordedStatus status = new RecordedStatus();

    private static ByteBuffer[] batch(String... lines) {
        ByteBuffer[] b = new ByteBuffer[lines.length];
        for (int i = 0; i < lines.length; i++) {
            b[i] = ByteBuffer.wrap((lines[i] + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return b;
    }

    private FileFallbackSink.Opener opener(Path file) {
        return () -> RollingFileSink.plain(file, true, "x", status);
    }

    private static long write(Sink sink, String... lines) throws IOException {
        ByteBuffer[] b = batch(lines);
        long n = 0;
        while (b[b.length - 1].hasRemaining()) { // as RingWriter does: until the batch is out
            n += sink.write(b, 0, b.length);
        }
        return n;
    }

    @Test
    void aFileThatOpensIsItsOwnSink() throws IOException {
        Sink s = FileFallbackSink.open(opener(dir.resolve("a/b/ok.log")), dir.resolve("a/b/ok.log").toString(), new TestSink(), 0, "x", status);
        assertInstanceOf(RollingFileSink.class, s);
        s.close();
        assertEquals(List.of(), status.messages);
    }

    @Test
    void linesGoToTheFallbackUntilTheFileOpensThenToTheFileOnly() throws IOException {
        BlockedPath blocked = BlockedPath.under(dir);
        TestSink stderr = new TestSink();
        Sink s = FileFallbackSink.open(opener(blocked.file()), blocked.file().toString(), stderr, 0, "x", status);
        assertInstanceOf(FileFallbackSink.class, s);
        assertEquals(1, status.messages.size(), status::toString);
        String error = status.messages.get(0);
        assertTrue(error.startsWith("WARN spool appender 'x': cannot open file " + blocked.file() + " ("), error);
        assertTrue(error.contains("writing this appender's lines to test-sink instead, through the same buffer, and "
                + "retrying the file every 0 s (-Dspool.fileRetryMillis)"), error);
        assertEquals(8, write(s, "one", "two"));
        assertFalse(((FileFallbackSink) s).isFileOpen());
        blocked.unblock();
        write(s, "three");
        assertTrue(((FileFallbackSink) s).isFileOpen());
        write(s, "four");
        s.close();
        assertEquals("one\ntwo\n", new String(stderr.toByteArray(), StandardCharsets.UTF_8));
        assertEquals(List.of("three", "four"), Files.readAllLines(blocked.file()));
        assertEquals("INFO spool appender 'x': file " + blocked.file() + " is open now; writing to it from here on "
                + "(8 bytes went to test-sink while it could not be opened)", status.messages.get(1));
        assertTrue(stderr.isClosed(), "the fallback is closed with the sink");
    }

    @Test
    void theFileIsNotRetriedBeforeTheInterval() throws IOException {
        BlockedPath blocked = BlockedPath.under(dir);
        TestSink stderr = new TestSink();
        Sink s = FileFallbackSink.open(opener(blocked.file()), blocked.file().toString(), stderr, TimeUnit.HOURS.toMillis(1), "x", status);
        blocked.unblock();
        write(s, "still the fallback");
        assertFalse(((FileFallbackSink) s).isFileOpen());
        assertFalse(Files.exists(blocked.file()));
        assertTrue(status.messages.get(0).contains("retrying the file every 3600 s"), status::toString);
        s.close();
    }

    /** A fallback that takes part of a batch: the rest follows it there, even once the file could open. */
    @Test
    void aBatchTheFallbackTookInPartIsFinishedThere() throws IOException {
        BlockedPath blocked = BlockedPath.under(dir);
        HalfSink stderr = new HalfSink();
        Sink s = FileFallbackSink.open(opener(blocked.file()), blocked.file().toString(), stderr, 0, "x", status);
        ByteBuffer[] b = batch("abcdefgh");
        s.write(b, 0, 1);
        assertTrue(b[0].hasRemaining());
        blocked.unblock();
        while (b[0].hasRemaining()) {
            s.write(b, 0, 1);
        }
        assertFalse(((FileFallbackSink) s).isFileOpen(), "not switched inside the batch");
        write(s, "next");
        assertTrue(((FileFallbackSink) s).isFileOpen());
        s.close();
        assertEquals("abcdefgh\n", stderr.text.toString());
        assertEquals(List.of("next"), Files.readAllLines(blocked.file()));
    }

    @Test
    void appendFalseTruncatesWhenTheFileFirstOpens() throws IOException {
        Path file = dir.resolve("t.log");
        Files.writeString(file, "old line\n");
        Sink s = RollingFileSink.plain(file, false, "x", status);
        write(s, "new");
        s.close();
        assertEquals(List.of("new"), Files.readAllLines(file));
        Sink appending = RollingFileSink.plain(file, true, "x", status);
        write(appending, "more");
        appending.close();
        assertEquals(List.of("new", "more"), Files.readAllLines(file));
    }

    /** A reconfiguration: the new appender truncates while the old one still appends. */
    @Test
    void aTruncatingOpenLeavesNoHoleWhereAnOlderWriterAppends() throws IOException {
        Path file = dir.resolve("r.log");
        Sink old = RollingFileSink.plain(file, true, "x", status);
        write(old, "old 1", "old 2");
        Sink fresh = RollingFileSink.plain(file, false, "x", status);
        write(old, "old 3");
        write(fresh, "new 1");
        old.close();
        fresh.close();
        assertEquals(List.of("old 3", "new 1"), Files.readAllLines(file), "appended at the end, no zero bytes before");
    }

    /** Takes at most 3 bytes per call. */
    private static final class HalfSink implements Sink {
        final StringBuilder text = new StringBuilder();

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            ByteBuffer b = srcs[offset];
            int n = Math.min(3, b.remaining());
            byte[] bytes = new byte[n];
            b.get(bytes);
            text.append(new String(bytes, StandardCharsets.UTF_8));
            return n;
        }

        @Override
        public String describe() {
            return "half";
        }

        @Override
        public void close() {
        }
    }
}
