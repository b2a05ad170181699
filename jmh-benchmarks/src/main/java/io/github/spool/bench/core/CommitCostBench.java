package io.github.spool.bench.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the ring's commit costs a producer, and what a commit without an atomic would cost instead,
 * before anyone redesigns the ring for it (issue 34): the claim/copy/commit skeleton alone, on
 * producers that share the claim's cache line as the ring's producers do, no writer. Not the ring
 * (no seal, no wake-up, no reuse check): a bound on the difference, measured on this machine.
 *
 * <ul>
 *   <li>{@code gaa}: today's protocol — get-and-add on the claim word, copy 100 bytes into direct
 *       memory, get-and-add on a commit word in the same cache line;</li>
 *   <li>{@code store}: the redesign's — the claim also counts records, and the commit is a
 *       release store into the record's own slot of an array the writer would scan;</li>
 *   <li>{@code none}: claim and copy only, the floor under both;</li>
 *   <li>{@code claim}: the shared claim alone, no copy: what the one shared line costs;</li>
 *   <li>{@code lane}: {@code gaa} on a claim word, commit word and region of this thread's own
 *       (a claim per thread, as a ring of lanes would have): nothing shared;</li>
 *   <li>{@code aligned}: {@code gaa} with each record's room rounded up to 128 bytes, in a
 *       direct buffer whose start is only 16-byte aligned: neighbouring rooms still share a line
 *       (as first measured; {@code linealigned} is what this variant meant to be);</li>
 *   <li>{@code private}: {@code gaa}'s shared claim and commit, the copy into this thread's own
 *       region: the shared words without shared data lines;</li>
 *   <li>{@code seqlane}: a lane that keeps the order across threads — one get-and-add on a shared
 *       sequence word, then {@code lane}'s claim, copy and commit on this thread's own;</li>
 *   <li>{@code spsc}: a lane only its thread writes, as a single-producer queue: a plain read and
 *       write of its claim, the copy, a release store of its commit — no atomic at all;</li>
 *   <li>{@code linealigned}: {@code aligned} in a region whose start is on a 128-byte boundary
 *       ({@code aligned}'s direct buffer is not), so that no two rooms share a line;</li>
 *   <li>{@code inline}: one shared atomic, keeping one order — the claim of a line-aligned
 *       128-byte room, the copy, and the commit as a release store of the room's header, in the
 *       first line of the room, which the claiming thread owns; the writer would read headers in
 *       claim order.</li>
 * </ul>
 *
 * <p>The runs and what they showed: docs/benchmarks-history.md, "what the ring's shared lines cost" and
 * "one order kept, and records on lines of their own".
 *
 * <pre>java -cp benchmarks.jar org.openjdk.jmh.Main CommitCostBench -t 2   (and -t 1, 4, 16)</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class CommitCostBench {

    private static final int RECORD = 100;
    /** A 1 MiB region used round and round, as the ring's cells are. */
    private static final int REGION = 1 << 20;
    /** Slots for the records of one pass over the region (a power of two above REGION / RECORD). */
    private static final int SLOTS = 1 << 14;
    private static final VarHandle CLAIMED;
    private static final VarHandle COMMITTED;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CLAIMED = l.findVarHandle(Words.class, "claimed", long.class);
            COMMITTED = l.findVarHandle(Words.class, "committed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The claim and commit words on one cache line, padded from everything else (as in Cell). */
    static final class Words {
        long p00, p01, p02, p03, p04, p05, p06, p07;
        volatile long claimed;
        volatile long committed;
        long q00, q01, q02, q03, q04, q05, q06, q07;
    }

    @Param({"gaa", "store", "none", "claim", "lane", "aligned", "private", "seqlane", "spsc", "linealigned", "inline"})
    public String commit;

    /** {@link #commit} as a number, so that the hot path branches on an int field. */
    private int mode;
    private final Words words = new Words();
    private final long[] slots = new long[SLOTS];
    private final ByteBuffer region = ByteBuffer.allocateDirect(REGION + RECORD);
    private final byte[] record = RingAppendBench.line();
    /** The region with its start on a 128-byte boundary, so that 128-byte rooms share no line. */
    private final ByteBuffer lines = ByteBuffer.allocateDirect(REGION + 256).alignedSlice(128);
    private static final VarHandle HEADER =
            MethodHandles.byteBufferViewVarHandle(long[].class, java.nio.ByteOrder.nativeOrder());

    @Setup
    public void setUp() {
        mode = switch (commit) {
            case "gaa" -> 0;
            case "store" -> 1;
            case "none" -> 2;
            case "claim" -> 3;
            case "lane" -> 4;
            case "aligned" -> 5;
            case "private" -> 6;
            case "seqlane" -> 7;
            case "spsc" -> 8;
            case "linealigned" -> 9;
            case "inline" -> 10;
            default -> throw new IllegalArgumentException(commit);
        };
    }

    /** One thread's own claim and commit words and region ({@code lane}). */
    @State(Scope.Thread)
    public static class Lane {
        final Words words = new Words();
        final ByteBuffer region = ByteBuffer.allocateDirect(REGION + RECORD);
    }

    @Benchmark
    public long append(Lane lane) {
        if (mode == 8) {
            // The thread's own words: plain read and write of the claim (no other writer).
            Words own = lane.words;
            long w = (long) CLAIMED.get(own);
            CLAIMED.set(own, w + RECORD);
            lane.region.put((int) (w % REGION), record, 0, RECORD);
            COMMITTED.setRelease(own, w + RECORD);
            return w;
        }
        if (mode == 4 || mode == 7) {
            if (mode == 7) {
                CLAIMED.getAndAdd(words, 1L);
            }
            long w = (long) CLAIMED.getAndAdd(lane.words, (1L << 32) | RECORD);
            lane.region.put((int) ((w & 0xFFFF_FFFFL) % REGION), record, 0, RECORD);
            return (long) COMMITTED.getAndAdd(lane.words, (long) RECORD);
        }
        // Claims: records in the high half, bytes in the low half, one get-and-add (the ring's
        // claim word also carries bytes; the record count is what the slot design adds to it).
        if (mode == 5) {
            long w = (long) CLAIMED.getAndAdd(words, (1L << 32) | 128);
            region.put((int) ((w & 0xFFFF_FFFFL) % REGION), record, 0, RECORD);
            return (long) COMMITTED.getAndAdd(words, 128L);
        }
        if (mode == 6) {
            long w = (long) CLAIMED.getAndAdd(words, (1L << 32) | RECORD);
            lane.region.put((int) ((w & 0xFFFF_FFFFL) % REGION), record, 0, RECORD);
            return (long) COMMITTED.getAndAdd(words, (long) RECORD);
        }
        if (mode == 9) {
            long w = (long) CLAIMED.getAndAdd(words, (1L << 32) | 128);
            lines.put((int) ((w & 0xFFFF_FFFFL) % REGION), record, 0, RECORD);
            return (long) COMMITTED.getAndAdd(words, 128L);
        }
        if (mode == 10) {
            // One shared atomic: the claim. The commit is a release store of the record's header
            // in the record's own (first) line, which this thread is writing anyway.
            long w = (long) CLAIMED.getAndAdd(words, (1L << 32) | 128);
            int at = (int) ((w & 0xFFFF_FFFFL) % REGION);
            lines.put(at + 8, record, 0, RECORD);
            HEADER.setRelease(lines, at, (long) RECORD);
            return w;
        }
        long word = (long) CLAIMED.getAndAdd(words, (1L << 32) | RECORD);
        if (mode == 3) {
            return word;
        }
        int start = (int) ((word & 0xFFFF_FFFFL) % REGION);
        region.put(start, record, 0, RECORD);
        if (mode == 0) {
            return (long) COMMITTED.getAndAdd(words, (long) RECORD);
        }
        if (mode == 1) {
            SLOT.setRelease(slots, (int) (word >>> 32) & (SLOTS - 1), (long) RECORD);
        }
        return word;
    }
}
