package io.github.spool.soak;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reconfiguration by file watching, the same run for both adapters: a configuration the framework
 * watches is rewritten while {@value #PRODUCERS} producers log, so that the Spool appender named
 * "watched" writes to another file; once the framework runs the new configuration (learnt from
 * the framework, no fixed sleep), every producer logs on, then the adapter checks what each file
 * holds ({@link Context#verify}: what the framework promises across its reconfiguration differs).
 * In process. An adapter's test extends this. Test support.
 */
public abstract class RewrittenConfigurationContract {

    /** Producer threads. */
    protected static final int PRODUCERS = 4;
    /** Events each producer logs before the rewrite, and again after the switch, at least. */
    private static final long EVENTS_AROUND = 5_000;

    @TempDir
    protected Path dir;

    /** One logging context of the framework, started from the watched configuration. */
    protected interface Context {
        /** @param seq logged at INFO as {@code seq=<seq>} on a logger of the context */
        void log(long seq);

        /**
         * Called once the producers exist, before they start.
         *
         * @param producers the producers, in thread-name order
         */
        default void producersCreated(List<SeqProducer> producers) {
        }

        /**
         * Returns once the framework runs the rewritten configuration; fails after 30 s.
         *
         * @throws Exception if interrupted or the new configuration is not what was written
         */
        void awaitSwitch() throws Exception;

        /**
         * Stops the context, draining its appenders.
         *
         * @throws Exception if it does not stop
         */
        void stop() throws Exception;

        /**
         * Checks what the two files hold after the stop.
         *
         * @param a        the first file's sequence numbers per producer thread, in file order
         * @param b        the second file's
         * @param produced events each producer logged, by producer index
         * @return figures for the printed summary
         */
        String verify(Map<String, List<Long>> a, Map<String, List<Long>> b, long[] produced);
    }

    /** @return the framework and its watching setting, for the printed figures */
    protected abstract String what();

    /** @return the producers' thread-name prefix; the index follows */
    protected abstract String producerPrefix();

    /** @return the watched configuration's file name */
    protected abstract String configName();

    /**
     * @param file where the appender "watched" writes
     * @return the configuration text, watched by the framework with a short period
     */
    protected abstract String configuration(Path file);

    /**
     * Starts a context from {@code config}, which holds {@link #configuration} of {@code fileA}.
     *
     * @param config the configuration file
     * @param fileA  where "watched" writes first
     * @param fileB  where it writes after the rewrite
     * @return the started context
     * @throws Exception if it cannot be started
     */
    protected abstract Context start(Path config, Path fileA, Path fileB) throws Exception;

    @Test
    void rewrittenConfigurationIsPickedUpAndSpoolLosesNothing() throws Exception {
        Path fileA = dir.resolve("a.log");
        Path fileB = dir.resolve("b.log");
        Path config = dir.resolve(configName());
        Files.writeString(config, configuration(fileA));
        Context ctx = start(config, fileA, fileB);
        List<SeqProducer> producers = new ArrayList<>();
        for (int t = 0; t < PRODUCERS; t++) {
            producers.add(new SeqProducer(producerPrefix() + t, ctx::log));
        }
        ctx.producersCreated(producers);
        long[] produced = new long[PRODUCERS];
        producers.forEach(SeqProducer::start);
        long switchMillis;
        try {
            producers.forEach(p -> p.awaitProgress(EVENTS_AROUND));
            // Atomic replace with a later modification time: the framework never reads a
            // half-written file (logback would fall back to the old configuration), and a rewrite
            // within the same millisecond as the first write still counts as a change.
            Path next = dir.resolve(configName() + ".next");
            Files.writeString(next, configuration(fileB));
            Files.setLastModifiedTime(next, FileTime.fromMillis(Files.getLastModifiedTime(config).toMillis() + 5_000));
            Files.move(next, config, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            long start = System.nanoTime();
            ctx.awaitSwitch();
            switchMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            producers.forEach(p -> p.awaitProgress(EVENTS_AROUND)); // every producer logs under the new one
        } finally {
            for (int t = 0; t < PRODUCERS; t++) {
                produced[t] = producers.get(t).stop();
            }
        }
        ctx.stop();
        Pattern line = Pattern.compile("(" + Pattern.quote(producerPrefix()) + "\\d) seq=(\\d+)");
        String figures = ctx.verify(SeqFile.perProducer(fileA, line), SeqFile.perProducer(fileB, line), produced);
        long total = 0;
        for (long p : produced) {
            total += p;
        }
        System.out.println(what() + ": switched " + switchMillis + " ms after the rewrite; " + total + " events from "
                + PRODUCERS + " producers; " + figures);
    }
}
