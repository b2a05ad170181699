package io.github.spool.bench.undertow;

import io.github.spool.SpoolConfig;
import io.github.spool.bench.e2e.RequestWorkload;
import io.github.spool.undertow.SpoolAccessLogReceiver;
import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.server.handlers.accesslog.AccessLogHandler;
import io.undertow.server.handlers.accesslog.DefaultAccessLogReceiver;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.Xnio;
import org.xnio.XnioWorker;

/**
 * End to end: a loopback Undertow server with a small handler (answers "ok" on the I/O thread),
 * driven by keep-alive HTTP/1.1 clients in the same JVM, with five access-log set-ups in the same
 * run: none; Undertow's {@code DefaultAccessLogReceiver} on its own XNIO worker with the
 * {@code common} pattern ({@code %t}), wired as Spring Boot 3.5.7's
 * {@code AccessLogHttpHandlerFactory} wires it; and {@link SpoolAccessLogReceiver} to a file with
 * {@code common} written out with {@code %{spoolTime}}; and, as the floor of any receiver, the same
 * {@code AccessLogHandler} and pattern with a receiver that drops each line, once with
 * {@code %{spoolTime}} and once with Undertow's {@code %t} (what the time attribute costs). Two load shapes: flat out (each client
 * sends its next request when the previous answer arrives) and a fixed total rate (a quarter of
 * the no-log flat-out rate by default, latency measured from each request's intended send time, so a stall is
 * not hidden by the clients slowing down). Set-ups alternate within each round, each run in a
 * JVM of its own by default.
 *
 * <p>Reported per run: requests per second, latency p50/p99/max, CPU per request of everything
 * but the client threads (process CPU time minus the clients' thread CPU time: server I/O
 * threads, the log writer, GC and JIT), and whether the log holds exactly one line per request
 * once the receiver is closed (waited for, not assumed).
 *
 * <p>{@code java -cp benchmarks.jar io.github.spool.bench.undertow.AccessLogServerBench}; system
 * properties {@code clients} (4), {@code warmupSeconds} (3), {@code measureSeconds} (5),
 * {@code rounds} (5), {@code rateFraction} (0.25; 0 runs flat out only), {@code rate} (none: a
 * fixed rate in requests/s, flat out skipped), {@code workMicros} (0: busy work per request in
 * the handler), {@code ioThreads} (Undertow's default), {@code pin} (false: on Linux, true puts
 * the clients on CPU 1 and the rest of the process on CPU 0 with {@code taskset}), {@code fork}
 * (true: a JVM per run), and Spool's own {@code spool.*} settings. Prints every run, then the
 * medians over the rounds.
 */
public final class AccessLogServerBench {

    enum Setup { NONE, UNDERTOW_DEFAULT, SPOOL, DISCARDING, DISCARDING_COMMON }

    /** Name of the default receiver's own XNIO worker; its threads are named after it. */
    static final String LOG_WORKER_NAME = "accesslog";
    static final String UNDERTOW_PATTERN = "common"; // %h %l %u %t "%r" %s %b
    static final String SPOOL_PATTERN = "%h %l %u %{spoolTime} \"%r\" %s %b";
    static final byte[] REQUEST = "GET /hello?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: bench\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);

    private final int clients = Integer.getInteger("clients", 4);
    /** Busy CPU per request in the handler, microseconds: a stand-in for the application's own work. */
    private final long workNanos = TimeUnit.MICROSECONDS.toNanos(Integer.getInteger("workMicros", 0));
    private final long warmupNanos = TimeUnit.SECONDS.toNanos(Integer.getInteger("warmupSeconds", 3));
    private final long measureNanos = TimeUnit.SECONDS.toNanos(Integer.getInteger("measureSeconds", 5));
    private final int rounds = Integer.getInteger("rounds", 5);
    /** The fixed rate as a share of the no-log flat-out rate: low enough that the clients, on the same cores, keep up. */
    private final double rateFraction = Double.parseDouble(System.getProperty("rateFraction", "0.25"));
    /** A fixed rate in requests per second instead of {@link #rateFraction}; the flat-out rounds are then skipped. */
    private final double fixedRate = Double.parseDouble(System.getProperty("rate", "0"));
    /**
     * Linux only: the client threads on CPU 1, every other thread of the process (server I/O threads,
     * the log's writer or worker, GC, JIT) on CPU 0, so that the server side has one core of its own
     * and its cost per request is not mixed with the clients' scheduling.
     */
    static final boolean PIN = Boolean.getBoolean("pin");

