package io.github.spool.bench.jmh;

import io.github.spool.bench.e2e.EventLine;
import java.io.BufferedOutputStream;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the producer benchmarks share.
 *
 * <p>Where output goes: a JMH fork's {@code System.out} is JMH's own channel to the host and its
 * fd 1 is a pipe the host reads, so a console appender cannot write to either without corrupting
 * JMH's output and measuring JMH's reader. Instead, a "console" configuration writes through a
 * {@code System.out} replaced by exactly what the JDK builds for fd 1 (an autoflushing
 * {@code PrintStream} over a 128-byte {@code BufferedOutputStream} over a
 * {@code FileOutputStream}), opened on the {@code sink} file ({@code /dev/null} by default), and
 * log4j2's {@code Console direct="true"} is replaced by a {@code File} appender on the same sink
 * with {@code bufferedIO=false immediateFlush=true}: the same {@code OutputStreamManager} path,
 * one {@code write(2)} per event. Public-but-internal: used by the benchmark classes only.
 */
public final class JmhSupport {

    /** The event's parameter, boxed once: the benchmark measures the framework, not {@code Long.valueOf}. */
    public static final Object ID = Long.valueOf(500_000L);

    private static final String USED = "bench.jmh.frameworkInitialised";

    private JmhSupport() {
    }

    /**
     * Fails unless this JVM is a fresh JMH fork: the frameworks read their configuration (and
     * log4j2 its context selector) once per JVM, so running two configurations in one JVM
     * ({@code -f 0}) would silently measure the first one twice.
     *
     * @throws IllegalStateException if a framework was already initialised in this JVM
     */
    public static void requireFreshJvm() {
        if (Boolean.getBoolean(USED)) {
            throw new IllegalStateException("each configuration needs its own JVM: run with forks >= 1");
        }
        System.setProperty(USED, "true");
    }

    /**
     * Replaces {@code System.out} with what the JDK builds for fd 1, but on {@code sink}.
     *
     * @param sink the file to write to, e.g. {@code /dev/null}
     * @return the previous {@code System.out}, to restore at tear-down
     * @throws FileNotFoundException if the sink cannot be opened
     */
    public static PrintStream redirectSystemOut(String sink) throws FileNotFoundException {
        PrintStream previous = System.out;
        // As java.lang.System.newPrintStream: 128-byte buffer, autoflush on.
        System.setOut(new PrintStream(new BufferedOutputStream(new FileOutputStream(sink, true), 128), true));
        return previous;
    }

    /** Names each JMH worker thread {@code producer-<n>} so that {@code [%t]} prints as in the end-to-end runs. */
    @State(Scope.Thread)
    public static class ProducerThread {

        private static final AtomicInteger NEXT = new AtomicInteger();

        /** Renames the worker thread that owns this state (JMH runs thread-scoped set-up on it). */
        @Setup(Level.Trial)
        public void name() {
            Thread.currentThread().setName(EventLine.threadName(NEXT.getAndIncrement()));
        }
    }
}
