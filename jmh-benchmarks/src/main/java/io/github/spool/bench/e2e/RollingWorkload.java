// SPDX-License-Identifier: Apache-2.0
package io.github.spool.bench.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.HdrHistogram.Histogram;

/**
 * Child-JVM program of the rolling scenario (issue 15): {@code producers} threads log
 * {@code events} lines each, flat out, into a file that rolls every {@code rollSize} bytes with
 * gzip, and time every call (HdrHistogram). A watcher thread polls the active file's size every
 * millisecond and records when it shrinks (a rollover), so that calls can be matched with the
 * rollovers they overlap: the frameworks roll over inside the logging call that crosses the size,
 * under the appender's lock, and every other thread waits behind it.
 *
 * <p>Usage: {@code RollingWorkload <subject> dir=<dir> events=<per producer> producers=4
 * rollSize=<bytes> [rate=<events/s in all>] [compression=.gz|.zip|none]}. Prints {@code key=value} lines: {@code eventsPerSecond} (from the first call
 * until the subject has stopped with everything written and every archive compressed), call-duration percentiles and
 * {@code max} in nanoseconds, {@code rollovers}, {@code maxNearRollover} (the longest call that
 * overlaps a rollover, ±2 ms), {@code callsOver1ms} (and {@code longCalls}: the first 20 of them, each
 * with its start relative to the nearest rollover's detection), and the verification of every line in every
 * file ({@code lines}, {@code verified}).
 */
public final class RollingWorkload {

    /** Calls slower than this are kept with their start time, to be matched with rollovers. */
    static final long SLOW_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /** How close a call must come to a rollover's detection to count as overlapping it. */
    static final long NEAR_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final Pattern INDEX = Pattern.compile("[.-](\\d+)\\.log(\\.gz)?$");

    private RollingWorkload() {
    }

    /** The subjects, by name: the anchors of issue 15 and the same configurations converted to Spool. */
    static Supplier<Subject> subject(String name) {
        switch (name) {
            case "none":
                return NoLoggingSubject::new;
            case "log4j2-rraf":
                return () -> new Log4j2Subject("bench/log4j2-rolling.xml", false);
            case "log4j2-async-rraf":
                return () -> new Log4j2Subject("bench/log4j2-rolling.xml", true);
            case "logback-rfa":
                return () -> new LogbackSubject("bench/logback-rolling.xml");
            case "logback-async-rfa":
                return () -> new LogbackSubject("bench/logback-async-rolling.xml");
            case "spool-log4j2":
                return () -> new Log4j2Subject("bench/log4j2-spool-rolling.xml", false);
            case "spool-logback":
                return () -> new LogbackSubject("bench/logback-spool-rolling.xml");
            default:
                throw new IllegalArgumentException("unknown rolling subject " + name);
        }
    }

