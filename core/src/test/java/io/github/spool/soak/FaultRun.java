package io.github.spool.soak;

import java.io.FileDescriptor;
import java.lang.reflect.Method;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The program {@link FaultInjectionContract} runs in a forked JVM, the same for both adapters
 * (each adapter's {@code it.FaultMain} hands it its framework), with standard output or the log
 * file broken in some way by the test. One thread (the "application") logs numbered events
 * {@code seq=<n> <payload>} through the framework into the Spool appender named {@code out},
 * catching and counting anything the call throws (there must be nothing), and timing every call.
 * Then it waits until the appender has accounted for every event (written, lost to the fault or
 * discarded), reads its counters from the JMX MBean, stops the framework and prints one line to standard
 * error (and, for logback, one {@code spool-status <LEVEL> <message>} line per status the appender
 * left):
 *
 * <pre>spool-facts attempted=.. exceptions=.. drained=0|1 ... EventsWritten=.. EventsLost=.. EventsDiscarded=.. ...</pre>
 *
 * <p>Modes ({@code args[0]}), {@code args[1]} events:
 * <ul>
 * <li>{@code burst}: log as fast as possible;
 * <li>{@code nonblocking}: first set O_NONBLOCK on file descriptor 1 — the flag lives on the open
 *     file description the parent shares, so this is what a parent setting it would do — then
 *     burst; prints {@code spool-eagain} on standard error once the writer has met EAGAIN (the
 *     test reads nothing until then, and then times how soon the writer resumes);
 * <li>{@code paced}: 10,000 events a second (catching up after a wait), so that the run spans a
 *     stall of the sink. The test writes a byte to standard input when it ends the stall; the
 *     child reports the event it was logging then as {@code liftSeq} (the test times the arrival of
 *     the first line from {@code liftSeq} on);
 * <li>{@code truncate}: two fault episodes, each a burst into the file {@code -Dspool.it.file} past
 *     the file size limit ({@code ulimit -f}, set by the test), which makes writes fail, then a
 *     truncation of the file as logrotate's {@code copytruncate} does; then {@code args[2]} more
 *     events, which must arrive. The time to recover from each episode, from the truncation to
 *     the first event after it written, is in {@code recoverMicros} and {@code recoverMicros2};
 * <li>{@code immutable}: log {@code args[1]} events into the file {@code -Dspool.it.file}, make the
 *     file immutable ({@code chattr +i}: writes on the open descriptor fail with EPERM, for root
 *     too), log as many again, which are lost, clear the flag and log as many again, which must
 *     arrive; {@code recoverMicros} is the time from {@code chattr -i} returning to the first
 *     event after it written. Prints {@code spool-facts unsupported=1} if {@code chattr +i} fails (no
 *     CAP_LINUX_IMMUTABLE, or a file system without the flag);
 * <li>{@code unopenable}: the configured file cannot be opened, so the appender writes to stderr
 *     (fd 2) instead: log {@code args[1]} events, wait until they are accounted for, and report
 *     whether the MBean exists ({@code registered=0|1}) and the counters.
 * </ul>
 */
public final class FaultRun {

    /** Fixed payload: with the pattern, lines of about 100 bytes. */
    public static final String PAYLOAD = FaultInjectionContract.PAYLOAD;

    /** What the run needs of the framework. */
    public interface Framework {
        /**
         * Logs {@code "seq={} {}"} with {@code seq} and {@link #PAYLOAD} at INFO.
         *
         * @param seq the event's number
         */
        void info(int seq);

        /** Stops the framework, draining the appender, and prints what the adapter reports. */
        void stop();
    }

    /** A call longer than this counts as having waited for the sink. */
    static final long SLOW_CALL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final Framework framework;
    private long attempted;
    private long exceptions;
    private long maxCallNanos;
    private long firstSlowCall = -1;
    /** The event being logged, or the next one between two calls (read by the lift watcher). */
    private volatile int current;
    private volatile int liftSeq = -1;
    /** Time-to-recover figures for the facts line. */
    private final StringBuilder recovery = new StringBuilder();

    private FaultRun(Framework framework) {
        this.framework = framework;
    }

    /**
     * Runs the program; an adapter's {@code main} calls this first thing.
     *
     * @param args      mode, events, and for {@code truncate} the events after the truncation
     * @param framework the framework, created lazily: in {@code nonblocking} mode descriptor 1 is
     *                  made non-blocking before the framework starts
     * @throws Exception if the MBean cannot be read (the test then fails on the missing facts)
     */
    public static void run(String[] args, java.util.function.Supplier<Framework> framework) throws Exception {
        String mode = args[0];
        int events = Integer.parseInt(args[1]);
        if (mode.equals("nonblocking")) {
            setNonBlocking(FileDescriptor.out);
        }
        FaultRun app = new FaultRun(framework.get());
        if (mode.equals("nonblocking")) {
            FaultProbe.watchForEagain();
        }
        if (mode.equals("unopenable")) {
            app.log(0, events, false);
            boolean registered = FaultProbe.isRegistered();
            boolean drained = registered && app.awaitAccounted();
            System.err.println("spool-facts attempted=" + app.attempted + " exceptions=" + app.exceptions
                    + " registered=" + (registered ? 1 : 0) + " drained=" + (drained ? 1 : 0)
                    + " maxCallMicros=" + TimeUnit.NANOSECONDS.toMicros(app.maxCallNanos) + (registered ? app.counters() : ""));
            app.framework.stop();
            return;
        }
        if (mode.equals("truncate")) {
            app.log(0, events, false);
            for (int episode = 0; episode < 2; episode++) {
                app.awaitAccounted();
                // Everything so far is written or lost: now rotate the way copytruncate does.
                try (FileChannel ch = FileChannel.open(Paths.get(System.getProperty("spool.it.file")), StandardOpenOption.WRITE)) {
                    ch.truncate(0);
                }
                long lifted = System.nanoTime();
                int next = (episode + 1) * events;
                app.recovery.append(" recoverMicros").append(episode == 0 ? "" : "2").append('=')
                        .append(FaultProbe.firstWriteAfter(lifted, () -> app.log(next, 1, false)));
                app.log(next + 1, (episode == 0 ? events : Integer.parseInt(args[2])) - 1, false);
            }
        } else if (mode.equals("immutable")) {
            String file = System.getProperty("spool.it.file");
            app.log(0, events, false);
            app.awaitAccounted();
            if (!chattr("+i", file)) {
                System.err.println("spool-facts unsupported=1");
                return;
            }
            try {
                app.log(events, events, false);
                app.awaitAccounted();
            } finally {
                chattr("-i", file);
            }
            long lifted = System.nanoTime();
            app.recovery.append(" recoverMicros=").append(FaultProbe.firstWriteAfter(lifted, () -> app.log(2 * events, 1, false)));
            app.log(2 * events + 1, events - 1, false);
        } else {
            if (mode.equals("paced")) {
                FaultProbe.watchForLift(() -> app.current, seq -> app.liftSeq = seq);
            }
            app.log(0, events, mode.equals("paced"));
        }
        boolean drained = app.awaitAccounted();
        if (mode.equals("paced")) {
            app.recovery.append(" liftSeq=").append(app.liftSeq);
        }
        String counters = app.counters();
        long stopStart = System.nanoTime();
        app.framework.stop();
        long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopStart);
        System.err.println("spool-facts attempted=" + app.attempted + " exceptions=" + app.exceptions
                + " drained=" + (drained ? 1 : 0) + " maxCallMicros=" + TimeUnit.NANOSECONDS.toMicros(app.maxCallNanos)
                + " firstSlowCall=" + app.firstSlowCall + " stopMillis=" + stopMillis + counters + app.recovery);
    }

    private void log(int from, int count, boolean paced) {
        long start = System.nanoTime();
        for (int i = from; i < from + count; i++) {
            current = i;
            long t0 = System.nanoTime();
            try {
                framework.info(i);
            } catch (Throwable t) {
                exceptions++;
            }
            long took = System.nanoTime() - t0;
            current = i + 1;
            attempted++;
            if (took > maxCallNanos) {
                maxCallNanos = took;
            }
            if (took > SLOW_CALL_NANOS && firstSlowCall < 0) {
                firstSlowCall = i;
            }
            if (paced && i % 100 == 99) {
                long wait = start + (i + 1 - from) * 100_000L - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait); // load shaping, not synchronisation
                }
            }
        }
    }

    /** Polls the MBean until written + lost + discarded = attempted; at most 20 s. */
    private boolean awaitAccounted() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() - deadline < 0) {
            if (FaultProbe.get("EventsWritten") + FaultProbe.get("EventsLost") + FaultProbe.get("EventsDiscarded") == attempted) {
                return true;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return false;
    }

    private String counters() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (String a : new String[] {"EventsWritten", "EventsLost", "EventsDiscarded", "WriteErrors", "BytesWritten",
                "BufferBytesHighWater", "BufferBytesMax"}) {
            sb.append(' ').append(a).append('=').append(FaultProbe.get(a));
        }
        return sb.toString();
    }

    /** Runs {@code chattr flag file}; returns whether it succeeded. */
    private static boolean chattr(String flag, String file) throws Exception {
        Process p = new ProcessBuilder("chattr", flag, file).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            System.err.println("chattr " + flag + " failed: " + out.trim());
            return false;
        }
        return true;
    }

    /** Needs {@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED}: the JDK has no public API for it. */
    static void setNonBlocking(FileDescriptor fd) throws ReflectiveOperationException {
        Method m = Class.forName("sun.nio.ch.IOUtil").getDeclaredMethod("configureBlocking", FileDescriptor.class, boolean.class);
        m.setAccessible(true);
        m.invoke(null, fd, false);
    }
}
