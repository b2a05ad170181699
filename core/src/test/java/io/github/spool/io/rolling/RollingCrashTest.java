// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.AppendResult;
import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM killed with SIGKILL while it rolls a file every 64 KiB with gzip (rollovers and
 * compressions many times a second, so each kill lands amid one), five times over the same
 * directory: after the next start has recovered, every line that reached a file is in exactly one
 * file, whole, and each run's lines are a gap-free prefix of what it logged — nothing duplicated,
 * and the numbering of the archives continues. The one line a kill may cut (in the middle of a
 * write(2)) is ended by the next start and never glued to the next line. Seeded kill delays.
 */
class RollingCrashTest {

    static final int RUNS = 5;

    @TempDir
    Path dir;

    static RollingPolicy policy(Path dir) {
        return RollingPolicy.builder(dir.resolve("app-%d{yyyy-MM-dd}.%i.log.gz").toString())
                .activeFile(dir.resolve("app.log")).maxFileSize(64 * 1024).timeBased(1, false)
                .indexing(RollingPolicy.Indexing.PER_PERIOD, 0, 0).zone(ZoneId.of("UTC")).locale(Locale.ROOT).build();
    }

    /** The child: logs "run seq padding" lines as fast as it can until it is killed. */
    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0]);
        String run = args[1];
        Spool spool = Spool.start(SpoolConfig.builder("crash").rolling(policy(dir)).build());
        boolean running = false;
        for (long seq = 0; ; seq++) {
            byte[] line = (line(run, seq) + "\n").getBytes(StandardCharsets.UTF_8);
            if (spool.append(line, 0, line.length, Severity.INFO) != AppendResult.ACCEPTED) {
                throw new AssertionError("not accepted");
            }
            if (!running && seq >= 1000 && spool.stats().getEventsWritten() > 0) {
                // The parent starts its clock from here: once lines reached the file, so that a
                // writer starved on a loaded machine cannot leave a run with nothing to check.
                running = true;
                System.out.println("running");
                System.out.flush();
            }
        }
    }

    /** The line the child logs for {@code seq} of {@code run}, without its separator. */
    static String line(String run, long seq) {
        StringBuilder b = new StringBuilder(run).append(' ').append(seq).append(' ');
        for (int i = 0; i < 60 + (int) (seq % 50); i++) {
            b.append((char) ('a' + i % 26));
        }
        return b.toString();
    }

    /** Archives a kill left half-done: renamed but not yet compressed, or a compression's temporary. */
    private int unfinished() throws IOException {
        FilePattern plain = FilePattern.parse(dir.resolve("app-%d{yyyy-MM-dd}.%i.log").toString(), ZoneId.of("UTC"), Locale.ROOT);
        try (Stream<Path> s = Files.list(dir)) {
            return (int) s.map(Path::toString).filter(n -> n.endsWith(".tmp") || plain.matches(n)).count();
        }
    }

    @Test
    void sigkillDuringRolloversLosesNoWrittenLineAndDuplicatesNone() throws Exception {
        SplittableRandom random = new SplittableRandom(2026);
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        int inFlight = 0;
        for (int run = 0; run < RUNS; run++) {
            Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    RollingCrashTest.class.getName(), dir.toString(), "r" + run)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String first = new String(p.getInputStream().readNBytes(8), StandardCharsets.UTF_8);
            assertEquals("running\n", first, "child " + run + " started");
            Thread.sleep(300 + random.nextInt(700)); // the kill time: what is measured is the state it leaves
            p.destroyForcibly(); // SIGKILL on Linux
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            inFlight += unfinished();
        }
        System.out.println("RollingCrashTest: " + RUNS + " kills left " + inFlight
                + " unfinished archives (uncompressed or .tmp) for the next start to finish");
        // The next start recovers (finishes cut-off compressions, removes torn temporaries).
        RollingFileSink recovered = RollingFileSink.open(policy(dir), true, System::currentTimeMillis, "crash",
                (level, message, cause) -> { });
        assertTrue(recovered.awaitArchives(60_000));
        recovered.close();

        TreeSet<String> names = new TreeSet<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(f -> names.add(f.getFileName().toString()));
        }
        FilePattern pattern = FilePattern.parse(dir.resolve("app-%d{yyyy-MM-dd}.%i.log.gz").toString(), ZoneId.of("UTC"), Locale.ROOT);
        Map<String, List<Long>> seen = new HashMap<>();
        List<String> cut = new ArrayList<>();
        for (String name : names) {
            Path f = dir.resolve(name);
            assertTrue(name.equals("app.log") || pattern.matches(f.toString()),
                    "only archives under their final name and the active file are left: " + name);
            for (String line : RollingFiles.lines(f)) { // throws on a file that ends inside a line
                String[] parts = line.split(" ", 3);
                if (parts.length == 3 && parts[1].matches("\\d+") && line.equals(line(parts[0], Long.parseLong(parts[1])))) {
                    seen.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(Long.parseLong(parts[1]));
                } else {
                    cut.add(line);
                }
            }
        }
        // A kill may cut the write it interrupts between two pages, inside a line (Linux checks for
        // a fatal signal between the pages of a write(2)); the next start ends that fragment with a
        // separator. So besides whole lines, each run may leave at most one fragment: the start of
        // the line after its last whole one, and nothing else.
        Map<String, Integer> fragments = new HashMap<>();
        for (String fragment : cut) {
            String owner = null;
            for (int run = 0; run < RUNS && owner == null; run++) {
                List<Long> seqs = seen.get("r" + run);
                long next = seqs == null ? 0 : seqs.stream().mapToLong(Long::longValue).max().getAsLong() + 1;
                String expected = line("r" + run, next);
                if (!fragment.isEmpty() && fragment.length() < expected.length() && expected.startsWith(fragment)) {
                    owner = "r" + run;
                }
            }
            assertTrue(owner != null, "a whole line, or the start of the line after a run's last: " + fragment);
            assertEquals(1, (int) fragments.merge(owner, 1, Integer::sum), "at most one cut line per run: " + cut);
        }
        if (!cut.isEmpty()) {
            System.out.println("RollingCrashTest: " + cut.size() + " line(s) cut by a kill, each ended by the next start");
        }
        assertTrue(names.size() > 20, "many rollovers: " + names.size());
        for (int run = 0; run < RUNS; run++) {
            List<Long> seqs = seen.get("r" + run);
            assertFalse(seqs == null || seqs.isEmpty(), "run " + run + " wrote lines");
            seqs.sort(null);
            for (int i = 0; i < seqs.size(); i++) {
                assertEquals(i, (long) seqs.get(i), "run " + run + ": a gap-free prefix, each line once");
            }
        }
    }
}
