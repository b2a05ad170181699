package io.github.spool.bench.core;

import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;
import io.github.spool.time.CachedClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Zero idle CPU: an application with four Spool appenders (each to a file) and the cached clock
 * logs a burst, then does nothing for a while; this prints the CPU the process's threads used while
 * idle, per thread from {@code /proc/self/task/<tid>/schedstat} (nanoseconds on a CPU, exact,
 * where {@code stat}'s clock ticks are sampled 100 times a second), so that a thread that keeps
 * waking shows by name, and the whole process's user + system ticks from {@code /proc/self/stat}
 * as a cross-check.
 *
 * <p>{@code spool} runs the appenders and the clock; {@code baseline} runs the same JVM with
 * neither (the anchor: what an idle JVM costs by itself, JIT and GC threads included), so that
 * Spool's own share is the difference. Linux only. One result line on standard output:
 * {@code idle-cpu <mode> <idleSeconds> <threadsMicros> <percentOfACore> <processTicks>}, then one
 * {@code thread} line per thread that used any CPU while idle, in microseconds.
 *
 * <pre>java -cp jmh-benchmarks/target/benchmarks.jar io.github.spool.bench.core.IdleCpu spool 60 /tmp/idle</pre>
 */
public final class IdleCpu {

    private IdleCpu() {
    }

    /**
     * @param args {@code spool|baseline}, idle seconds, a directory for the log files
     * @throws Exception if a file cannot be written
     */
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int idleSeconds = Integer.parseInt(args[1]);
        Path dir = Files.createDirectories(Path.of(args[2]));
        List<Spool> appenders = new ArrayList<>();
        if (mode.equals("spool")) {
            for (int a = 0; a < 4; a++) {
                appenders.add(Spool.start(SpoolConfig.builder("idle-" + a).file(dir.resolve("idle-" + a + ".log")).build()));
            }
            CachedClock clock = CachedClock.get();
            byte[] line = new byte[100];
            for (int i = 0; i < 200_000; i++) { // the burst: every appender, the clock read per line
                byte[] text = String.format(Locale.ROOT, "%013d burst line %06d%n", clock.currentTimeMillis(), i)
                        .getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(text, 0, line, 0, text.length);
                appenders.get(i & 3).append(line, 0, text.length, Severity.INFO);
            }
        } else if (!mode.equals("baseline")) {
            throw new IllegalArgumentException("mode: spool or baseline, not " + mode);
        }
        // Let the burst's aftermath settle (the writers drain, the clock's refresher notices
        // nobody reads it, the JIT finishes) before the idle window opens.
        TimeUnit.SECONDS.sleep(5);
        Map<String, Long> before = threadNanos();
        long t0 = processTicks();
        long n0 = System.nanoTime();
        TimeUnit.SECONDS.sleep(idleSeconds); // what is measured: nothing happens
        long ticks = processTicks() - t0;
        double seconds = (System.nanoTime() - n0) / 1e9;
        Map<String, Long> after = threadNanos();
        long total = 0;
        StringBuilder threads = new StringBuilder();
        for (Map.Entry<String, Long> e : after.entrySet()) {
            long used = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            total += used;
            if (used > 0) {
                threads.append(String.format(Locale.ROOT, "thread %s %d us%n", e.getKey(), used / 1000));
            }
        }
        System.out.printf(Locale.ROOT, "idle-cpu %s %.1f %d %.4f %d%n", mode, seconds, total / 1000,
                100.0 * total / 1e9 / seconds, ticks);
        System.out.print(threads);
        for (Spool s : appenders) {
            s.stop(10, TimeUnit.SECONDS);
        }
    }

    /** User + system ticks of the whole process. */
    private static long processTicks() throws IOException {
        return ticks(Files.readString(Path.of("/proc/self/stat")));
    }

    /** Nanoseconds on a CPU per thread ({@code schedstat}'s first field), keyed by "name (tid)". */
    private static Map<String, Long> threadNanos() throws IOException {
        Map<String, Long> out = new TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    long onCpu = Long.parseLong(Files.readString(t.resolve("schedstat")).trim().split(" ")[0]);
                    out.put(name + " (" + t.getFileName() + ")", onCpu);
                } catch (IOException ended) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return out;
    }

    /** Fields 14 and 15 (utime, stime) of a stat line; the name in parentheses may hold spaces. */
    private static long ticks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14, 15 counted from 3
    }
}