    /**
     * @param args {@code <subject> key=value...}
     * @throws Exception if the run fails (non-zero exit)
     */
    public static void main(String[] args) throws Exception {
        String name = args[0];
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            a.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        Path dir = Path.of(a.get("dir"));
        long events = Long.parseLong(a.get("events"));
        int producers = Integer.parseInt(a.getOrDefault("producers", "4"));
        // rate > 0: paced in 1 ms ticks (each producer logs its share of the tick, then parks), so the
        // file keeps up and a call that waits shows the rollover itself, not a full buffer or a
        // spinning neighbour; 0: flat out, for throughput.
        long rate = Long.parseLong(a.getOrDefault("rate", "0"));
        long perTick = rate <= 0 ? 0 : Math.max(1, rate / producers / 1000);
        // The first fifth of each producer's calls (with their rollovers: class loading, JIT) is not recorded.
        long warmup = events / 5;
        System.setProperty("bench.dir", dir.toString());
        System.setProperty("bench.rollSize", a.get("rollSize"));
        String compression = a.getOrDefault("compression", ".gz");
        System.setProperty("bench.compression", compression.equals("none") ? "" : compression);
        Subject subject = subject(name).get();
        subject.start();

        long[] rollovers = new long[1 << 16];
        int[] rolloverCount = {0};
        Thread watcher = new Thread(() -> watch(dir, rollovers, rolloverCount), "rollover-watcher");
        watcher.setDaemon(true);
        Histogram[] histograms = new Histogram[producers];
        List<long[]> slow = new ArrayList<>();
        CountDownLatch ready = new CountDownLatch(producers);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(producers);
        for (int p = 0; p < producers; p++) {
            int index = p;
            histograms[p] = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
            long[] slowCalls = new long[2 * 65_536];
            slow.add(slowCalls);
            Thread t = new Thread(() -> {
                Subject.Caller caller = subject.caller(index);
                Histogram h = histograms[index];
                int slowN = 0;
                ready.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                long tick = System.nanoTime();
                for (long seq = 0; seq < events; seq++) {
                    if (perTick > 0 && seq % perTick == 0 && seq > 0) {
                        tick += 1_000_000;
                        long wait = tick - System.nanoTime();
                        if (wait > 0) {
                            java.util.concurrent.locks.LockSupport.parkNanos(wait);
                        }
                    }
                    long before = System.nanoTime();
                    caller.log(seq);
                    long took = System.nanoTime() - before;
                    if (seq < warmup) {
                        continue;
                    }
                    h.recordValue(Math.min(took, h.getHighestTrackableValue()));
                    if (took > SLOW_NANOS && slowN < slowCalls.length) {
                        slowCalls[slowN++] = before;
                        slowCalls[slowN++] = took;
                    }
                }
                done.countDown();
            }, EventLine.threadName(p));
            t.start();
        }
        ready.await();
        if (!name.equals("none")) {
            watcher.start();
        }
        long cpuAtStart = CpuFacts.processCpuNanos();
        long start = System.nanoTime();
        go.countDown();
        done.await();
        long produced = System.nanoTime();
        subject.stop();
        long stopped = System.nanoTime();
        // Until every line is in its final file (every archive compressed): Spool's stop waits for
        // its archive threads, the frameworks' stop may return with compressions still running.
        long settled = name.equals("none") || compression.equals("none") ? stopped : settle(dir);
        long cpu = CpuFacts.processCpuNanos() - cpuAtStart;

        Histogram all = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        for (Histogram h : histograms) {
            all.add(h);
        }
        long maxNear = 0;
        long over1ms = 0;
        int n = rolloverCount[0];
        // The calls over 1 ms, with where they started relative to the nearest rollover's
        // detection, to tell a call that waited for a rollover from one preempted elsewhere.
        List<String> longCalls = new ArrayList<>();
        for (long[] calls : slow) {
            for (int i = 0; i + 1 < calls.length && calls[i + 1] != 0; i += 2) {
                long s = calls[i];
                long e = s + calls[i + 1];
                if (calls[i + 1] > TimeUnit.MILLISECONDS.toNanos(1)) {
                    over1ms++;
                    long nearest = Long.MAX_VALUE;
                    for (int r = 0; r < n; r++) {
                        if (Math.abs(rollovers[r] - s) < Math.abs(nearest)) {
                            nearest = rollovers[r] - s;
                        }
                    }
                    if (longCalls.size() < 20) {
                        longCalls.add(String.format("%dus@%+dms", calls[i + 1] / 1000,
                                nearest == Long.MAX_VALUE ? 0 : -nearest / 1_000_000));
                    }
                }
                for (int r = 0; r < n; r++) {
                    if (rollovers[r] >= s - NEAR_NANOS && rollovers[r] <= e + NEAR_NANOS) {
                        maxNear = Math.max(maxNear, calls[i + 1]);
                        break;
                    }
                }
            }
        }
        long total = events * producers;
        Map<String, String> out = new LinkedHashMap<>();
        out.put("events", Long.toString(total));
        out.put("eventsPerSecond", String.format("%.0f", total / ((settled - start) / 1e9)));
        out.put("produceSeconds", String.format("%.3f", (produced - start) / 1e9));
        out.put("stopSeconds", String.format("%.3f", (stopped - produced) / 1e9));
        out.put("settleSeconds", String.format("%.3f", (settled - stopped) / 1e9));
        // The process's CPU over the same span (producers, writer, compression, JIT, GC): on a machine
        // whose cores are all busy, events/s cannot exceed cores / (cpuNanosPerEvent).
        out.put("cpuNanosPerEvent", String.format("%.0f", cpu / (double) total));
        out.put("p50", Long.toString(all.getValueAtPercentile(50)));
        out.put("p99", Long.toString(all.getValueAtPercentile(99)));
        out.put("p9999", Long.toString(all.getValueAtPercentile(99.99)));
        out.put("max", Long.toString(all.getMaxValue()));
        out.put("rollovers", Integer.toString(n));
        out.put("maxNearRollover", Long.toString(maxNear));
        out.put("callsOver1ms", Long.toString(over1ms));
        out.put("longCalls", String.join(",", longCalls));
        if (!name.equals("none")) {
            verify(dir, producers, events, out);
        }
        out.forEach((k, v) -> System.out.println(k + "=" + v));
    }

