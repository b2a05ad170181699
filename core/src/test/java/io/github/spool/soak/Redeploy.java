// SPDX-License-Identifier: Apache-2.0
package io.github.spool.soak;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;

/**
 * An application server in miniature, run as the main class of a forked JVM: deploys a small
 * application in a class loader of its own, has it log from a pool of "request" threads that the
 * application does not own (with the application's loader as their context class loader while
 * they serve it, as a container does), undeploys it, drops every reference and requires the class
 * loader to be collected. Repeats; at the end, live threads, heap and metaspace must be where they
 * were after the warm-up. Test support (core's test-jar) for both adapters' redeploy leak tests.
 *
 * <p>The application is a class with public static methods, called by reflection so that no type
 * of the application's loader reaches this one: {@code deploy(String contextName)} starts its
 * logging framework, {@code logTask(int cycle, int events)} returns a {@code Runnable} that logs
 * the events as lines holding {@code leak-cycle=<cycle> seq=<n>}, and {@code undeploy()} stops the
 * framework. The class loader sees the whole class path but delegates only to the platform loader,
 * so the framework, Spool and the application are loaded afresh in each cycle, like jars in
 * {@code WEB-INF/lib}.
 *
 * <p>Arguments: the application class, the number of cycles, the events per cycle. Exit status 0
 * when every check passed; otherwise 1 with the reason on standard error. The figures go to
 * standard error in one line starting with {@code redeploy:}.
 */
public final class Redeploy {

    /** Cycles run before the baseline is taken: the JDK's own lazily created threads and caches. */
    static final int WARM_UP = 2;
    /** Longest wait for one class loader to be collected. */
    static final long COLLECT_MILLIS = 10_000;
    /** Growth of heap or metaspace after a full GC that still counts as flat. */
    static final long FLAT_BYTES = 8L << 20;
    /** The container's request threads. */
    static final int POOL_THREADS = 2;

    private final URL[] classPath;
    private final String appClass;
    private final int events;
    private final ExecutorService pool;
    private long maxCycleMillis;
    private long maxUndeployMillis;
    private long maxCollectMillis;

