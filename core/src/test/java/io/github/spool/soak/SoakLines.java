package io.github.spool.soak;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks, line by line as they arrive from the child's standard output, what a soak run wrote:
 * every line is either an intact event line {@code <LEVEL> [producer-P] soak p=P seq=N <payload>}
 * or a discard summary {@code spool: discarded N events at INFO and below (INFO=N) since <instant>}
 * (core's {@code RingWriter} format); each producer's sequence numbers strictly increase (one
 * producer's records keep their order through the ring), without any gap when nothing may be
 * discarded; every WARN event (producer 0) is present (under {@code DISCARD} with threshold INFO, WARN waits
 * instead of being dropped). Records the first problem instead of throwing, so the reader keeps
 * draining the pipe and the child can finish. Used by one reader thread. Test support.
 */
public final class SoakLines {

    private static final Pattern EVENT = Pattern.compile(
            "(INFO |WARN ) \\[producer-(\\d+)\\] soak p=(\\d+) seq=(\\d+) " + Pattern.quote(SoakLoad.PAYLOAD));
    private static final Pattern SUMMARY = Pattern.compile(
            "spool: discarded (\\d+) events at INFO and below \\(INFO=(\\d+)\\) since \\d{4}-\\d\\d-\\d\\dT\\S+Z");

    private final boolean gapFree;
    private long[] last = new long[0];
    private long lines;
    private long eventLines;
    private long summaryLines;
    private long summarized;
    private String problem;

    /** @param gapFree whether every sequence number must arrive ({@code BLOCK}) */
    public SoakLines(boolean gapFree) {
        this.gapFree = gapFree;
    }

    /** @param line one line, without its line separator */
    public void accept(String line) {
        lines++;
        Matcher m = EVENT.matcher(line);
        if (m.matches()) {
            event(line, m);
            return;
        }
        Matcher s = SUMMARY.matcher(line);
        if (s.matches()) {
            long n = Long.parseLong(s.group(1));
            if (n != Long.parseLong(s.group(2)) || n <= 0) {
                problem("summary total and per-level count differ, or are not positive: " + line);
            }
            summaryLines++;
            summarized += n;
            return;
        }
        problem("line " + lines + " is neither an intact event nor a discard summary: " + line);
    }

    private void event(String line, Matcher m) {
        int thread = Integer.parseInt(m.group(2));
        int p = Integer.parseInt(m.group(3));
        long seq = Long.parseLong(m.group(4));
        if (thread != p) {
            problem("thread name and producer field differ at line " + lines + ": " + line);
        }
        if ((m.group(1).startsWith("WARN")) != SoakLoad.isWarn(p, seq)) {
            problem("wrong level at line " + lines + ": " + line);
        }
        if (p >= last.length) {
            int old = last.length;
            last = Arrays.copyOf(last, p + 1);
            Arrays.fill(last, old, p + 1, -1);
        }
        long prev = last[p];
        if (seq <= prev) {
            problem("producer " + p + " seq " + seq + " after " + prev + " (duplicate or reordered), line " + lines);
        } else if (gapFree && seq != prev + 1) {
            problem("producer " + p + " lost seq " + (prev + 1) + " to " + (seq - 1) + ", line " + lines);
        } else {
            checkWarnsBetween(p, prev, seq);
        }
        last[p] = seq;
        eventLines++;
    }

    /** Every WARN sequence number strictly between {@code from} and {@code to} is missing. */
    private void checkWarnsBetween(int p, long from, long to) {
        if (p != 0) {
            return; // only producer 0 logs WARN
        }
        long firstWarn = (from + 1) + Math.floorMod(SoakLoad.WARN_EVERY - 1 - (from + 1), SoakLoad.WARN_EVERY);
        if (firstWarn < to) {
            problem("producer " + p + " lost WARN seq " + firstWarn + " (between " + from + " and " + to + ")");
        }
    }

    /**
     * Checks the tail: after the last line of producer {@code p} no WARN event (and under gap-free
     * no event at all) may be missing.
     *
     * @param produced events logged per producer, as the child reported
     */
    public void finish(long[] produced) {
        for (int p = 0; p < produced.length; p++) {
            long l = p < last.length ? last[p] : -1;
            if (l >= produced[p]) {
                problem("producer " + p + " wrote seq " + l + " but produced only " + produced[p]);
            } else if (gapFree && l != produced[p] - 1) {
                problem("producer " + p + " lost its tail: last seq " + l + " of " + produced[p]);
            } else {
                checkWarnsBetween(p, l, produced[p]);
            }
        }
        if (last.length > produced.length) {
            problem("lines from producer " + (last.length - 1) + " that does not exist");
        }
    }

    private void problem(String what) {
        if (problem == null) {
            problem = what;
        }
    }

    /** @return the first problem found, or {@code null} */
    public String problem() {
        return problem;
    }

    /** @return event lines seen */
    public long eventLines() {
        return eventLines;
    }

    /** @return discard summary lines seen */
    public long summaryLines() {
        return summaryLines;
    }

    /** @return the sum of the counts of every summary line */
    public long summarized() {
        return summarized;
    }
}
