package io.github.spool.soak;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The parent side of an overload soak: starts the child JVM with its standard output on a pipe
 * that this side reads slowly ({@value #CHUNK} bytes, then a {@value #PAUSE_MILLIS} ms pause —
 * about 1.6 MB/s, far below what the producers make), checks every line with {@link SoakLines} as
 * it arrives, and reads at full speed once the child announces the drain
 * ({@link SoakReport#LOAD_DONE}) so that stopping does not wait for the slow reader. Test support.
 */
public final class SoakRun {

    /** Bytes read per slow step. */
    public static final int CHUNK = 16 * 1024;
    /** Pause after each slow step. */
    public static final long PAUSE_MILLIS = 10;
    /** Heap of the child: fixed and pre-touched, so that RSS growth is not the heap growing. */
    public static final String HEAP = "64m";

    private final boolean gapFree;
    private final StringBuffer stderr = new StringBuffer();
    private volatile boolean fast;
    private volatile Map<String, Long> report;
    private SoakLines lines;
    private int exitCode;

    private SoakRun(boolean gapFree) {
        this.gapFree = gapFree;
    }

    /**
     * Runs the child {@code mainClass} with the test's class path and waits for it.
     *
     * @param gapFree   whether every event must arrive (BLOCK)
     * @param seconds   the load's duration, for the timeout
     * @param jvmArgs   extra JVM options (system properties)
     * @param mainClass the child's main class
     * @param args      its arguments
     * @return the finished run
     * @throws Exception if the child cannot be started or does not finish in time
     */
    public static SoakRun run(boolean gapFree, double seconds, List<String> jvmArgs, Class<?> mainClass, String... args)
            throws Exception {
        SoakRun r = new SoakRun(gapFree);
        r.execute(seconds, jvmArgs, mainClass, args);
        return r;
    }

    private void execute(double seconds, List<String> jvmArgs, Class<?> mainClass, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-Xms" + HEAP, "-Xmx" + HEAP, "-XX:+AlwaysPreTouch", "-XX:+UseSerialGC"));
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(ChildClassPath.withoutSpring());
        cmd.add(mainClass.getName());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        Thread err = new Thread(() -> readStderr(p.getErrorStream()), "soak-stderr");
        err.start();
        lines = new SoakLines(gapFree);
        Thread out = new Thread(() -> readSlowly(p.getInputStream()), "soak-slow-reader");
        out.start();
        long timeout = (long) (3 * seconds) + 90; // the load may run up to three times as long (SoakChild)
        if (!p.waitFor(timeout, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("soak child did not finish within " + timeout + " s; stderr:\n" + stderr);
        }
        out.join();
        err.join();
        exitCode = p.exitValue();
    }

    private void readStderr(InputStream in) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.equals(SoakReport.LOAD_DONE)) {
                    fast = true;
                } else if (SoakReport.isReport(line)) {
                    report = SoakReport.parse(line);
                }
                stderr.append(line).append('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void readSlowly(InputStream in) {
        byte[] buf = new byte[CHUNK];
        ByteArrayOutputStream partial = new ByteArrayOutputStream(256);
        try {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        lines.accept(partial.toString(StandardCharsets.UTF_8));
                        partial.reset();
                    } else {
                        partial.write(buf[i]);
                    }
                }
                if (!fast) {
                    TimeUnit.MILLISECONDS.sleep(PAUSE_MILLIS); // load shaping: the slow consumer
                }
            }
            if (partial.size() > 0) {
                lines.accept(partial.toString(StandardCharsets.UTF_8)); // flagged: a torn last line
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the child's exit code */
    public int exitCode() {
        return exitCode;
    }

    /** @return everything the child printed to standard error */
    public String stderr() {
        return stderr.toString();
    }

    /** @return the child's figures, or {@code null} if it printed none */
    public Map<String, Long> report() {
        return report;
    }

    /** @return the checked output */
    public SoakLines lines() {
        return lines;
    }

    /** @return events logged per producer, from the report */
    public long[] produced() {
        List<Long> ps = new ArrayList<>();
        for (int p = 0; report.containsKey("produced" + p); p++) {
            ps.add(report.get("produced" + p));
        }
        return ps.stream().mapToLong(Long::longValue).toArray();
    }

    /** @return one line with the figures the docs quote */
    public String summary() {
        Map<String, Long> r = report;
        return String.format("produced=%,d written=%,d discarded=%,d summaryLines=%d | ring high water %,d of %,d B, "
                        + "in use max %,d B | direct used max %,d B in %d buffers | VmHWM %,d KiB, VmRSS first/max/last "
                        + "%,d/%,d/%,d KiB (heap %,d B, pre-touched) | drain %d ms",
                r.get("produced"), lines.eventLines(), lines.summarized(), lines.summaryLines(), r.get("ringHighWater"),
                r.get("ringMax"), r.get("ringInUseMax"), r.get("directUsedMax"), r.get("directCountMax"), r.get("hwmKiB"),
                r.get("rssFirstKiB"), r.get("rssMaxKiB"), r.get("rssLastKiB"), r.get("maxHeap"), r.get("drainMillis"));
    }
}