    private Redeploy(URL[] classPath, String appClass, int events) {
        this.classPath = classPath;
        this.appClass = appClass;
        this.events = events;
        int[] n = {0};
        this.pool = Executors.newFixedThreadPool(POOL_THREADS, r -> {
            Thread t = new Thread(r, "container-request-" + n[0]++);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * @param args application class, cycles, events per cycle
     * @throws Exception if the harness itself fails
     */
    public static void main(String[] args) throws Exception {
        String appClass = args[0];
        int cycles = Integer.parseInt(args[1]);
        int events = Integer.parseInt(args[2]);
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        Redeploy r = new Redeploy(urls.toArray(new URL[0]), appClass, events);
        String failure = r.run(cycles);
        if (failure != null) {
            System.err.println("redeploy FAILED: " + failure);
            System.err.flush();
            System.exit(1);
        }
        System.exit(0);
    }

    private String run(int cycles) throws Exception {
        int cycle = 0;
        for (; cycle < WARM_UP; cycle++) {
            String failure = cycleAndCheck(cycle);
            if (failure != null) {
                return failure;
            }
        }
        Figures base = Figures.now();
        for (; cycle < WARM_UP + cycles; cycle++) {
            String failure = cycleAndCheck(cycle);
            if (failure != null) {
                return failure;
            }
        }
        Figures end = Figures.now();
        System.err.println("redeploy: cycles=" + cycles + " events=" + events + " threads " + base.threads.size() + " -> "
                + end.threads.size() + ", heap " + base.heap + " -> " + end.heap + ", metaspace " + base.metaspace + " -> "
                + end.metaspace + "; slowest cycle " + maxCycleMillis + " ms, undeploy " + maxUndeployMillis
                + " ms, collection " + maxCollectMillis + " ms");
        Set<String> extra = new TreeSet<>(end.threads);
        extra.removeAll(base.threads);
        if (!extra.isEmpty()) {
            return "threads not there after the warm-up: " + extra;
        }
        if (end.heap > base.heap + FLAT_BYTES) {
            return "heap after GC grew from " + base.heap + " to " + end.heap + " bytes";
        }
        if (end.metaspace > base.metaspace + FLAT_BYTES) {
            return "metaspace grew from " + base.metaspace + " to " + end.metaspace + " bytes";
        }
        return null;
    }

    private String cycleAndCheck(int cycle) throws Exception {
        long t0 = System.nanoTime();
        WeakReference<ClassLoader> ref = deployLogUndeploy(cycle);
        long t1 = System.nanoTime();
        Set<ObjectName> beans = ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName("io.github.spool:*"), null);
        if (!beans.isEmpty()) {
            return "cycle " + cycle + ": MBeans left after undeploy: " + beans;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(COLLECT_MILLIS);
        while (ref.get() != null) {
            if (System.nanoTime() - deadline > 0) {
                return "cycle " + cycle + ": class loader not collected within " + COLLECT_MILLIS + " ms; " + holders(ref.get());
            }
            System.gc();
            Thread.sleep(20); // the accepted idiom: poll collection of a weakly referenced loader
        }
        maxCycleMillis = Math.max(maxCycleMillis, (t1 - t0) / 1_000_000);
        maxCollectMillis = Math.max(maxCollectMillis, (System.nanoTime() - t1) / 1_000_000);
        return null;
    }

    /** Everything this frame touches of the application is gone when it returns. */
    private WeakReference<ClassLoader> deployLogUndeploy(int cycle) throws Exception {
        URLClassLoader loader = new URLClassLoader("webapp-" + cycle, classPath, ClassLoader.getPlatformClassLoader());
        Class<?> app = loader.loadClass(appClass);
        app.getMethod("deploy", String.class).invoke(null, "webapp-" + cycle);
        List<Future<?>> served = new ArrayList<>();
        for (int t = 0; t < POOL_THREADS; t++) {
            Runnable task = (Runnable) app.getMethod("logTask", int.class, int.class).invoke(null, cycle,
                    events / POOL_THREADS + (t < events % POOL_THREADS ? 1 : 0));
            served.add(pool.submit(() -> serve(loader, task)));
        }
        for (Future<?> f : served) {
            f.get(30, TimeUnit.SECONDS);
        }
        long t = System.nanoTime();
        app.getMethod("undeploy").invoke(null);
        maxUndeployMillis = Math.max(maxUndeployMillis, (System.nanoTime() - t) / 1_000_000);
        loader.close();
        return new WeakReference<>(loader);
    }

    /** As a container runs a request: the application's loader as context class loader, then back. */
    private static void serve(ClassLoader loader, Runnable task) {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        try {
            task.run();
        } finally {
            t.setContextClassLoader(previous);
        }
    }

    /** What can be seen from here of who keeps {@code loader}: threads that name it or run its code. */
    private static String holders(ClassLoader loader) {
        List<String> found = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getContextClassLoader() == loader) {
                found.add("thread '" + t.getName() + "' has it as context class loader");
            }
            if (t.getClass().getClassLoader() == loader) {
                found.add("thread '" + t.getName() + "' is of its class " + t.getClass().getName());
            }
        }
        String dump = System.getProperty("spool.redeploy.heapDump");
        if (dump != null) {
            try {
                ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class).dumpHeap(dump, true);
                found.add("heap dumped to " + dump);
            } catch (java.io.IOException e) {
                found.add("heap dump failed: " + e);
            }
        }
        List<String> threads = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            threads.add(t.getName());
        }
        found.add("live threads: " + new TreeSet<>(threads));
        return String.join("; ", found);
    }

    /** A forked run's exit status and output. */
    public static final class Run {
        /** Exit status: 0 when every check passed. */
        public final int exitCode;
        /** Standard output: what the application's appenders wrote. */
        public final List<String> stdout;
        /** Standard error: the figures, the failure, the frameworks' status messages. */
        public final String stderr;

        Run(int exitCode, List<String> stdout, String stderr) {
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        /**
         * @param cycle a cycle, warm-up included
         * @return how many lines the application logged in that cycle reached standard output
         */
        public long linesOfCycle(int cycle) {
            String marker = "leak-cycle=" + cycle + " ";
            return stdout.stream().filter(l -> l.contains(marker)).count();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + ", " + stdout.size() + " lines on stdout, the first: "
                    + stdout.subList(0, Math.min(3, stdout.size())) + "; stderr:\n" + stderr;
        }
    }

    /**
     * Runs {@link #main} in a new JVM with this JVM's class path.
     *
     * @param dir        where standard output and error are kept
     * @param jvmOptions options for the new JVM (system properties of the frameworks)
     * @param appClass   the application class
     * @param cycles     deploy/undeploy cycles after the warm-up
     * @param events     events logged per cycle
     * @return its exit status and output
     * @throws Exception if it cannot be run, or does not end within two minutes (it takes 10 to
     *     40 s on a shared 2-core machine; the bound only ends a hung run)
     */
    public static Run fork(Path dir, List<String> jvmOptions, String appClass, int cycles, int events) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(ChildClassPath.withoutSpring());
        cmd.add(Redeploy.class.getName());
        cmd.add(appClass);
        cmd.add(String.valueOf(cycles));
        cmd.add(String.valueOf(events));
        Path out = java.nio.file.Files.createTempFile(dir, "redeploy", ".out");
        Path err = java.nio.file.Files.createTempFile(dir, "redeploy", ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new IllegalStateException("redeploy run did not end within 120 s; stderr:\n" + java.nio.file.Files.readString(err));
        }
        return new Run(p.exitValue(), java.nio.file.Files.readAllLines(out), java.nio.file.Files.readString(err));
    }

    /** Live threads by name, heap and metaspace in use after a full GC. */
    private static final class Figures {
        final Set<String> threads = new TreeSet<>();
        long heap;
        long metaspace;

        static Figures now() {
            System.gc();
            Figures f = new Figures();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.isAlive()) {
                    f.threads.add(t.getName());
                }
            }
            f.heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                if (p.getName().equals("Metaspace")) {
                    f.metaspace = p.getUsage().getUsed();
                }
            }
            return f;
        }
    }
}
