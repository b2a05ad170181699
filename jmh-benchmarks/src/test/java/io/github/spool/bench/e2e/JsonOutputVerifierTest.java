package io.github.spool.bench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonOutputVerifierTest {

    private static final Map<Integer, Long> TWO_THREADS_OF_3 = Map.of(0, 3L, 1, 3L);

    /** Two producers of 3 lines each, alternating: logstash's {@code thread_name} or ECS's {@code process.thread.name}. */
    private static List<String> lines(String threadField) {
        List<String> lines = new ArrayList<>();
        for (int seq = 0; seq < 3; seq++) {
            for (int t = 0; t < 2; t++) {
                lines.add("{\"@timestamp\":\"2026-11-28T03:00:00.000Z\",\"message\":\"Order processed id=" + seq
                        + " status=OK size=7\",\"" + threadField + "\":\"producer-" + t + "\",\"level\":\"INFO\"}\n");
            }
        }
        return lines;
    }

    private static OutputVerifier.Verdict verify(Path dir, List<String> lines) throws Exception {
        Path file = dir.resolve("out.json");
        Files.writeString(file, String.join("", lines), StandardCharsets.UTF_8);
        return new JsonOutputVerifier().verify(file, TWO_THREADS_OF_3);
    }

    @Test
    void acceptsBothThreadFields(@TempDir Path dir) throws Exception {
        for (String field : List.of("thread_name", "process.thread.name")) {
            OutputVerifier.Verdict v = verify(dir, lines(field));
            assertTrue(v.ok(), v.summary());
            assertEquals(6, v.lines());
        }
    }

    @Test
    void rejectsTornInterleavedMissingAndReordered(@TempDir Path dir) throws Exception {
        List<String> torn = lines("thread_name");
        torn.set(5, torn.get(5).substring(0, 40) + "\n");
        assertEquals(1, verify(dir, torn).malformed());

        List<String> twoOnOneLine = lines("thread_name");
        twoOnOneLine.set(4, twoOnOneLine.get(4).strip() + twoOnOneLine.remove(5));
        assertFalse(verify(dir, twoOnOneLine).ok());

        List<String> missing = lines("thread_name");
        missing.remove(2);
        OutputVerifier.Verdict m = verify(dir, missing);
        assertFalse(m.ok());
        assertEquals(1, m.missing());

        List<String> reordered = lines("thread_name");
        reordered.add(0, reordered.remove(2));
        assertTrue(verify(dir, reordered).outOfOrder() > 0);

        List<String> noEnd = lines("thread_name");
        noEnd.set(5, noEnd.get(5).strip());
        assertFalse(verify(dir, noEnd).ok());
    }
}
