package io.github.spool.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.spool.ring.ManyToOneCellRing;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Breaks the sink of a real framework configuration with a Spool appender named {@code out} in a
 * forked JVM (the adapter's {@link #faultMain()}) and checks, for each fault: the application
 * thread never throws and never hangs (bounded wait for the child), exactly one status message per
 * fault episode on the child's standard error, exact counters from the JMX MBean ({@code written +
 * lost + discarded = attempted}), and new lines after recovery where the sink can recover. What
 * each fault is and why it was chosen is in {@code docs/reliability.md}, "Fault injection through
 * the adapters". Each adapter's {@code FaultInjectionTest} runs these faults through its own
 * framework by saying how to configure the child and how its status lines look.
 *
 * <p>The child logs lines ending in {@code " - seq=<n> " + }{@link #PAYLOAD}, and prints to standard
 * error one {@code spool-facts key=value ...} line: the appender's MBean counters and
 * {@code attempted}, {@code drained}, {@code exceptions}, {@code maxCallMicros},
 * {@code firstSlowCall}, {@code stopMillis}.
 */
public abstract class FaultInjectionContract {

    /** The text after the sequence number of every line the child logs. */
    public static final String PAYLOAD = "status=OK size=7 payload=abcdefghijklmnopqrstuvwxyz";
    private static final Pattern SEQ = Pattern.compile(" - seq=(\\d+) " + Pattern.quote(PAYLOAD) + "$");
    private static final Pattern SUMMARY = Pattern.compile("^spool: discarded (\\d+) events at INFO and below");
    /** Events of the stall runs: at 10,000 a second about 2.8 s, longer than the 2 s stall. */
    private static final int STALL_EVENTS = 28_000;
    /** Cell size of the stall runs' ring ({@code bufferSize} 64 KiB). */
    private static final long CELL = ManyToOneCellRing.cellSizeFor(64 << 10);
    /** Liveness bound of the time-to-recover checks: generous, this is no speed requirement. */
    private static final long RECOVER_BOUND_MICROS = TimeUnit.SECONDS.toMicros(10);

    @TempDir
    protected Path dir;

    /** @return the framework's name, for the printed figures */
    protected abstract String framework();

    /**
     * @return a status line of the appender {@code out} on the child's standard error: group 1 its
     *         level (ERROR, WARN or INFO), group 2 its message
     */
    protected abstract Pattern statusLine();

    /** @return the child's main class: runs the scenario named by its arguments (see the log4j2 or logback one) */
    protected abstract Class<?> faultMain();

    /**
     * The child's JVM arguments that configure its framework: a Spool appender {@code out} writing
     * to standard output, or with {@code file} to the file named by {@code -Dspool.it.file}, and with
     * a {@code stallPolicy} that overflow policy, a 64 KiB buffer and a 256 KiB cap.
     *
     * @param dir         a directory for configuration files
     * @param file        whether the appender writes to the file rather than to standard output
     * @param stallPolicy {@code BLOCK} or {@code DISCARD}, or {@code null} for the defaults
     * @return the arguments
     * @throws Exception if the configuration cannot be written
     */
    protected abstract List<String> configure(Path dir, boolean file, String stallPolicy) throws Exception;

    /** ENOSPC on every write: all counted as lost, one ERROR, nothing else. */
    @Test
    void stdoutToDevFull() throws Exception {
        Child c = new Child(false, "burst", "20000");
        Facts f = c.start(ProcessBuilder.Redirect.to(new File("/dev/full"))).finish();
        f.assertAccountedWithoutExceptions();
        assertEquals(20_000, f.get("EventsLost"), f::toString);
        assertEquals(0, f.get("EventsWritten"), f::toString);
        assertEquals(0, f.get("EventsDiscarded"), f::toString);
        assertTrue(f.get("WriteErrors") > 0, f::toString);
        f.assertStatuses(1, 0, 0);
        assertTrue(f.statuses.get(0).contains("No space left on device"), f::toString);
    }

    /**
     * The JVM starts with stdout closed ({@code >&-}). It reuses descriptor 1 for the first file it
     * opens, its read-only {@code lib/modules} image (seen on JDK 17 and 25), so every write fails
     * with EBADF: all counted as lost, one ERROR. (Were fd 1 reused for a writable file, the lines
     * would land there, as {@code System.out}'s would.)
     */
    @Test
    void stdoutClosed() throws Exception {
        Child c = new Child(false, "burst", "2000");
        c.prefix.addAll(List.of("/bin/sh", "-c", "exec \"$0\" \"$@\" >&-"));
        Facts f = c.start(ProcessBuilder.Redirect.to(dir.resolve("stdout.txt").toFile())).finish();
        f.assertAccountedWithoutExceptions();
        assertEquals(List.of(0L, 2_000L), List.of(f.get("EventsWritten"), f.get("EventsLost")), f::toString);
        f.assertStatuses(1, 0, 0);
        assertTrue(f.statuses.get(0).contains("Bad file descriptor"), f::toString);
    }

    /** The reader takes 1,000 lines and exits: EPIPE; the rest is counted as lost, one ERROR. */
    @Test
    void stdoutPipeWhoseReaderExitsAfter1000Lines() throws Exception {
        Child c = new Child(false, "burst", "20000");
        Process p = c.start(ProcessBuilder.Redirect.PIPE).process;
        List<String> read = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null && read.size() < 1_000; line = r.readLine()) {
                read.add(line);
            }
        } // closing our end of the pipe: the child's next write fails with EPIPE
        Facts f = c.finish();
        assertEquals(1_000, read.size());
        int[] first = run(read);
        assertEquals(List.of(0, 1_000), List.of(first[0], first[1]), "the first 1,000 lines are seq 0..999 in order");
        f.assertAccountedWithoutExceptions();
        long readBytes = read.stream().mapToLong(line -> line.getBytes(StandardCharsets.UTF_8).length + 1).sum();
        // Bytes, not events: when the write that fails follows a short write, core counts every
        // record of the partly written range as lost, including those that did reach the reader
        // (the ring keeps no record boundaries), so EventsWritten may be below 1,000 here.
        assertTrue(f.get("BytesWritten") >= readBytes, () -> "BytesWritten covers the lines read (" + readBytes + "): " + f);
        assertTrue(f.get("EventsLost") > 0, f::toString);
        assertEquals(0, f.get("EventsDiscarded"), f::toString);
        f.assertStatuses(1, 0, 0);
        assertTrue(f.statuses.get(0).contains("Broken pipe"), f::toString);
    }

    /**
     * The log file hits the process's file size limit ({@code ulimit -f}, which binds root too,
     * unlike permissions): writes fail with EFBIG. The file is then truncated as logrotate's
     * {@code copytruncate} does, and writing resumes. Two such episodes: one ERROR and one INFO
     * each; every event logged after the second truncation arrives.
     */
    @Test
    void fileOverTheSizeLimitThenTruncatedTwice() throws Exception {
        Path file = dir.resolve("logs/app.log");
        Child c = new Child(true, "truncate", "20000", "1000");
        c.jvmArgs.add("-Dspool.it.file=" + file);
        // 1024 blocks: 512 KiB (dash, 512-byte blocks) or 1 MiB (bash); 20,000 events are about 1.9 MB.
        c.prefix.addAll(List.of("/bin/sh", "-c", "ulimit -f 1024 && exec \"$0\" \"$@\""));
        Facts f = c.start(ProcessBuilder.Redirect.to(dir.resolve("stdout.txt").toFile())).finish();
        f.assertAccountedWithoutExceptions();
        assertTrue(f.get("EventsLost") > 0, f::toString);
        assertTrue(f.get("WriteErrors") >= 2, f::toString);
        assertEquals(0, f.get("EventsDiscarded"), f::toString);
        f.assertStatuses(2, 0, 2);
        for (int episode = 0; episode < 2; episode++) {
            assertTrue(f.statuses.get(2 * episode).startsWith("ERROR") && f.statuses.get(2 * episode).contains("File too large"),
                    f::toString);
            assertTrue(f.statuses.get(2 * episode + 1).startsWith("INFO") && f.statuses.get(2 * episode + 1).contains("works again"),
                    f::toString);
        }
        for (String key : List.of("recoverMicros", "recoverMicros2")) {
            assertRecovered(f.get(key), "the first event after a truncation was written");
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        int[] run = run(lines);
        assertEquals(List.of(40_000, 1_000, 1_000), List.of(run[0], run[1], lines.size()),
                "after the second truncation the file holds exactly seq 40000..40999");
    }

    /**
     * The log file becomes immutable while logging ({@code chattr +i}, which stops root too):
     * writes on the open descriptor fail with EPERM and exactly the events logged meanwhile are
     * lost; clearing the flag recovers. Skipped where {@code chattr +i} is not allowed.
     */
    @Test
    void fileMadeImmutableThenWritableAgain() throws Exception {
        Path file = dir.resolve("logs/immutable.log");
        Child c = new Child(true, "immutable", "1000");
        c.jvmArgs.add("-Dspool.it.file=" + file);
        Facts f;
        try {
            f = c.start(ProcessBuilder.Redirect.to(dir.resolve("stdout.txt").toFile())).finish();
        } finally {
            // never leave an immutable file behind: @TempDir could not delete it
            new ProcessBuilder("chattr", "-i", file.toString()).redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
        }
        assumeTrue(!f.values.containsKey("unsupported"), "chattr +i not permitted here; stderr:\n" + f.stderr);
        f.assertAccountedWithoutExceptions();
        assertEquals(List.of(2_000L, 1_000L, 0L), List.of(f.get("EventsWritten"), f.get("EventsLost"), f.get("EventsDiscarded")),
                "written, lost, discarded: " + f);
        f.assertStatuses(1, 0, 1);
        assertTrue(f.statuses.get(0).contains("Operation not permitted"), f::toString);
        assertTrue(f.statuses.get(1).contains("works again; 1000 records were lost"), f::toString);
        assertRecovered(f.get("recoverMicros"), "the first event after chattr -i was written");
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(2_000, lines.size(), "lines in the file");
        int[] before = run(lines.subList(0, 1_000));
        int[] after = run(lines.subList(1_000, 2_000));
        assertEquals(List.of(0, 1_000, 2_000, 1_000), List.of(before[0], before[1], after[0], after[1]),
                "seq 0..999 before the fault, 2000..2999 after recovery");
    }

    /**
     * The file cannot be opened at start (its parent is a regular file: no directory can be made
     * there, by root either): one ERROR names the file and says the lines go to stderr, the
     * appender starts (its MBean exists), and every event arrives on the child's fd 2, in order,
     * none lost, without an exception in the application.
     */
    @Test
    void fileThatCannotBeOpenedAtStartGoesToStderr() throws Exception {
        Path blocker = dir.resolve("not-a-directory");
        Files.writeString(blocker, "a regular file where the log directory should be");
        Child c = new Child(true, "unopenable", "2000");
        c.jvmArgs.add("-Dspool.it.file=" + blocker.resolve("app.log"));
        Facts f = c.start(ProcessBuilder.Redirect.to(dir.resolve("stdout.txt").toFile())).finish();
        f.assertAccountedWithoutExceptions();
        assertEquals(1, f.get("registered"), f::toString);
        assertEquals(2000, f.get("EventsWritten"), f::toString);
        f.assertStatuses(0, 1, 0);
        assertTrue(f.statuses.get(0).contains("cannot open file " + blocker.resolve("app.log"))
                && f.statuses.get(0).contains("writing this appender's lines to stderr instead"), f::toString);
        List<String> events = f.stderr.lines().filter(l -> SEQ.matcher(l).find()).toList();
        assertEquals(List.of(0, 2000), List.of(run(events)[0], run(events)[1]), "seq 0..1999 on stderr, in order");
        assertEquals(2000, events.size());
        assertTrue(!f.stderr.contains("Exception in thread") && !f.stderr.contains("NullPointerException"), f::toString);
    }

    /**
     * O_NONBLOCK on the shared open file description of stdout, a reader slower than the writer:
     * EAGAIN is waited out, one WARN, nothing lost.
     */
    @Test
    void nonBlockingStdoutLosesNothing() throws Exception {
        Child c = new Child(false, "nonblocking", "20000");
        c.jvmArgs.add("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
        Process p = c.start(ProcessBuilder.Redirect.PIPE).process;
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        long recoverMicros = eagainRecoveryMicros(c, p.getInputStream(), all);
        List<String> lines = readSlowly(p.getInputStream(), all);
        Facts f = c.finish();
        System.out.println(framework() + " fault run nonblocking: the writer wrote again " + recoverMicros
                + " µs after the full pipe was emptied");
        assertTrue(recoverMicros >= 0, "the writer met EAGAIN and then wrote again: " + f);
        assertRecovered(recoverMicros, "the writer wrote again after EAGAIN");
        f.assertAccountedWithoutExceptions();
        assertEquals(20_000, f.get("EventsWritten"), f::toString);
        assertEquals(0, f.get("EventsLost"), f::toString);
        f.assertStatuses(0, 1, 0);
        assertTrue(f.statuses.get(0).contains("EAGAIN"), f::toString);
        assertEquals(20_000, run(lines)[1], "every line, in order");
        assertEquals(20_000, lines.size());
    }

    /**
     * The reader stops for 2 s, then drains. DISCARD: the application never waits, what did not
     * fit is discarded, counted and reported in the stream; lines after the stall arrive.
     */
    @Test
    void stallWithDiscardNeverWaits() throws Exception {
        Stall s = stall("DISCARD");
        Facts f = s.facts;
        f.assertAccountedWithoutExceptions();
        assertEquals(0, f.get("EventsLost"), f::toString);
        assertTrue(f.get("EventsDiscarded") > 0, f::toString);
        assertEquals(-1, f.get("firstSlowCall"), () -> "a call took 500 ms or more: it waited for the stalled sink: " + f);
        long summarised = 0;
        List<String> data = new ArrayList<>();
        int last = -1;
        for (String line : s.lines) {
            Matcher m = SUMMARY.matcher(line);
            if (m.find()) {
                summarised += Long.parseLong(m.group(1));
                continue;
            }
            int seq = seq(line);
            assertTrue(seq > last, "order: " + seq + " after " + last);
            last = seq;
            data.add(line);
        }
        assertEquals(f.get("EventsWritten"), data.size(), "event lines in the stream = EventsWritten");
        assertEquals(f.get("EventsDiscarded"), summarised, "the summary lines report every discard");
        int[] tail = run(data.subList(data.size() - 1_000, data.size()));
        assertEquals(STALL_EVENTS - 1_000, tail[0], "the last 1,000 events, all logged after the stall, arrive");
        assertEquals(1_000, tail[1], "... without a gap");
        f.assertStatuses(0, 0, 0);
    }

    /**
     * The reader stops for 2 s, then drains. BLOCK: the application waits only once the ring is at
     * its cap, and nothing is lost.
     */
    @Test
    void stallWithBlockWaitsOnlyAtTheCap() throws Exception {
        Stall s = stall("BLOCK");
        Facts f = s.facts;
        f.assertAccountedWithoutExceptions();
        assertEquals(STALL_EVENTS, f.get("EventsWritten"), f::toString);
        assertEquals(0, f.get("EventsDiscarded"), f::toString);
        assertEquals(f.get("BufferBytesMax"), f.get("BufferBytesHighWater"), "the ring reached its cap: " + f);
        assertEquals(STALL_EVENTS, run(s.lines)[1], "every line, in order");
        long firstSlow = f.get("firstSlowCall");
        assertTrue(firstSlow > 0, "a 2 s stall makes a BLOCK caller wait at the cap: " + f);
        long before = 0;
        for (int i = 0; i < firstSlow; i++) {
            before += s.lines.get(i).getBytes(StandardCharsets.UTF_8).length + 1;
        }
        // Before its first long wait the caller had handed over more than the ring holds at its cap
        // (less two cells of slack): it did not wait while there was room.
        assertTrue(before >= f.get("BufferBytesMax") - 2 * CELL, "bytes accepted before the first wait: " + before + "; " + f);
        f.assertStatuses(0, 0, 0);
    }

    private Stall stall(String policy) throws Exception {
        Child c = new Child(false, "paced", Integer.toString(STALL_EVENTS));
        c.stallPolicy = policy;
        Process p = c.start(ProcessBuilder.Redirect.PIPE).process;
        List<String> lines = new ArrayList<>();
        List<Long> readAt = new ArrayList<>();
        long lifted;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line = r.readLine();
            if (line == null) {
                fail("no output; " + c.stderr());
            }
            lines.add(line);
            readAt.add(System.nanoTime());
            Thread.sleep(2_000); // the fault itself: the sink stalls for 2 s, not a synchronisation
            lifted = System.nanoTime();
            try (OutputStream toChild = p.getOutputStream()) {
                toChild.write('\n'); // the stall is over: the child notes the event it is logging (liftSeq)
            }
            for (line = r.readLine(); line != null; line = r.readLine()) {
                lines.add(line);
                readAt.add(System.nanoTime());
            }
        }
        Facts f = c.finish();
        // Time to recover: from the end of the stall to the first line of an event logged after it
        // (the ring's and the pipe's backlog are written first).
        long liftSeq = f.get("liftSeq");
        assertTrue(liftSeq >= 0, () -> "the child saw the end of the stall: " + f);
        long recoverMicros = -1;
        for (int i = 1; i < lines.size() && liftSeq < STALL_EVENTS; i++) {
            Matcher m = SEQ.matcher(lines.get(i));
            if (m.find() && Integer.parseInt(m.group(1)) >= liftSeq) {
                recoverMicros = TimeUnit.NANOSECONDS.toMicros(readAt.get(i) - lifted);
                break;
            }
        }
        System.out.println(framework() + " fault run paced " + policy + ": the stall ended at event " + liftSeq
                + "; the first line from it on was read " + recoverMicros + " µs later");
        if (liftSeq < STALL_EVENTS) { // else the child had logged every event before the stall ended
            assertRecovered(recoverMicros, "a line logged after the stall arrived");
        }
        return new Stall(f, lines);
    }

    /** Liveness, not speed: the sink works again well within {@link #RECOVER_BOUND_MICROS}. */
    private static void assertRecovered(long micros, String what) {
        assertTrue(micros >= 0 && micros < RECOVER_BOUND_MICROS, what + " within 10 s of the fault's end: " + micros + " µs");
    }

    /**
     * Reads nothing until the child reports that its writer met EAGAIN ({@code spool-eagain} on
     * standard error: the pipe is full and the writer waits), then empties the pipe in one read and
     * times how long the writer takes to write again: the time to recover from EAGAIN, measured
     * from the read that made room, so an upper bound. (The pipe's fill level does not tell: Linux
     * starts a new page for a write that does not fit in the last one, so a full pipe holds
     * anywhere from about 56 to 64 KiB.)
     *
     * @return microseconds, or -1 if the writer met no EAGAIN within 10 s or never wrote again
     */
    private static long eagainRecoveryMicros(Child c, InputStream in, ByteArrayOutputStream all) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!c.stderr().contains("spool-eagain")) {
            if (System.nanoTime() - deadline > 0) {
                return -1;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling a condition, bounded
        }
        byte[] full = new byte[in.available()];
        long lifted = System.nanoTime();
        all.write(full, 0, in.readNBytes(full, 0, full.length));
        int next = in.read(); // blocks until the writer writes again
        long micros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - lifted);
        if (next < 0) {
            return -1;
        }
        all.write(next);
        return micros;
    }

    /** Reads 16 KiB, then pauses 5 ms: slower than the child's writer, so the pipe fills. Appends to {@code all}. */
    private static List<String> readSlowly(InputStream in, ByteArrayOutputStream all) throws IOException, InterruptedException {
        byte[] buf = new byte[16 * 1024];
        for (int n = in.read(buf); n > 0; n = in.read(buf)) {
            all.write(buf, 0, n);
            Thread.sleep(5); // load shaping, not synchronisation
        }
        List<String> lines = new ArrayList<>(List.of(all.toString(StandardCharsets.UTF_8).split("\n", -1)));
        assertEquals("", lines.remove(lines.size() - 1), "output ends with a complete line");
        return lines;
    }

    private static int seq(String line) {
        Matcher m = SEQ.matcher(line);
        assertTrue(m.find(), () -> "damaged line: " + line);
        return Integer.parseInt(m.group(1));
    }

    /** @return {first seq, length of the run of consecutive seqs from the first line}; fails on a damaged line */
    private static int[] run(List<String> lines) {
        if (lines.isEmpty()) {
            return new int[] {-1, 0};
        }
        int first = seq(lines.get(0));
        int n = 1;
        while (n < lines.size() && seq(lines.get(n)) == first + n) {
            n++;
        }
        return new int[] {first, n};
    }

    private record Stall(Facts facts, List<String> lines) {
    }

    /** One forked JVM running {@link #faultMain()}. */
    private final class Child {
        final List<String> prefix = new ArrayList<>();
        final List<String> jvmArgs = new ArrayList<>();
        final boolean file;
        String stallPolicy;
        final String[] args;
        final Path stderr = dir.resolve("stderr-" + System.nanoTime() + ".txt");
        Process process;

        Child(boolean file, String... args) {
            this.file = file;
            this.args = args;
        }

        Child start(ProcessBuilder.Redirect stdout) throws Exception {
            List<String> cmd = new ArrayList<>(prefix);
            cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:-UsePerfData", "-XX:TieredStopAtLevel=1",
                    "-cp", ChildClassPath.withoutSpring()));
            cmd.addAll(configure(dir, file, stallPolicy));
            cmd.addAll(jvmArgs);
            cmd.add(faultMain().getName());
            cmd.addAll(List.of(args));
            process = new ProcessBuilder(cmd).redirectOutput(stdout).redirectError(stderr.toFile()).start();
            return this;
        }

        /** Waits (bounded) for a clean exit and parses what the child reported. */
        Facts finish() throws Exception {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("the application hung: forked JVM still running after 30 s; stderr:\n" + stderr());
            }
            String err = stderr();
            assertEquals(0, process.exitValue(), () -> "exit code; stderr:\n" + err);
            Facts f = Facts.parse(err, statusLine());
            // The figures docs/reliability.md quotes.
            System.out.println(framework() + " fault run " + String.join(" ", args) + (prefix.isEmpty() ? "" : " (sh: " + prefix.get(2) + ")") + " " + jvmArgs
                    + (stallPolicy == null ? "" : " " + stallPolicy) + ": " + new TreeMap<>(f.values)
                    + " statuses=" + f.statuses);
            return f;
        }

        String stderr() throws IOException {
            return Files.readString(stderr);
        }
    }

    /** The child's {@code spool-facts} line and the appender's status messages, in order. */
    private static final class Facts {
        final Map<String, Long> values = new HashMap<>();
        final List<String> statuses = new ArrayList<>();
        final String stderr;

        private Facts(String stderr) {
            this.stderr = stderr;
        }

        static Facts parse(String stderr, Pattern status) {
            Facts f = new Facts(stderr);
            for (String line : stderr.split("\n")) {
                if (line.startsWith("spool-facts ")) {
                    for (String kv : line.substring(12).trim().split(" ")) {
                        int eq = kv.indexOf('=');
                        f.values.put(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)));
                    }
                }
                Matcher m = status.matcher(line);
                if (m.matches()) {
                    f.statuses.add(m.group(1) + " " + m.group(2));
                }
            }
            assertTrue(!f.values.isEmpty(), () -> "no spool-facts line; stderr:\n" + stderr);
            return f;
        }

        long get(String key) {
            Long v = values.get(key);
            assertTrue(v != null, () -> "no " + key + " in " + this);
            return v;
        }

        void assertAccountedWithoutExceptions() {
            assertEquals(0, get("exceptions"), () -> "exceptions reached the application thread: " + this);
            assertEquals(1, get("drained"), () -> "the appender did not account for every event: " + this);
            assertEquals(get("attempted"), get("EventsWritten") + get("EventsLost") + get("EventsDiscarded"),
                    () -> "attempted = written + lost + discarded: " + this);
        }

        void assertStatuses(int errors, int warnings, int infos) {
            assertEquals(errors + " ERROR, " + warnings + " WARN, " + infos + " INFO",
                    count("ERROR") + " ERROR, " + count("WARN") + " WARN, " + count("INFO") + " INFO",
                    () -> "status messages of the appender: " + this);
        }

        private long count(String level) {
            return statuses.stream().filter(s -> s.startsWith(level + " ")).count();
        }

        @Override
        public String toString() {
            return values + " statuses=" + statuses + "\nstderr:\n" + stderr;
        }
    }
}
