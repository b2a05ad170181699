package io.github.spool.bench.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What the output verifiers keep per producer, whatever the line format: lines seen, the last
 * sequence number, and what was malformed or out of order, with the first few problems in words.
 * {@link OutputVerifier} (pattern lines) and {@link JsonOutputVerifier} (JSON lines) parse; this
 * counts, and compares with what the producers say they produced. Not thread-safe.
 */
final class SequenceTally {

    private static final int MAX_PROBLEMS_KEPT = 5;

    private long[] count = new long[8];
    private long[] last = filled(8);
    private int threads;
    private long malformed;
    private long outOfOrder;
    private final List<String> problems = new ArrayList<>();

    /** A well-formed line of producer {@code thread} with sequence number {@code seq}, at line {@code line}. */
    void sequence(long line, int thread, long seq) {
        if (thread >= count.length) {
            int size = Math.max(thread + 1, count.length * 2);
            count = Arrays.copyOf(count, size);
            long[] grown = filled(size);
            System.arraycopy(last, 0, grown, 0, last.length);
            last = grown;
        }
        threads = Math.max(threads, thread + 1);
        long previous = last[thread];
        if (seq != previous + 1) {
            outOfOrder++;
            String what = seq == previous ? "duplicate" : seq < previous ? "out of order (or duplicate)"
                    : "gap (missing or reordered)";
            problem("line " + line + ": " + EventLine.threadName(thread) + " id=" + seq + " after id=" + previous
                    + ": " + what);
        }
        count[thread]++;
        last[thread] = Math.max(previous, seq);
    }

    /** A line that is not one event's: counted, and described if among the first few problems. */
    void malformed(String problem) {
        malformed++;
        problem(problem);
    }

    /** A problem in words, kept if among the first few. */
    void problem(String text) {
        if (problems.size() < MAX_PROBLEMS_KEPT) {
            problems.add(text);
        }
    }

    /**
     * Compares what was seen with what the producers say they produced.
     *
     * @param lines    lines read
     * @param bytes    bytes read
     * @param expected events produced per producer index; producers with 0 events may be omitted
     * @return the verdict
     */
    OutputVerifier.Verdict verdict(long lines, long bytes, Map<Integer, Long> expected) {
        long missing = 0;
        long surplus = 0;
        int maxThread = Math.max(threads, expected.keySet().stream().mapToInt(i -> i + 1).max().orElse(0));
        for (int t = 0; t < maxThread; t++) {
            long want = expected.getOrDefault(t, 0L);
            long got = t < threads ? count[t] : 0;
            if (got < want) {
                missing += want - got;
                problem(EventLine.threadName(t) + ": " + got + " lines of " + want);
            } else if (got > want) {
                surplus += got - want;
                problem(EventLine.threadName(t) + ": " + got + " lines, only " + want + " produced");
            } else if (want > 0 && last[t] != want - 1) {
                problem(EventLine.threadName(t) + ": last sequence " + last[t] + ", expected " + (want - 1));
                outOfOrder++;
            }
        }
        return new OutputVerifier.Verdict(lines, bytes, malformed, outOfOrder, missing, surplus, List.copyOf(problems));
    }

    private static long[] filled(int size) {
        long[] a = new long[size];
        Arrays.fill(a, -1);
        return a;
    }
}
