// SPDX-License-Identifier: Apache-2.0
package io.github.spool.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31's soak through a framework, the same for each adapter: many producers log through the
 * framework's logger into a Spool appender ({@code BLOCK}, 1 MiB cap) on a pipe that stops being
 * read for a while, again and again ({@link AdapterSoak}, in a forked JVM). Nothing is lost
 * without a count, parked producers cost under 5% of a core, each stall drains within a second,
 * heap and direct memory stay flat. The build runs two 3 s stalls after a warm-up; the 2-minute runs are in
 * docs/reliability.md. An adapter's test extends this, names its program (calling
 * {@link AdapterSoak#run}) and writes its configuration. Test support.
 */
public abstract class ParkedProducersSoakContract {

    @TempDir
    protected Path dir;

    /** @return the adapter's program, which calls {@link AdapterSoak#run} */
    protected abstract Class<?> main();

    /**
     * Writes the framework's configuration: a Spool appender named {@link AdapterSoak#APPENDER}
     * writing to the file {@code fifo}, {@code overflowPolicy} {@code BLOCK}, {@code bufferSize}
     * 64 KiB, {@code maxBufferSize} 1 MiB, layout {@code %m%n}, the root logger at INFO to it.
     *
     * @param dir  where to write it
     * @param fifo the named pipe the appender writes to
     * @return the JVM option that makes the framework read it
     * @throws Exception if it cannot be written
     */
    protected abstract String configure(Path dir, Path fifo) throws Exception;

    /**
     * The checks of every soak run, through a framework or not.
     *
     * @param r what a run measured
     */
    public static void check(ParkedProducersSoak.Result r) {
        assertEquals(r.accepted, r.written + r.lost, () -> "accepted = written + lost: " + r);
        assertEquals(0, r.lost, () -> "nothing lost: " + r);
        for (double cores : r.parkedCores) {
            assertTrue(cores < 0.05, () -> "parked producers cost under 5% of a core: " + r);
        }
        for (long ms : r.drainMillis) {
            assertTrue(ms < 1_000, () -> "each stall drains within a second: " + r);
        }
        // The ring's cap (1 MiB) plus what the JVM's own direct buffers may hold.
        assertTrue(r.maxDirectBytes < (4 << 20), () -> "direct memory under the cap: " + r);
        // Flat: what the producers' threads and the appender hold does not grow stall after stall.
        assertTrue(r.lastHeap < r.firstHeap + (16 << 20), () -> "heap flat: " + r);
    }

    private ParkedProducersSoak.Result fork(int producers, boolean virtual) throws Exception {
        Path fifo = dir.resolve("soak.fifo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        Assumptions.assumeTrue(mk.waitFor(30, TimeUnit.SECONDS) && mk.exitValue() == 0, "needs mkfifo (Linux, macOS)");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", configure(dir, fifo), "-cp", ChildClassPath.withoutSpring(), main().getName(),
                String.valueOf(producers), String.valueOf(virtual), "2", "3000", "3500", fifo.toString()));
        Path err = dir.resolve("soak.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String text = Files.readString(err, StandardCharsets.UTF_8);
        assertTrue(ended, () -> "the soak hung\n" + text);
        assertEquals(0, p.exitValue(), text);
        String line = text.lines().filter(l -> l.startsWith("soak-result ")).findFirst()
                .orElseThrow(() -> new AssertionError("no result\n" + text));
        ParkedProducersSoak.Result r = ParkedProducersSoak.Result.decode(line.substring("soak-result ".length()));
        System.out.println("figures " + getClass().getName() + " " + producers + (virtual ? " virtual" : " platform") + ": " + r);
        return r;
    }

    @Test
    void aThousandPlatformThreadsParkedAtTheCap() throws Exception {
        check(fork(1_000, false));
    }

    @Test
    void tenThousandVirtualThreadsParkedAtTheCap() throws Exception {
        // 100,000 in the long run (docs/reliability.md); 10,000 keep the build's run short.
        Assumptions.assumeTrue(ParkedProducersSoak.virtualThreadsAvailable(), "virtual threads need JDK 21+");
        check(fork(10_000, true));
    }
}
