package io.github.spool.bench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OutputVerifierTest {

    private static final long T0 = 1_795_000_000_000L;
    private static final Map<Integer, Long> TWO_THREADS_OF_50 = Map.of(0, 50L, 1, 50L);

    /** Two producers of 50 lines each, interleaved in order within each thread. */
    private static List<String> lines() {
        LineFormatter[] f = {new LineFormatter("producer-0"), new LineFormatter("producer-1")};
        List<String> lines = new ArrayList<>();
        for (int seq = 0; seq < 50; seq++) {
            for (int t = 0; t < 2; t++) {
                int len = f[t].format(seq, T0 + seq);
                lines.add(new String(f[t].buffer(), 0, len, StandardCharsets.US_ASCII));
            }
        }
        return lines;
    }

    private static OutputVerifier.Verdict verify(List<String> lines) {
        byte[] all = String.join("", lines).getBytes(StandardCharsets.US_ASCII);
        OutputVerifier v = new OutputVerifier();
        v.accept(all, 0, all.length);
        return v.finish(TWO_THREADS_OF_50);
    }

    @Test
    void acceptsCompleteOrderedOutput() {
        OutputVerifier.Verdict verdict = verify(lines());
        assertTrue(verdict.ok(), verdict.summary());
        assertEquals(100, verdict.lines());
    }

    @Test
    void formattedLineHasTheFrameworkShape() {
        LineFormatter f = new LineFormatter("producer-3");
        int len = f.format(500_000, 0);
        String line = new String(f.buffer(), 0, len, StandardCharsets.US_ASCII);
        assertTrue(line.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.000 \\[producer-3] INFO  anchors\\.Bench"
                + " - Order processed id=500000 status=OK size=7\n"), line);
    }

    @Test
    void catchesAMissingLine() {
        List<String> lines = lines();
        lines.remove(41);
        OutputVerifier.Verdict verdict = verify(lines);
        assertFalse(verdict.ok());
        assertEquals(1, verdict.missing());
    }

    @Test
    void catchesAMissingLastLine() {
        List<String> lines = lines();
        lines.remove(lines.size() - 1);
        OutputVerifier.Verdict verdict = verify(lines);
        assertFalse(verdict.ok());
        assertEquals(1, verdict.missing());
    }

    @Test
    void catchesADuplicatedLine() {
        List<String> lines = lines();
        lines.add(30, lines.get(28));
        OutputVerifier.Verdict verdict = verify(lines);
        assertFalse(verdict.ok());
        assertEquals(1, verdict.surplus());
        assertTrue(verdict.outOfOrder() > 0);
    }

    @Test
    void catchesATornLine() {
        List<String> lines = lines();
        String a = lines.get(10);
        String b = lines.get(11);
        // two writers interleaved inside a line: half of a, all of b, rest of a
        lines.set(10, a.substring(0, 40) + b + a.substring(40));
        lines.remove(11);
        OutputVerifier.Verdict verdict = verify(lines);
        assertFalse(verdict.ok());
        assertTrue(verdict.malformed() >= 1, verdict.summary());
    }

    @Test
    void catchesATruncatedFinalLine() {
        List<String> lines = lines();
        String last = lines.get(lines.size() - 1);
        lines.set(lines.size() - 1, last.substring(0, last.length() - 10));
        OutputVerifier.Verdict verdict = verify(lines);
        assertFalse(verdict.ok());
        assertEquals(1, verdict.malformed());
    }

    @Test
    void catchesReorderedLinesOfOneThread() {
        List<String> lines = lines();
        // lines 20 and 22 are producer-0's id=10 and id=11
        Collections.swap(lines, 20, 22);
        OutputVerifier.Verdict verdict = verify(lines);
        assertFalse(verdict.ok());
        assertEquals(0, verdict.missing());
        assertEquals(0, verdict.surplus());
        assertTrue(verdict.outOfOrder() >= 1, verdict.summary());
    }

    @Test
    void catchesAForeignLine() {
        List<String> lines = lines();
        lines.add(5, "WARN status logger: something\n");
        OutputVerifier.Verdict verdict = verify(lines);
        assertFalse(verdict.ok());
        assertEquals(1, verdict.malformed());
    }

    @Test
    void catchesAnUnexpectedProducer() {
        List<String> lines = lines();
        LineFormatter f = new LineFormatter("producer-7");
        int len = f.format(0, T0);
        lines.add(new String(f.buffer(), 0, len, StandardCharsets.US_ASCII));
        assertFalse(verify(lines).ok());
    }

    @Test
    void verdictDoesNotDependOnHowTheStreamIsChunked() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<String> lines = lines();
        lines.remove(17); // a defect, so that the detailed verdicts are compared, not just "ok"
        byte[] all = String.join("", lines).getBytes(StandardCharsets.US_ASCII);
        OutputVerifier.Verdict whole = verify(lines);
        OutputVerifier chunked = new OutputVerifier();
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        for (int pos = 0; pos < all.length; ) {
            int n = Math.min(all.length - pos, random.nextInt(300));
            chunked.accept(all, pos, n);
            copy.write(all, pos, n);
            pos += n;
        }
        assertTrue(Arrays.equals(all, copy.toByteArray()));
        assertEquals(whole, chunked.finish(TWO_THREADS_OF_50), "seed " + seed);
    }
}
