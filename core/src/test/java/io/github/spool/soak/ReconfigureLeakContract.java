package io.github.spool.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One hundred reconfigurations of a logging context while a producer logs {@code seq=<n>}, with
 * two Spool appenders writing to files (one with Spool's own layout, one with the framework's
 * pattern layout), the same for both adapters. Leaks: after each reconfiguration every writer
 * thread that ran before it has ended, exactly one per appender runs, and exactly the running
 * appenders' MBeans are registered; after the context stops, none of either. Loss: what each file
 * must hold depends on how the framework reconfigures, so the adapter checks it
 * ({@link Context#verify}). An adapter's {@code ReconfigureLeakTest} extends this. Test support.
 */
public abstract class ReconfigureLeakContract {

    /** Reconfigurations in one run. */
    protected static final int RECONFIGURATIONS = 100;
    /** Events logged between two reconfigurations, at least. */
    private static final long EVENTS_BETWEEN = 2_000;

    @TempDir
    protected Path dir;

    /** One logging context of the framework, as the run drives it. */
    protected interface Context {
        /** @param seq logged at INFO as {@code seq=<seq>} on a logger of the context */
        void log(long seq);

        /**
         * Reconfigures the context the way the framework does, from the same configuration.
         *
         * @param producer the running producer, for the adapter to note where the
         *                 reconfiguration began and ended in its sequence
         * @throws Exception if the configuration fails
         */
        void reconfigure(SeqProducer producer) throws Exception;

        /**
         * Stops the context, draining its appenders.
         *
         * @throws Exception if it does not stop
         */
        void stop() throws Exception;

        /**
         * Checks what the files hold after the stop.
         *
         * @param produced events the producer logged
         * @return figures for the printed summary
         * @throws Exception if a file cannot be read
         */
        String verify(long produced) throws Exception;
    }

    /** @return the framework's name, for the printed figures */
    protected abstract String framework();

    /** @return the prefix of both appenders' names, unique to this test in the JVM */
    protected abstract String prefix();

    /**
     * Writes the configuration to a file in {@link #dir} and starts a context from it: appender
     * {@code a} (Spool's layout, to {@code fileA}) and {@code b} (the framework's pattern layout,
     * to {@code fileB}), each with pattern "thread message", 64 KiB initial and 1 MiB maximum
     * buffer, the root logger at INFO to both.
     *
     * @param a     the first appender's name
     * @param fileA its file
     * @param b     the second appender's name
     * @param fileB its file
     * @return the started context
     * @throws Exception if it cannot be started
     */
    protected abstract Context start(String a, Path fileA, String b, Path fileB) throws Exception;

    @Test
    void hundredReconfigurationsLeakNoThreadNoBeanAndSpoolLosesNothing() throws Exception {
        String a = prefix() + "a";
        String b = prefix() + "b";
        Context ctx = start(a, dir.resolve("a.log"), b, dir.resolve("b.log"));
        SeqProducer producer = new SeqProducer("reconf-producer", ctx::log);
        producer.start();
        long produced;
        try {
            for (int i = 0; i < RECONFIGURATIONS; i++) {
                List<Thread> before = writers(a, b);
                assertEquals(2, before.size(), "one writer per appender before reconfiguration " + i);
                ctx.reconfigure(producer);
                for (Thread t : before) {
                    t.join(5_000); // the reconfiguration stopped the old appender: its thread ends
                    assertFalse(t.isAlive(), "writer thread of a stopped appender still alive after reconfiguration " + i);
                }
                assertEquals(2, writers(a, b).size(), "one writer per appender after reconfiguration " + i);
                assertEquals(Set.of(a, b), LeakProbe.registeredAppenders(prefix()), "MBeans after reconfiguration " + i);
                producer.awaitProgress(EVENTS_BETWEEN);
            }
        } finally {
            produced = producer.stop();
        }
        List<Thread> last = writers(a, b);
        ctx.stop();
        for (Thread t : last) {
            t.join(5_000);
            assertFalse(t.isAlive(), "writer thread alive after the context stopped");
        }
        assertEquals(Set.of(), LeakProbe.registeredAppenders(prefix()), "no MBean after the context stopped");
        String figures = ctx.verify(produced);
        System.out.println("reconfigure " + framework() + ": " + RECONFIGURATIONS + " reconfigurations, " + produced
                + " events, writer threads alive after stop: " + writers(a, b).size() + figures);
    }

    private static List<Thread> writers(String a, String b) {
        List<Thread> all = new ArrayList<>(LeakProbe.writerThreads(a));
        all.addAll(LeakProbe.writerThreads(b));
        return all;
    }
}