    /**
     * Records the time the active file {@code app.log} shrinks: a rollover has just renamed it and
     * opened a new one (a missing file reads as 0 bytes). It reads the size, not the directory:
     * listing a directory of a hundred archives every millisecond allocated several MB a second,
     * and the young collections it caused stopped every producer for 2–16 ms at moments that
     * had nothing to do with the appender under test.
     */
    private static void watch(Path dir, long[] times, int[] count) {
        java.io.File active = dir.resolve("app.log").toFile();
        long last = 0;
        while (true) {
            long size = active.length();
            if (size < last && count[0] < times.length) {
                times[count[0]++] = System.nanoTime();
            }
            last = size;
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Waits (up to a minute) until the frameworks' background compressions have finished.
     *
     * @return when they had, by {@link System#nanoTime()} (within the 2 ms poll)
     */
    private static long settle(Path dir) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Stream<Path> s = Files.list(dir)) {
                if (s.map(p -> p.getFileName().toString())
                        .noneMatch(f -> f.endsWith(".tmp") || (f.startsWith("app-") && f.endsWith(".log")))) {
                    return System.nanoTime();
                }
            }
            Thread.sleep(2);
        }
        throw new IllegalStateException("archives still uncompressed a minute after the stop in " + dir);
    }

    /** Reads every file, oldest archive first, and checks each producer's lines: all there, once, in order. */
    private static void verify(Path dir, int producers, long events, Map<String, String> out) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = new ArrayList<>(s.toList());
        }
        files.sort(Comparator.comparingLong(RollingWorkload::order));
        OutputVerifier verifier = new OutputVerifier();
        byte[] buf = new byte[1 << 16];
        for (Path f : files) {
            try (InputStream in = f.toString().endsWith(".gz") ? new GZIPInputStream(Files.newInputStream(f))
                    : Files.newInputStream(f)) {
                for (int r; (r = in.read(buf)) > 0; ) {
                    verifier.accept(buf, 0, r);
                }
            }
        }
        Map<Integer, Long> expected = new LinkedHashMap<>();
        for (int p = 0; p < producers; p++) {
            expected.put(p, events);
        }
        OutputVerifier.Verdict v = verifier.finish(expected);
        out.put("files", Integer.toString(files.size()));
        out.put("lines", Long.toString(v.lines()));
        out.put("verified", v.ok() ? "ok" : v.summary().replace('\n', ' '));
    }

    /** Archives by index, the active file last. */
    private static long order(Path f) {
        Matcher m = INDEX.matcher(f.getFileName().toString());
        return m.find() ? Long.parseLong(m.group(1)) : Long.MAX_VALUE;
    }
}
