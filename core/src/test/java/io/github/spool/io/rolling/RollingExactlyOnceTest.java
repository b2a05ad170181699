// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.AppendResult;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Four producers through the ring and the writer into a file rolling every 64 KiB, hundreds of
 * rollovers: every line is in exactly one file, whole, and each producer's lines are in order
 * when the files are read oldest first. Seeded line lengths, so a failure reproduces.
 */
class RollingExactlyOnceTest {

    static final int PRODUCERS = 4;
    static final int LINES = 40_000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"app-%d{yyyy-MM-dd}.%i.log.gz, PER_PERIOD", "app-%i.log, NEXT_FREE"})
    void everyLineExactlyOnceInOrderAcrossRollovers(String pattern, RollingPolicy.Indexing indexing) throws Exception {
        RollingPolicy.Builder builder = RollingPolicy.builder(dir.resolve(pattern).toString())
                .activeFile(dir.resolve("app.log")).maxFileSize(64 * 1024).indexing(indexing, 0, 0)
                .zone(ZoneId.of("UTC")).locale(Locale.ROOT);
        if (pattern.contains("%d")) {
            builder.timeBased(1, false);
        }
        RollingPolicy policy = builder.build();
        Spool spool = Spool.start(SpoolConfig.builder("rolling-once").rolling(policy).bufferSize(256 * 1024).build());
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int id = p;
            Thread t = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(42 + id);
                StringBuilder b = new StringBuilder();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int seq = 0; seq < LINES; seq++) {
                    b.setLength(0);
                    b.append('p').append(id).append(' ').append(seq).append(' ');
                    int pad = random.nextInt(10, 200);
                    for (int i = 0; i < pad; i++) {
                        b.append((char) ('a' + (seq + i) % 26));
                    }
                    b.append('\n');
                    byte[] line = b.toString().getBytes(StandardCharsets.UTF_8);
                    if (spool.append(line, 0, line.length, Severity.INFO) != AppendResult.ACCEPTED) {
                        throw new AssertionError("not accepted");
                    }
                }
            });
            t.start();
            threads.add(t);
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(spool.stop(30, TimeUnit.SECONDS));
        assertEquals(0, spool.stats().getEventsLost());

        FilePattern names = FilePattern.parse(dir.resolve(pattern).toString(), ZoneId.of("UTC"), Locale.ROOT);
        TreeMap<Integer, Path> ordered = new TreeMap<>();
        Map<String, List<String>> files = RollingFiles.read(dir);
        for (String name : files.keySet()) {
            Path f = dir.resolve(name);
            if (name.equals("app.log")) {
                ordered.put(Integer.MAX_VALUE, f);
            } else {
                assertTrue(names.matches(f.toString()), "an archive under its final name: " + name);
                ordered.put(names.indexOf(f.toString()), f);
            }
        }
        assertTrue(ordered.size() > 200, "hundreds of rollovers: " + ordered.size());
        int[] next = new int[PRODUCERS];
        for (Path f : ordered.values()) {
            List<String> lines = RollingFiles.lines(f);
            assertTrue(f.getFileName().toString().equals("app.log") || !lines.isEmpty(), "no empty archive: " + f);
            for (String line : lines) {
                String[] parts = line.split(" ", 3);
                int id = parts[0].charAt(1) - '0';
                int seq = Integer.parseInt(parts[1]);
                assertEquals(next[id], seq, "producer " + id + " in " + f);
                next[id]++;
            }
        }
        for (int p = 0; p < PRODUCERS; p++) {
            assertEquals(LINES, next[p], "producer " + p);
        }
    }
}