    /**
     * Undertow's I/O threads; 0 keeps Undertow's default (one per CPU, at least two). XNIO hands
     * each accepted connection to one I/O thread chosen at random ({@code NioXnioWorker.chooseThread},
     * XNIO 3.8), so with two I/O threads and two connections both share one thread in about half of
     * the JVMs, and the throughput is bimodal (measured with 20 µs of work: 26k or 60k requests/s).
     * One I/O thread makes every run the same shape: it serves both connections.
     */
    static final int IO_THREADS = Integer.getInteger("ioThreads", 0);

    private AccessLogServerBench() {
    }

    /**
     * With {@code fork} (true by default) every run is a JVM of its own, started by this one with
     * the same class path and settings: the set-ups do not share a JIT profile (otherwise the handler
     * call sites see four handler chains and the first set-up of a round compiles against the others'
     * types), nor a heap. {@code fork=false} runs everything in this JVM, as before.
     */
    static final boolean FORK = Boolean.parseBoolean(System.getProperty("fork", "true"));

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("--one")) {
            final Result r = new AccessLogServerBench().runHere(Setup.valueOf(args[1]), Double.parseDouble(args[2]));
            System.out.printf(Locale.ROOT, "RESULT %s %d %d %d %d %d %b %s %s%n", Double.toString(r.perSecond), r.p50,
                    r.p99, r.max, r.requests, r.lines, r.linesOk, Double.toString(r.cpuMicrosPerRequest),
                    Double.toString(r.logThreadMicrosPerRequest));
            return;
        }
        new AccessLogServerBench().runAll();
    }

    private Result run(Setup setup, double rate) throws Exception {
        return FORK ? runForked(setup, rate) : runHere(setup, rate);
    }

    /**
     * This JVM's Spool settings ({@code spool.*} system properties) as {@code -D} options, so that a
     * child JVM measures the same configuration (e.g. {@code -Dspool.clock=cached}).
     *
     * @return one {@code -Dname=value} per setting
     */
    public static java.util.List<String> spoolSettings() {
        final java.util.List<String> options = new java.util.ArrayList<>();
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("spool.")) {
                options.add("-D" + key + "=" + System.getProperty(key));
            }
        }
        return options;
    }

    /** One run in a child JVM: same class path, same {@code -D} settings of this benchmark and Spool's. */
    private static Result runForked(Setup setup, double rate) throws Exception {
        final java.util.List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(spoolSettings());
        for (String key : java.util.List.of("clients", "warmupSeconds", "measureSeconds", "pin", "workMicros", "ioThreads")) {
            if (System.getProperty(key) != null) {
                cmd.add("-D" + key + "=" + System.getProperty(key));
            }
        }
        cmd.add("-Xms512m");
        cmd.add("-Xmx512m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(AccessLogServerBench.class.getName());
        cmd.add("--one");
        cmd.add(setup.name());
        cmd.add(Double.toString(rate));
        final Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("run " + setup + " failed: " + out);
        }
        for (String line : out.split("\n")) {
            if (line.startsWith("RESULT ")) {
                final String[] f = line.trim().split(" ");
                final Result r = new Result();
                r.perSecond = Double.parseDouble(f[1]);
                r.p50 = Long.parseLong(f[2]);
                r.p99 = Long.parseLong(f[3]);
                r.max = Long.parseLong(f[4]);
                r.requests = Long.parseLong(f[5]);
                r.lines = Long.parseLong(f[6]);
                r.linesOk = Boolean.parseBoolean(f[7]);
                r.cpuMicrosPerRequest = Double.parseDouble(f[8]);
                r.logThreadMicrosPerRequest = Double.parseDouble(f[9]);
                return r;
            }
        }
        throw new IllegalStateException("run " + setup + " printed no result: " + out);
    }

    private void runAll() throws Exception {
        System.out.printf(Locale.ROOT, "# %d clients, warm-up %d s, measure %d s, %d rounds, rate %.2f of flat out, %d CPUs, %s%s%s%n",
                clients, TimeUnit.NANOSECONDS.toSeconds(warmupNanos), TimeUnit.NANOSECONDS.toSeconds(measureNanos), rounds,
                rateFraction,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"),
                PIN ? ", clients pinned to CPU 1, the rest to CPU 0" : "",
                FORK ? ", a JVM per run (-Xms512m -Xmx512m)" : ", all runs in this JVM");
        System.out.println("| load | round | access log | req/s | vs none | p50 µs | p99 µs | max µs | CPU µs/req | of it log threads | lines = requests |");
        System.out.println("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|");
        // In one JVM: one unreported flat-out run per set-up first, so that the JIT compiles every path
        // before round 1. Forked, each run warms itself up.
        if (!FORK) {
            for (Setup s : Setup.values()) {
                run(s, 0);
            }
        }
        final Result[][] flat = fixedRate > 0 ? new Result[0][] : rounds(0, "flat out");
        final double rate = fixedRate > 0 ? fixedRate
                : Math.floor(median(flat, Setup.NONE, x -> x.perSecond) * rateFraction / 100) * 100;
        final String rateLoad = String.format(Locale.ROOT, "%.0f req/s", rate);
        final Result[][] fixed = rate > 0 ? rounds(rate, rateLoad) : new Result[0][]; // rateFraction=0: flat out only
        System.out.println();
        System.out.println("Medians over the rounds (the ratio is the median of each round's ratio to that round's none):");
        System.out.println();
        System.out.println("| load | access log | req/s | vs none | p99 µs | CPU µs/req | CPU vs none | log threads µs/req |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|");
        if (flat.length > 0) {
            summary("flat out", flat);
        }
        if (fixed.length > 0) {
            summary(rateLoad, fixed);
        }
    }

    private Result[][] rounds(double rate, String load) throws Exception {
        final Result[][] results = new Result[rounds][Setup.values().length];
        for (int r = 0; r < rounds; r++) {
            for (Setup s : Setup.values()) {
                results[r][s.ordinal()] = run(s, rate);
                print(load, r + 1, s, results[r][s.ordinal()], results[r][0].perSecond);
            }
        }
        return results;
    }

    private static void summary(String load, Result[][] results) {
        for (Setup s : Setup.values()) {
            final double rps = median(results, s, x -> x.perSecond);
            final double cpu = median(results, s, x -> x.cpuMicrosPerRequest);
            final double p99 = median(results, s, x -> x.p99);
            final double logThreads = median(results, s, x -> x.logThreadMicrosPerRequest);
            final double[] ratio = new double[results.length];
            final double[] cpuRatio = new double[results.length];
            for (int r = 0; r < results.length; r++) {
                ratio[r] = results[r][s.ordinal()].perSecond / results[r][0].perSecond - 1;
                cpuRatio[r] = results[r][s.ordinal()].cpuMicrosPerRequest / results[r][0].cpuMicrosPerRequest - 1;
            }
            System.out.printf(Locale.ROOT, "| %s | %s | %,.0f | %s | %.0f | %.1f | %s | %.2f |%n", load, name(s), rps,
                    s == Setup.NONE ? "" : String.format(Locale.ROOT, "%+.1f%%", median(ratio) * 100), p99, cpu,
                    s == Setup.NONE ? "" : String.format(Locale.ROOT, "%+.0f%%", median(cpuRatio) * 100), logThreads);
        }
    }

    private static double median(Result[][] results, Setup s, java.util.function.ToDoubleFunction<Result> f) {
        final double[] v = new double[results.length];
        for (int r = 0; r < results.length; r++) {
            v[r] = f.applyAsDouble(results[r][s.ordinal()]);
        }
        return median(v);
    }

    private static double median(double[] v) {
        final double[] c = v.clone();
        java.util.Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    private static void print(String load, int round, Setup s, Result r, double none) {
        System.out.printf(Locale.ROOT, "| %s | %d | %s | %,.0f | %s | %d | %d | %d | %.1f | %.2f | %s |%n", load, round, name(s),
                r.perSecond, s == Setup.NONE ? "" : String.format(Locale.ROOT, "%+.1f%%", (r.perSecond / none - 1) * 100),
                r.p50, r.p99, r.max,
                r.cpuMicrosPerRequest, r.logThreadMicrosPerRequest, s == Setup.NONE || s == Setup.DISCARDING || s == Setup.DISCARDING_COMMON ? "n/a" : r.linesOk ? "yes" : "NO: " + r.lines + " lines, "
                        + r.requests + " requests");
    }

    private static String name(Setup s) {
        switch (s) {
            case NONE: return "none";
            case UNDERTOW_DEFAULT: return "Undertow DefaultAccessLogReceiver, `%t`";
            case SPOOL: return "SpoolAccessLogReceiver, `%{spoolTime}`";
            case DISCARDING: return "a receiver that drops the line, `%{spoolTime}`";
            default: return "a receiver that drops the line, `%t`";
        }
    }

    /** One run: a fresh server and log file, warm-up, measurement, then close and count the lines. */
    private Result runHere(Setup setup, double rate) throws Exception {
        final Path dir = Files.createTempDirectory("spool-undertow-bench");
        final long work = workNanos;
        final HttpHandler app = exchange -> {
            RequestWorkload.work(work);
            exchange.getResponseSender().send("ok");
        };
        XnioWorker logWorker = null;
        DefaultAccessLogReceiver defaultReceiver = null;
        SpoolAccessLogReceiver spoolReceiver = null;
        HttpHandler handler = app;
        switch (setup) {
            case UNDERTOW_DEFAULT:
                // As Spring Boot 3.5.7's AccessLogHttpHandlerFactory: its own daemon XNIO worker.
                logWorker = Xnio.getInstance(Undertow.class.getClassLoader())
                        .createWorker(OptionMap.builder().set(Options.THREAD_DAEMON, true)
                                .set(Options.WORKER_NAME, LOG_WORKER_NAME).getMap());
                defaultReceiver = new DefaultAccessLogReceiver(logWorker, dir.toFile(), "access_log.", "log", true);
                handler = new AccessLogHandler(app, defaultReceiver, UNDERTOW_PATTERN, Undertow.class.getClassLoader());
                break;
            case SPOOL:
                // As SpoolAccessLogCustomizer configures it (the access log's 100 ms writer nap).
                spoolReceiver = SpoolAccessLogReceiver.start(SpoolConfig.builder(SpoolAccessLogReceiver.DEFAULT_NAME)
                        .context("bench").writerNapMicros(SpoolAccessLogReceiver.defaultWriterNapMicros())
                        .file(dir.resolve("access_log.log")).build());
                handler = new AccessLogHandler(app, spoolReceiver, SPOOL_PATTERN, AccessLogServerBench.class.getClassLoader());
                break;
            case DISCARDING:
                // The floor: AccessLogHandler building each line, nothing written.
                handler = new AccessLogHandler(app, message -> { }, SPOOL_PATTERN, AccessLogServerBench.class.getClassLoader());
                break;
            case DISCARDING_COMMON:
                // The same floor with Undertow's own %t: what the cached clock and Spool's text save or cost.
                handler = new AccessLogHandler(app, message -> { }, UNDERTOW_PATTERN, AccessLogServerBench.class.getClassLoader());
                break;
            default:
                break;
        }
        final Undertow.Builder builder = Undertow.builder().addHttpListener(0, "127.0.0.1").setHandler(handler);
        if (IO_THREADS > 0) {
            builder.setIoThreads(IO_THREADS);
        }
        final Undertow server = builder.build();
        server.start();
        final Result result;
        try {
            final int port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
            result = drive(port, rate);
        } finally {
            server.stop();
        }
        if (defaultReceiver != null) {
            defaultReceiver.close(); // then, as Spring Boot's ClosableAccessLogHandler, end the worker
            logWorker.shutdown();
            logWorker.awaitTermination(60, TimeUnit.SECONDS);
        }
        if (spoolReceiver != null) {
            spoolReceiver.stop(60, TimeUnit.SECONDS);
        }
        if (setup == Setup.UNDERTOW_DEFAULT || setup == Setup.SPOOL) {
            result.lines = countLines(dir.resolve("access_log.log"));
            result.linesOk = result.lines == result.requests;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        return result;
    }

    private static long countLines(Path file) throws IOException {
        long n = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            final byte[] b = new byte[1 << 16];
            int r;
            while ((r = in.read(b)) > 0) {
                for (int i = 0; i < r; i++) {
                    n += b[i] == '\n' ? 1 : 0;
                }
            }
        }
        return n;
    }

    /** Runs the clients through warm-up and measurement; {@code rate} 0 means flat out. */
    private Result drive(int port, double rate) throws Exception {
        final Client[] cs = new Client[clients];
        final Thread[] ts = new Thread[clients];
        final long start = System.nanoTime();
        final long measureFrom = start + warmupNanos;
        final long measureUntil = measureFrom + measureNanos;
        final long intervalNanos = rate > 0 ? (long) (1e9 * clients / rate) : 0;
        // The clients stay alive until the window's last CPU sample is taken: ThreadMXBean reports
        // -1 for an ended thread, which left a client's CPU in the server's figure in about half
        // of the runs (CPU per request bimodal, 33 or 55 µs, for the same set-up).
        final java.util.concurrent.CountDownLatch sampled = new java.util.concurrent.CountDownLatch(1);
        for (int i = 0; i < clients; i++) {
            cs[i] = new Client(port, measureFrom, measureUntil, intervalNanos, start + i * (intervalNanos / clients), sampled);
            ts[i] = new Thread(cs[i], "bench-client-" + i);
        }
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (Thread t : ts) {
            t.start();
        }
        if (PIN) {
            for (Client c : cs) {
                c.pinned.await();
            }
            pinAllBut(cs, "0");
        }
        // CPU of the measured window: process minus clients, sampled at its edges by this thread.
        parkUntil(measureFrom);
        final long processCpu0 = os.getProcessCpuTime();
        final long clientCpu0 = clientCpu(threads, ts);
        final java.util.Map<Long, Long> logCpu0 = logThreadCpu(threads);
        parkUntil(measureUntil);
        final long processCpu1 = os.getProcessCpuTime();
        final long clientCpu1 = clientCpu(threads, ts);
        final java.util.Map<Long, Long> logCpu1 = logThreadCpu(threads);
        sampled.countDown();
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        long measured = 0;
        long total = 0;
        for (int i = 0; i < clients; i++) {
            ts[i].join();
            if (cs[i].failure != null) {
                throw new IllegalStateException("client failed", cs[i].failure);
            }
            latency.add(cs[i].latency);
            measured += cs[i].measured;
            total += cs[i].total;
        }
        final Result r = new Result();
        r.perSecond = measured * 1e9 / measureNanos;
        r.p50 = latency.getValueAtPercentile(50);
        r.p99 = latency.getValueAtPercentile(99);
        r.max = latency.getMaxValue();
        r.requests = total;
        r.cpuMicrosPerRequest = ((processCpu1 - processCpu0) - (clientCpu1 - clientCpu0)) / 1e3 / Math.max(1, measured);
        long logCpu = 0;
        for (java.util.Map.Entry<Long, Long> e : logCpu1.entrySet()) {
            logCpu += e.getValue() - logCpu0.getOrDefault(e.getKey(), 0L);
        }
        r.logThreadMicrosPerRequest = logCpu / 1e3 / Math.max(1, measured);
        return r;
    }

    /** Puts every thread of this process but the clients on {@code cpu}. */
    private static void pinAllBut(Client[] cs, String cpu) throws IOException, InterruptedException {
        final java.util.Set<String> clientTids = new java.util.HashSet<>();
        for (Client c : cs) {
            clientTids.add(c.tid);
        }
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                final String tid = task.getFileName().toString();
                if (!clientTids.contains(tid)) {
                    taskset(tid, cpu);
                }
            }
        }
    }

    /** {@code taskset -p -c cpu tid}: sched_setaffinity of one thread. */
    static void taskset(String tid, String cpu) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder("taskset", "-p", "-c", cpu, tid)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor() != 0) {
            // A thread that ended between the listing and the call is not an error.
            if (Files.exists(Path.of("/proc/self/task", tid))) {
                throw new IOException("taskset -p -c " + cpu + " " + tid + " failed");
            }
        }
    }

    /**
     * CPU time of the threads that write the log, by thread id: Spool's ({@code spool-}: the writer
     * and the cached clock's refresher) and the default receiver's worker ({@link #LOG_WORKER_NAME}).
     */
    private static java.util.Map<Long, Long> logThreadCpu(ThreadMXBean threads) {
        final java.util.Map<Long, Long> cpu = new java.util.HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("spool-") || t.getName().startsWith(LOG_WORKER_NAME)) {
                cpu.put(t.getId(), Math.max(0, threads.getThreadCpuTime(t.getId())));
            }
        }
        return cpu;
    }

    private static long clientCpu(ThreadMXBean threads, Thread[] ts) {
        long sum = 0;
        for (Thread t : ts) {
            sum += Math.max(0, threads.getThreadCpuTime(t.getId()));
        }
        return sum;
    }

    private static void parkUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    static final class Result {
        double perSecond;
        long p50;
        long p99;
        long max;
        long requests;
        long lines;
        boolean linesOk;
        double cpuMicrosPerRequest;
        /** Of {@link #cpuMicrosPerRequest}: the threads that write the log (Spool's writer, the default receiver's worker). */
        double logThreadMicrosPerRequest;
    }

    /** One keep-alive connection; a request is sent only after the previous answer is read. */
    static final class Client implements Runnable {
        final int port;
        final long measureFrom;
        final long measureUntil;
        final long intervalNanos;
        long next;
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        long measured;
        long total;
        volatile Throwable failure;
        /** With {@link #PIN}: counted down once this thread runs on CPU 1. */
        final java.util.concurrent.CountDownLatch pinned = new java.util.concurrent.CountDownLatch(1);
        volatile String tid;
        /** Counted down once the window's CPU has been sampled; the thread ends only after it. */
        final java.util.concurrent.CountDownLatch sampled;

        Client(int port, long measureFrom, long measureUntil, long intervalNanos, long firstSend,
               java.util.concurrent.CountDownLatch sampled) {
            this.sampled = sampled;
            this.port = port;
            this.measureFrom = measureFrom;
            this.measureUntil = measureUntil;
            this.intervalNanos = intervalNanos;
            this.next = firstSend;
        }

        @Override
        public void run() {
            try {
                sendRequests();
            } finally {
                try {
                    sampled.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private void sendRequests() {
            if (PIN) {
                try {
                    // /proc/thread-self -> <pid>/task/<tid>
                    tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
                    taskset(tid, "1");
                } catch (Throwable t) {
                    failure = t;
                    return;
                } finally {
                    pinned.countDown();
                }
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setTcpNoDelay(true);
                final OutputStream out = s.getOutputStream();
                final InputStream in = new BufferedInputStream(s.getInputStream(), 8192);
                while (true) {
                    final long intended;
                    if (intervalNanos > 0) {
                        intended = next;
                        next += intervalNanos;
                        parkUntil(intended); // behind schedule: send at once, latency counts the delay
                    } else {
                        intended = System.nanoTime();
                    }
                    if (intended >= measureUntil) {
                        return;
                    }
                    out.write(REQUEST);
                    out.flush();
                    readResponse(in);
                    final long done = System.nanoTime();
                    total++;
                    if (intended >= measureFrom && done < measureUntil) {
                        measured++;
                        latency.recordValue(Math.min(TimeUnit.NANOSECONDS.toMicros(done - intended),
                                latency.getHighestTrackableValue()));
                    }
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        /** Reads one response: headers up to the empty line, then Content-Length bytes. */
        private static void readResponse(InputStream in) throws IOException {
            int contentLength = -1;
            final StringBuilder line = new StringBuilder(64);
            while (true) {
                line.setLength(0);
                int c;
                while ((c = in.read()) != '\n') {
                    if (c < 0) {
                        throw new IOException("connection closed");
                    }
                    if (c != '\r') {
                        line.append((char) c);
                    }
                }
                if (line.length() == 0) {
                    break;
                }
                if (line.length() > 15 && line.substring(0, 15).equalsIgnoreCase("Content-Length:")) {
                    contentLength = Integer.parseInt(line.substring(15).trim());
                }
            }
            if (contentLength < 0) {
                throw new IOException("no Content-Length");
            }
            for (int i = 0; i < contentLength; i++) {
                if (in.read() < 0) {
                    throw new IOException("connection closed in the body");
                }
            }
        }
    }
}
