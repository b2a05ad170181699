// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.AppendResult;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * logrotate's two modes against a running appender with a producer logging all along: {@code create}
 * (rename the file; Spool notices on its own within a second and opens the path again) and
 * {@code copytruncate} (copy, then truncate in place). Every line is in exactly one file, in order.
 */
class LogrotateTest {

    @TempDir
    Path dir;

    /** Logs numbered lines until stopped; returns how many. */
    private static Thread producer(Spool spool, AtomicBoolean stop, AtomicLong count) {
        Thread t = new Thread(() -> {
            for (long seq = 0; !stop.get(); seq++) {
                byte[] line = ("line " + seq + "\n").getBytes(StandardCharsets.UTF_8);
                if (spool.append(line, 0, line.length, Severity.INFO) != AppendResult.ACCEPTED) {
                    throw new AssertionError("not accepted");
                }
                count.set(seq + 1);
                if (seq % 64 == 0) {
                    // Paced, about 64k lines/s: renames are noticed within a second, and a
                    // flat-out producer only made millions of lines to read back (20-28 s a run).
                    LockSupport.parkNanos(1_000_000);
                }
            }
        });
        t.start();
        return t;
    }

    /** Waits for a condition the writer brings about (bounded). */
    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for: " + what);
            Thread.sleep(5);
        }
    }

    @Test
    void createModeRenamesAreNoticedAndNoLineIsLostOrRepeated() throws Exception {
        Path active = dir.resolve("app.log");
        Spool spool = Spool.start(SpoolConfig.builder("logrotate-create").file(active).build());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong count = new AtomicLong();
        Thread t = producer(spool, stop, count);
        List<Path> rotated = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            await(() -> Files.exists(active) && sizeOf(active) > 10_000, "lines in the new file");
            Path to = dir.resolve("app.log." + i);
            Files.move(active, to); // what logrotate's create mode does before it creates a new file
            rotated.add(to);
            await(() -> Files.exists(active), "the writer reopens the path");
        }
        stop.set(true);
        t.join();
        assertTrue(spool.stop(30, TimeUnit.SECONDS));
        List<String> all = new ArrayList<>();
        for (Path p : rotated) {
            all.addAll(RollingFiles.lines(p));
        }
        all.addAll(RollingFiles.lines(active));
        assertEquals(count.get(), all.size());
        for (int i = 0; i < all.size(); i++) {
            assertEquals("line " + i, all.get(i));
        }
    }

    /**
     * A delete (logrotate with {@code nocreate} and a script that removes the file, or an operator's
     * {@code rm}): the lines written into the deleted file until the writer notices are gone with
     * its inode — Spool cannot know — but the writer opens the path again within about a second
     * and every line after that arrives, in order, with none missing in between.
     */
    @Test
    void aDeletedFileIsOpenedAgainAndLaterLinesArrive() throws Exception {
        Path active = dir.resolve("app.log");
        Spool spool = Spool.start(SpoolConfig.builder("logrotate-delete").file(active).build());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong count = new AtomicLong();
        Thread t = producer(spool, stop, count);
        await(() -> sizeOf(active) > 10_000, "lines in the file");
        Files.delete(active);
        await(() -> Files.exists(active) && sizeOf(active) > 10_000, "the writer reopens the path and writes on");
        stop.set(true);
        t.join();
        assertTrue(spool.stop(30, TimeUnit.SECONDS));
        List<String> after = RollingFiles.lines(active);
        long first = Long.parseLong(after.get(0).substring("line ".length()));
        assertTrue(first > 0, "the lines before the reopen went to the deleted file");
        for (int i = 0; i < after.size(); i++) {
            assertEquals("line " + (first + i), after.get(i));
        }
        assertEquals(count.get(), first + after.size(), "every line after the reopen, to the last");
    }

    @Test
    void copytruncateKeepsEveryLineOnce() throws Exception {
        Path active = dir.resolve("app.log");
        Spool spool = Spool.start(SpoolConfig.builder("logrotate-copytruncate").file(active).build());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong count = new AtomicLong();
        Thread t = producer(spool, stop, count);
        await(() -> sizeOf(active) > 100_000, "lines in the file");
        stop.set(true);
        t.join();
        await(() -> spool.stats().getEventsWritten() == count.get(), "all written");
        // copytruncate copies and then truncates; with the producer stopped in between, no line falls in the gap
        Files.copy(active, dir.resolve("app.log.1"));
        try (var ch = java.nio.channels.FileChannel.open(active, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(0);
        }
        long before = count.get();
        byte[] line = ("line " + before + "\n").getBytes(StandardCharsets.UTF_8);
        spool.append(line, 0, line.length, Severity.INFO);
        assertTrue(spool.stop(30, TimeUnit.SECONDS));
        List<String> all = new ArrayList<>(RollingFiles.lines(dir.resolve("app.log.1")));
        List<String> after = RollingFiles.lines(active);
        assertEquals(List.of("line " + before), after, "the new line at the start of the truncated file, no hole");
        all.addAll(after);
        for (int i = 0; i < all.size(); i++) {
            assertEquals("line " + i, all.get(i));
        }
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (java.io.IOException e) {
            return 0;
        }
    }
}
