package io.github.spool.bench.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Checks a benchmark's output stream for count and integrity: every line must be a complete
 * {@link EventLine} line (timestamp, {@code [producer-N]}, level, logger, message), and each
 * producer's sequence numbers must appear exactly once each, in order, starting at 0. Catches a
 * missing, duplicated, torn (interleaved or truncated) or reordered line.
 *
 * <p>Streaming: {@link #accept} takes the bytes in chunks of any size as they arrive (from a pipe
 * or a file), so even a 10M-line output needs no memory beyond one partial line. Not thread-safe:
 * one reader feeds it.
 */
public final class OutputVerifier {

    private static final byte[] LEVEL_AND_LOGGER =
            ("] INFO  " + EventLine.LOGGER + " - " + EventLine.MESSAGE_HEAD).getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TAIL = EventLine.MESSAGE_TAIL.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] THREAD = (" [" + EventLine.THREAD_PREFIX).getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_LINE = 1024;

    private final byte[] partial = new byte[MAX_LINE];
    private int partialLength;
    private boolean partialOverflow;
    private long lines;
    private long bytes;
    private final SequenceTally tally = new SequenceTally();

    /**
     * Feeds the next chunk of output.
     *
     * @param buf    bytes
     * @param offset first byte
     * @param length number of bytes
     */
    public void accept(byte[] buf, int offset, int length) {
        bytes += length;
        int end = offset + length;
        int start = offset;
        for (int i = offset; i < end; i++) {
            if (buf[i] != '\n') {
                continue;
            }
            if (partialLength == 0 && !partialOverflow) {
                line(buf, start, i - start);
            } else {
                appendPartial(buf, start, i - start);
                if (partialOverflow) {
                    tally.malformed("line " + (lines + 1) + ": longer than " + MAX_LINE + " bytes");
                    lines++;
                } else {
                    line(partial, 0, partialLength);
                }
                partialLength = 0;
                partialOverflow = false;
            }
            start = i + 1;
        }
        if (start < end) {
            appendPartial(buf, start, end - start);
        }
    }

    /**
     * Reads a whole file through {@link #accept}.
     *
     * @param file the output file
     * @return this verifier
     * @throws IOException if the file cannot be read
     */
    public OutputVerifier acceptFile(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) >= 0; ) {
                accept(buf, 0, n);
            }
        }
        return this;
    }

    /**
     * Ends the stream and compares what was seen with what the producers say they produced.
     *
     * @param expected events produced per producer index; producers with 0 events may be omitted
     * @return the verdict
     */
    public Verdict finish(Map<Integer, Long> expected) {
        if (partialLength > 0 || partialOverflow) {
            lines++;
            tally.malformed("line " + lines + ": torn, no line end at the end of the output");
            partialLength = 0;
            partialOverflow = false;
        }
        return tally.verdict(lines, bytes, expected);
    }

    private void appendPartial(byte[] buf, int offset, int length) {
        if (partialOverflow || partialLength + length > MAX_LINE) {
            partialOverflow = true;
            return;
        }
        System.arraycopy(buf, offset, partial, partialLength, length);
        partialLength += length;
    }

    private void line(byte[] b, int off, int len) {
        lines++;
        int end = off + len;
        // yyyy-MM-dd HH:mm:ss.SSS
        if (len < 23 + THREAD.length || !timestamp(b, off)) {
            malformed(b, off, len);
            return;
        }
        int p = off + 23;
        if (!matches(b, p, end, THREAD)) {
            malformed(b, off, len);
            return;
        }
        p += THREAD.length;
        int threadStart = p;
        long thread = 0;
        while (p < end && b[p] >= '0' && b[p] <= '9' && p - threadStart < 6) {
            thread = thread * 10 + (b[p++] - '0');
        }
        if (p == threadStart || !matches(b, p, end, LEVEL_AND_LOGGER)) {
            malformed(b, off, len);
            return;
        }
        p += LEVEL_AND_LOGGER.length;
        int seqStart = p;
        long seq = 0;
        while (p < end && b[p] >= '0' && b[p] <= '9' && p - seqStart < 18) {
            seq = seq * 10 + (b[p++] - '0');
        }
        if (p == seqStart || end - p != TAIL.length || !matches(b, p, end, TAIL)) {
            malformed(b, off, len);
            return;
        }
        tally.sequence(lines, (int) thread, seq);
    }

    private static boolean timestamp(byte[] b, int off) {
        for (int i = 0; i < 23; i++) {
            byte c = b[off + i];
            boolean ok;
            switch (i) {
                case 4, 7 -> ok = c == '-';
                case 10 -> ok = c == ' ';
                case 13, 16 -> ok = c == ':';
                case 19 -> ok = c == '.';
                default -> ok = c >= '0' && c <= '9';
            }
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean matches(byte[] b, int p, int end, byte[] literal) {
        if (end - p < literal.length) {
            return false;
        }
        for (int i = 0; i < literal.length; i++) {
            if (b[p + i] != literal[i]) {
                return false;
            }
        }
        return true;
    }

    private void malformed(byte[] b, int off, int len) {
        tally.malformed("line " + lines + ": malformed: " + new String(b, off, Math.min(len, 160), StandardCharsets.ISO_8859_1));
    }

    /**
     * What the verifier found.
     *
     * @param lines      complete lines seen (malformed ones included)
     * @param bytes      bytes seen
     * @param malformed  lines that are not a complete event line (torn, interleaved, foreign)
     * @param outOfOrder lines whose sequence number does not follow the previous one of its thread
     * @param missing    events produced but not seen
     * @param surplus    events seen more often than produced
     * @param problems   the first few problems, for the report
     */
    public record Verdict(long lines, long bytes, long malformed, long outOfOrder, long missing, long surplus,
                          List<String> problems) {

        /** @return whether the output is exactly what was produced, in order */
        public boolean ok() {
            return malformed == 0 && outOfOrder == 0 && missing == 0 && surplus == 0 && problems.isEmpty();
        }

        /** @return a one-line summary */
        public String summary() {
            if (ok()) {
                return "OK " + lines + " lines";
            }
            return "FAILED lines=" + lines + " malformed=" + malformed + " outOfOrder=" + outOfOrder + " missing="
                    + missing + " surplus=" + surplus + " " + problems;
        }
    }
}
